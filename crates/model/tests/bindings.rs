//! The UI's TypeScript types are generated from these Rust types and checked in at
//! `ui/src/lib/types/generated.ts`. This test fails when the checked-in copy is stale; run it with
//! `UPDATE_BINDINGS=1` to write a fresh copy.

use std::path::PathBuf;

use studio_model::*;
use ts_rs::TS;

macro_rules! declarations {
    ($cfg:expr; $($ty:ty),* $(,)?) => {
        vec![$(format!("export {}", <$ty as TS>::decl($cfg))),*]
    };
}

fn generated() -> String {
    let cfg = ts_rs::Config::default();
    let mut out = String::from(
        "// Generated from the Rust types of crates/model by its `bindings` test; do not edit.\n\
         // Regenerate: UPDATE_BINDINGS=1 cargo test -p studio-model --test bindings\n\n\
         export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;\n",
    );
    for decl in declarations!(&cfg;
        Configuration, Config, ResultSettings, Filter, FacetSetting, ColourPair, Layout, Details, DetailSetting,
        FieldError, ConfigurationList, WriteOutcome, LogAction, LogEntry,
        Document, FacetGroup, Refiner, SelectedFacet, SearchRequest, SearchResponse, SimilarQuery, RecommendQuery,
        Recommendations, FacetKind, FacetField, SearchSpace,
    ) {
        out.push('\n');
        out.push_str(&decl);
        if !decl.ends_with(';') {
            out.push(';');
        }
        out.push('\n');
    }
    out
}

#[test]
fn checked_in_typescript_types_match_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/types/generated.ts");
    let fresh = generated();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "{} is stale; regenerate it with UPDATE_BINDINGS=1 cargo test -p studio-model --test bindings",
        path.display()
    );
}

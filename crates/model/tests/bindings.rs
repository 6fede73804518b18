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
        Recommendations, FacetKind, FacetField, SearchSpace, ErrorCode, Extension, Offers,
    ) {
        out.push('\n');
        out.push_str(&decl);
        if !decl.ends_with(';') {
            out.push(';');
        }
        out.push('\n');
    }
    out.push_str("\n/** The HTTP status each error code is answered with; null for codes that never cross HTTP as themselves. */\n");
    out.push_str("export const ERROR_STATUS: { readonly [code in ErrorCode]: number | null } = {\n");
    for code in ErrorCode::ALL {
        let status = code.status().map_or("null".to_owned(), |s| s.to_string());
        out.push_str(&format!("  {}: {status},\n", code.as_str()));
    }
    out.push_str("};\n");
    out.push_str("\n/** Each extension of the API: its method and path (as OpenAPI writes them), and the operation in words. */\n");
    out.push_str("export const EXTENSIONS: { readonly [e in Extension]: { method: string; path: string; operation: string } } = {\n");
    for extension in Extension::ALL {
        let (method, path) = extension.route();
        let name = serde_json::to_value(extension).unwrap();
        out.push_str(&format!(
            "  {}: {{ method: {method:?}, path: {path:?}, operation: {:?} }},\n",
            name.as_str().unwrap(),
            extension.operation()
        ));
    }
    out.push_str("};\n");
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

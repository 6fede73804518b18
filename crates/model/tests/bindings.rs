//! The UI's TypeScript types are generated from these Rust types and checked in at
//! `ui/src/lib/types/generated.ts`, together with the constants the UI must not restate: error statuses,
//! extensions, and the configuration rules (the rule table itself, its messages, lists, limits and item
//! defaults). This test fails when the checked-in copy is stale; run it with `UPDATE_BINDINGS=1` to write a
//! fresh copy.

use std::path::PathBuf;

use studio_model::*;
use ts_rs::TS;

macro_rules! declarations {
    ($cfg:expr; $($ty:ty),* $(,)?) => {
        vec![$(<$ty as TS>::decl($cfg)),*]
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
        Recommendations, FacetKind, FacetField, SearchSpace, FieldHealth, FacetHealth, Explanation, Reason, ErrorCode, Extension, Offers,
    ) {
        studio_testkit::bindings::push_declaration(&mut out, &decl);
    }
    out.push_str("\n/** The HTTP status each error code is answered with; null for codes that never cross HTTP as themselves. */\n");
    out.push_str("export const ERROR_STATUS: { readonly [code in ErrorCode]: number | null } = {\n");
    for code in ErrorCode::ALL {
        let status = code.status().map_or("null".to_owned(), |s| s.to_string());
        out.push_str(&format!("  {}: {status},\n", code.as_str()));
    }
    out.push_str("};\n");
    let unreachable: Vec<&str> =
        ErrorCode::ALL.into_iter().filter(|c| c.is_unreachable()).map(ErrorCode::as_str).collect();
    out.push_str(&format!(
        "\n/** The codes that mean the server could not be reached at all (or not in time): only then is a connection offline. */\n\
         export const UNREACHABLE_CODES: readonly ErrorCode[] = {};\n",
        serde_json::to_string(&unreachable).unwrap()
    ));
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
    out.push_str(&rules());
    out
}

/// A list of names as a TypeScript tuple of literals.
fn names(list: &[&str]) -> String {
    let quoted: Vec<String> = list.iter().map(|s| format!("{s:?}")).collect();
    format!("[{}] as const", quoted.join(", "))
}

fn pretty(value: &impl serde::Serialize) -> String {
    literal(&serde_json::to_value(value).unwrap(), 0)
}

/// A JSON value as a TypeScript literal: an object that holds objects, or would make a long line, spreads over
/// lines; anything else stays on one line.
fn literal(value: &serde_json::Value, depth: usize) -> String {
    use serde_json::Value;
    let key = |k: &str| {
        if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            k.to_owned()
        } else {
            format!("{k:?}")
        }
    };
    match value {
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        Value::Object(map) => {
            let parts: Vec<String> = map.iter().map(|(k, v)| format!("{}: {}", key(k), literal(v, depth))).collect();
            let line = format!("{{ {} }}", parts.join(", "));
            let nested = map.values().any(|v| v.as_object().is_some_and(|o| !o.is_empty()));
            if !nested && line.len() + 2 * depth < 110 {
                return line;
            }
            let pad = "  ".repeat(depth + 1);
            let lines: Vec<String> =
                map.iter().map(|(k, v)| format!("{pad}{}: {},\n", key(k), literal(v, depth + 1))).collect();
            format!("{{\n{}{}}}", lines.concat(), "  ".repeat(depth))
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|v| literal(v, depth)).collect();
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

/// The configuration rules of crates/model/src/rules.rs, which ui/src/lib/editor/rules.ts applies.
fn rules() -> String {
    let mut out = String::from(
        "\n/** What one configuration key accepts (the `Rule` of crates/model/src/rules.rs). */\n\
         export type ConfigRule =\n  \
         | { kind: \"bool\" }\n  \
         | { kind: \"int\"; min: number; max: number }\n  \
         | { kind: \"oneOf\"; allowed: readonly string[] }\n  \
         | { kind: \"text\" }\n  \
         | { kind: \"nonEmpty\" }\n  \
         | { kind: \"colour\" }\n  \
         | { kind: \"logo\" }\n  \
         | { kind: \"object\"; fields: ConfigFields }\n  \
         | { kind: \"items\"; fields: ConfigFields; defaults: { [key in string]?: JsonValue } }\n  \
         | { kind: \"strings\" };\n\
         \n/** The keys of one object and their rules; a key not listed is unknown and kept as it came. */\n\
         export type ConfigFields = { readonly [key in string]?: ConfigRule };\n",
    );
    out.push_str("\n/** The keys of `config` and their rules. */\n");
    out.push_str(&format!("export const CONFIG_RULES: ConfigFields = {};\n", pretty(&CONFIG_RULES)));
    out.push_str(
        "\n/** The message of each refusal; `{name}` is filled as `fill` of crates/model/src/rules.rs does. */\n",
    );
    out.push_str(&format!("export const RULE_MESSAGES = {} as const;\n", pretty(&MESSAGES)));
    out.push_str("\n/** Largest `data:` URI accepted as a logo, in bytes (the whole URI as written). */\n");
    out.push_str(&format!("export const MAX_LOGO_BYTES = {MAX_LOGO_BYTES};\n"));
    out.push_str(&format!("export const LOGO_TYPES = {};\n", names(LOGO_TYPES)));
    out.push_str("\n/** The logo picker's words for an image file; `{name}` is filled as `fill` of crates/model/src/rules.rs does. */\n");
    out.push_str(&format!("export const LOGO_FILE_MESSAGES = {} as const;\n", pretty(&LOGO_FILE_MESSAGES)));
    out.push_str(&format!("export const LOGO_TYPE_NAMES = {LOGO_TYPE_NAMES:?};\n"));
    out.push_str("\n/** What a facet or detail item starts from: each key a body leaves out or gets wrong. */\n");
    out.push_str(&format!("export const FACET_DEFAULTS: FacetSetting = {};\n", pretty(&FacetSetting::default())));
    out.push_str(&format!("export const DETAIL_DEFAULTS: DetailSetting = {};\n", pretty(&DetailSetting::default())));
    out.push('\n');
    for (name, list) in [
        ("TITLE_ACTIONS", TITLE_ACTIONS),
        ("DATE_FORMATS", DATE_FORMATS),
        ("FACET_MODES", FACET_MODES),
        ("SORTINGS", SORTINGS),
        ("SORTING_ORDERS", SORTING_ORDERS),
        ("RECOMMENDERS", RECOMMENDERS),
        ("SIMILARITY_PLUGINS", SIMILARITY_PLUGINS),
        ("COMPONENTS", COMPONENTS),
    ] {
        out.push_str(&format!("export const {name} = {};\n", names(list)));
    }
    out
}

#[test]
fn checked_in_typescript_types_match_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/types/generated.ts");
    let fresh = generated();
    studio_testkit::bindings::check_or_write(&path, &fresh, "cargo test -p studio-model --test bindings");
}

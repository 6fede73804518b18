//! The web UI's table of how each operation of the API travels over HTTP, checked in at
//! `ui/src/lib/types/operations.ts`: its method and path, where each argument goes (the path's `{…}` in
//! order, then the query for a GET or the body), which field of the answer the operation answers, and what
//! a field another server leaves out reads as. All of it comes from the OpenAPI document of the routes and
//! from the `Backend` trait; which operation a route is comes from the one backend call of its handler
//! (`s.backend.<operation>(…)` under its `#[utoipa::path]` in `src/routes/`; `<operation>_written` is that
//! operation written as the server sends it), so that the UI's HTTP transport
//! writes no path or method of its own. This test fails when the copy is stale; run it with `UPDATE_BINDINGS=1` to write a fresh one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// The repository's root, two folders above this crate's.
fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().and_then(Path::parent).unwrap_or(manifest).to_path_buf()
}

/// `search_spaces` → `searchSpaces`, as the UI names an operation.
fn camel_case(snake: &str) -> String {
    let mut parts = snake.split('_');
    let first = parts.next().unwrap_or_default().to_owned();
    parts.fold(first, |mut out, part| {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            out.extend(c.to_uppercase());
            out.push_str(chars.as_str());
        }
        out
    })
}

/// The backend operation each route calls, by method and path (as the OpenAPI document writes them), read
/// from the source of `src/routes/`: a handler is a function under a `#[utoipa::path]` (whose path is relative
/// to `/api`, where the API is nested), and calls the backend exactly once.
fn route_operations() -> BTreeMap<(String, String), String> {
    let dir = root().join("crates/server/src/routes");
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let text: String = std::fs::read_to_string(&path).unwrap().chars().filter(|c| !c.is_whitespace()).collect();
        for declared in text.split("#[utoipa::path(").skip(1) {
            let context = format!("{}: #[utoipa::path({}…", path.display(), &declared[..declared.len().min(40)]);
            let method = declared.split(',').next().unwrap_or_default().to_owned();
            let route = declared
                .split_once("path=\"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(route, _)| format!("/api{route}"))
                .unwrap_or_else(|| panic!("{context}: no path"));
            let calls: Vec<&str> = declared
                .split(".backend.")
                .skip(1)
                .filter_map(|rest| rest.split_once('(').map(|(name, _)| name))
                .collect();
            let [operation] = calls.as_slice() else {
                panic!("{context}: the handler calls the backend {} times, not once", calls.len())
            };
            // `search_written` is the search written as the server sends it (crates/model/src/backend.rs): the same
            // operation, answered alike, which the UI calls `search`.
            let operation = operation.strip_suffix("_written").unwrap_or(operation);
            found.insert((method, route), operation.to_owned());
        }
    }
    found
}

/// What an operation of the `Backend` trait takes and answers, from `crates/model/src/backend.rs`.
struct TraitMethod {
    /// The arguments the caller gives (not `&self`, not the `&Caller` a transport fills in).
    arguments: usize,
    /// The answer's type, e.g. `Vec<Document>`; `()` for none.
    answer: String,
}

fn trait_methods() -> BTreeMap<String, TraitMethod> {
    let path = root().join("crates/model/src/backend.rs");
    let text: String = std::fs::read_to_string(&path).unwrap().chars().filter(|c| !c.is_whitespace()).collect();
    let body = text.split_once("pubtraitBackend").map(|(_, b)| b).expect("the Backend trait");
    body.split("asyncfn")
        .skip(1)
        .map(|method| {
            let (name, rest) = method.split_once('(').expect("a method's arguments");
            let (arguments, rest) = rest.split_once(")->").expect("a method's answer");
            let arguments = arguments.split(',').filter(|a| a.contains(':') && !a.ends_with(":&Caller")).count();
            let answer = rest
                .strip_prefix("Result<")
                .and_then(|r| r.split_once(",BackendError>"))
                .map(|(ok, _)| ok.to_owned())
                .unwrap_or_else(|| rest.split(['{', ';']).next().unwrap_or_default().to_owned());
            (name.to_owned(), TraitMethod { arguments, answer })
        })
        .collect()
}

/// The schema `reference` points at (`#/components/schemas/Name`).
fn component<'a>(document: &'a Value, reference: &Value) -> Option<(&'a str, &'a Value)> {
    let name = reference.as_str()?.strip_prefix("#/components/schemas/")?;
    document["components"]["schemas"].as_object()?.get_key_value(name).map(|(name, schema)| (name.as_str(), schema))
}

/// Whether property schema `property` is the type `rust` (a named type, a number, text, a flag, or a `Vec`
/// of one of those).
fn is_type(property: &Value, rust: &str) -> bool {
    if let Some(item) = rust.strip_prefix("Vec<").and_then(|r| r.strip_suffix('>')) {
        return property["type"] == "array" && is_type(&property["items"], item);
    }
    let json_type = match rust {
        "String" => "string",
        "bool" => "boolean",
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" => "integer",
        "f32" | "f64" => "number",
        named => return property["$ref"].as_str() == Some(&format!("#/components/schemas/{named}")),
    };
    property["type"] == json_type
}

/// What a field left out of an answer reads as: the schema's default, else an empty list for a list and null
/// for what may be null.
fn absent_values(schema: &Value) -> serde_json::Map<String, Value> {
    let mut absent = serde_json::Map::new();
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        let nullable = property["type"].as_array().is_some_and(|types| types.contains(&json!("null")));
        let value = match property.get("default") {
            Some(default) => default.clone(),
            None if property["type"] == "array" => json!([]),
            None if nullable => Value::Null,
            None => continue,
        };
        absent.insert(name.clone(), value);
    }
    absent
}

/// One line of the table.
fn route(document: &Value, path: &str, method: &str, operation: &Value, answered: &TraitMethod) -> Value {
    let context = format!("{} {path}", method.to_uppercase());
    let in_path = operation["parameters"].as_array().into_iter().flatten().filter(|p| p["in"] == "path").count();
    let in_query = operation["parameters"].as_array().into_iter().flatten().any(|p| p["in"] == "query");
    let mut places = vec!["path"; in_path];
    if in_query {
        places.push("query");
    }
    if operation.get("requestBody").is_some() {
        places.push("body");
    }
    assert_eq!(
        places.len(),
        answered.arguments,
        "{context}: the route takes {places:?}, the Backend trait's method takes {} arguments",
        answered.arguments
    );
    let schema = &operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"];
    let (name, body) = component(document, schema).unwrap_or_else(|| panic!("{context}: no schema of its answer"));
    // The answer is the body when the body is the trait's answer type, else the body's field of that type,
    // else the body less the `message` every answer of this server carries (a list with its active id, a write
    // outcome, facet health, nothing at all).
    let whole = answered.answer == name;
    let field = match answered.answer.as_str() {
        _ if whole => None,
        rust => body["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .find(|(_, property)| is_type(property, rust))
            .map(|(field, _)| field.clone()),
    };
    let omit: Vec<&str> = if whole || field.is_some() { vec![] } else { vec!["message"] };
    let mut absent = absent_values(body);
    absent.retain(|name, _| !omit.contains(&name.as_str()));
    json!({
        "method": method.to_uppercase(),
        "path": path,
        "args": places,
        "answer": field,
        "omit": omit,
        "absent": absent,
    })
}

fn generated() -> String {
    let document = serde_json::to_value(studio_server::openapi::document()).unwrap();
    let operations = route_operations();
    let methods = trait_methods();
    let mut routes: BTreeMap<String, Value> = BTreeMap::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let Some(name) = operations.get(&(method.clone(), path.clone())) else { continue };
            let answered = methods.get(name).unwrap_or_else(|| panic!("the Backend trait has no method {name}"));
            let line = route(&document, path, method, operation, answered);
            assert!(routes.insert(camel_case(name), line).is_none(), "two routes call {name}");
        }
    }
    // In the order of the trait.
    let order: Vec<&String> = {
        let text = std::fs::read_to_string(root().join("crates/model/src/backend.rs")).unwrap();
        let mut names: Vec<(usize, &String)> = routes
            .keys()
            .map(|k| (text.find(&format!("async fn {}(", snake_case(k))).unwrap_or(usize::MAX), k))
            .collect();
        names.sort();
        names.into_iter().map(|(_, k)| k).collect()
    };
    let mut out = String::from(
        "// Generated from the server's routes (their OpenAPI document, and the Backend operation each handler calls)\n\
         // and the Backend trait by the server's `operations` test; do not edit.\n\
         // Regenerate: UPDATE_BINDINGS=1 cargo test -p studio-server --test main operations\n\n\
         /** Where an argument of an operation goes: the next `{…}` of the path, the query string, or the body. */\n\
         export type ArgumentPlace = 'path' | 'query' | 'body';\n\n\
         /** How an operation of the API travels over HTTP. */\n\
         export interface Route {\n  \
         method: 'GET' | 'POST' | 'PUT' | 'DELETE';\n  \
         path: string;\n  \
         /** Where each argument goes, in order. */\n  \
         args: readonly ArgumentPlace[];\n  \
         /** The field of the answer's body that is the operation's answer; null: the whole body. */\n  \
         answer: string | null;\n  \
         /** Fields of the body that are not part of the answer (the server's `message`). */\n  \
         omit: readonly string[];\n  \
         /** What a field another server leaves out of the body reads as. */\n  \
         absent: Readonly<Record<string, unknown>>;\n}\n\n\
         /** Every operation of the API that the server routes, by the name the UI calls it. */\n\
         export const ROUTES = {\n",
    );
    for name in order {
        out.push_str(&format!("  {name}: {},\n", routes[name]));
    }
    out.push_str("} as const satisfies Record<string, Route>;\n");
    out
}

/// `searchSpaces` → `search_spaces`.
fn snake_case(camel: &str) -> String {
    camel.chars().fold(String::new(), |mut out, c| {
        if c.is_uppercase() {
            out.push('_');
        }
        out.extend(c.to_lowercase());
        out
    })
}

#[test]
fn checked_in_operation_routes_match_the_routes_and_the_backend_trait() {
    let path: &Path = &root().join("ui/src/lib/types/operations.ts");
    studio_testkit::bindings::check_or_write(path, &generated(), "cargo test -p studio-server --test main operations");
}

//! The JSON Schema of a configuration file, made from the one model: the OpenAPI components of
//! `studio_model::Config` and its parts (the same ones `/api-docs` publishes), with the limits of the rule
//! table (`studio_model::CONFIG_RULES`) added where a schema can say them (ranges, allowed values, colours,
//! non-empty text), around the file's own keys. `studio config pull` writes it into each folder
//! ([`format::META_DIR`](super::format::META_DIR)), and the repository keeps a copy at
//! `docs/schema/configuration.schema.json` that a test holds to this.

use serde_json::{json, Map, Value};
use studio_model::{Config, Fields, Rule, CONFIG_RULES};
use utoipa::{PartialSchema, ToSchema};

/// Where OpenAPI's references point, and where a JSON Schema keeps the same definitions.
const OPENAPI_REFS: &str = "#/components/schemas/";
const SCHEMA_REFS: &str = "#/$defs/";

/// The schema's text, as written to a folder: two spaces, a final newline.
pub fn schema_text() -> String {
    // Our own JSON value always serialises.
    let mut text = serde_json::to_string_pretty(&schema()).unwrap_or_default();
    text.push('\n');
    text
}

/// The schema of a configuration file.
pub fn schema() -> Value {
    let mut parts = vec![(Config::name().into_owned(), Config::schema())];
    Config::schemas(&mut parts);
    let mut defs = Map::new();
    for (name, part) in parts {
        defs.insert(name, serde_json::to_value(part).unwrap_or_default());
    }
    let mut defs = Value::Object(defs);
    point_refs_at_defs(&mut defs);
    add_rules(&mut defs, &Config::name(), CONFIG_RULES);
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Search Studio configuration file",
        "description": "One configuration of a folder of configuration files (docs/config-files.md). \
            Generated from the configuration model; do not edit.",
        "type": "object",
        "required": ["config"],
        "properties": {
            "$schema": {
                "type": "string",
                "description": "The schema an editor checks this file with: this file, kept in the folder's .studio."
            },
            "active": {
                "type": "boolean",
                "default": false,
                "description": "Whether this is the active configuration of the store or server the folder is applied \
                    to; at most one file of a folder says true."
            },
            "config": {"$ref": format!("{SCHEMA_REFS}{}", Config::name())}
        },
        "$defs": defs
    })
}

fn point_refs_at_defs(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                match child {
                    Value::String(target) if key == "$ref" => {
                        if let Some(name) = target.strip_prefix(OPENAPI_REFS) {
                            *target = format!("{SCHEMA_REFS}{name}");
                        }
                    }
                    _ => point_refs_at_defs(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(point_refs_at_defs),
        _ => {}
    }
}

/// Adds the limits of `fields` to the properties of definition `name`, following references into nested
/// objects and array items.
fn add_rules(defs: &mut Value, name: &str, fields: Fields) {
    for field in fields.0 {
        let Some(property) = defs.pointer_mut(&format!("/{name}/properties/{}", field.name)) else { continue };
        match &field.rule {
            Rule::Object { fields } => {
                if let Some(target) = referenced(property) {
                    add_rules(defs, &target, *fields);
                }
            }
            Rule::Items { fields, .. } => {
                if let Some(target) = property.get("items").and_then(referenced) {
                    add_rules(defs, &target, *fields);
                }
            }
            rule => limit(property, rule),
        }
    }
}

/// The definition a property refers to (directly, or as the one branch of a `oneOf`/`allOf`).
fn referenced(property: &Value) -> Option<String> {
    let direct = property.get("$ref").and_then(Value::as_str);
    let nested = ["allOf", "oneOf", "anyOf"]
        .iter()
        .filter_map(|k| property.get(*k).and_then(Value::as_array))
        .flatten()
        .find_map(|branch| branch.get("$ref").and_then(Value::as_str));
    direct.or(nested).and_then(|r| r.strip_prefix(SCHEMA_REFS)).map(str::to_owned)
}

fn limit(property: &mut Value, rule: &Rule) {
    let Some(property) = property.as_object_mut() else { return };
    match rule {
        Rule::Int { min, max } => {
            property.insert("minimum".into(), json!(min));
            property.insert("maximum".into(), json!(max));
        }
        Rule::OneOf { allowed } => {
            property.insert("enum".into(), json!(allowed));
        }
        Rule::NonEmpty => {
            property.insert("pattern".into(), json!("\\S"));
        }
        Rule::Colour => {
            property.insert("pattern".into(), json!("^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"));
        }
        Rule::Bool | Rule::Text | Rule::Logo | Rule::Strings | Rule::Object { .. } | Rule::Items { .. } => {}
    }
}

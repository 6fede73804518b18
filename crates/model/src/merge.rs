//! Create and update semantics (docs/api.md, "Create and update"): a request body is merged key by key into
//! a base (the defaults on create, the stored configuration on update). A valid key replaces the base's value; an invalid
//! key is reported as `{key, message}` with its dotted path and leaves the base's value in place; a key the
//! rules do not know is kept as it came.
//!
//! Arrays are replaced as a whole. Their items start from the item defaults, so an invalid key inside an item
//! takes its default. An item without a usable `uri` is dropped (its `uri` key is reported), and `refId`
//! always follows `uri`.
//!
//! The UI's `mergeConfig` (ui/src/lib/editor/rules.ts) walks the same generated table the same way; the
//! cases of crates/model/cases/validation.json hold both to one behaviour.

use serde_json::{Map, Value};

use crate::config::Configuration;
use crate::error::{BackendError, FieldError};
use crate::rules::{Fields, Rule, CONFIG_RULES, MESSAGES};

/// Envelope keys that the server assigns; a body's values for them are ignored.
const SERVER_OWNED: &[&str] = &["id", "created", "user"];

/// Builds a new configuration from a create body. `id`, `created` and `user` are left for the store to set.
///
/// Fails with `BadRequest` when the body is not an object, has no `config` object, or lacks a non-empty
/// `config.title` or `config.searchSpace`: then nothing may be created.
pub fn merge_create(body: &Value) -> Result<(Configuration, Vec<FieldError>), BackendError> {
    let config = config_object(body)?;
    let missing: Vec<&str> = ["title", "searchSpace"]
        .into_iter()
        .filter(|key| config.get(*key).and_then(Value::as_str).is_none_or(|s| s.trim().is_empty()))
        .collect();
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|k| format!("config.{k}")).collect();
        return Err(BackendError::BadRequest(format!("a new configuration needs a non-empty {}", names.join(" and "))));
    }
    merge_into(Configuration::template(), body)
}

/// Applies an update body to the stored configuration. Keys absent from the body keep their values.
pub fn merge_update(current: &Configuration, body: &Value) -> Result<(Configuration, Vec<FieldError>), BackendError> {
    config_object(body)?;
    merge_into(current.clone(), body)
}

/// The configuration as an editor has it: `overrides` (a `config` object) merged over `stored` by the update
/// rules, invalid keys ignored. Used to preview unsaved settings; nothing is stored.
pub fn with_overrides(stored: &Configuration, overrides: &Value) -> Configuration {
    let body = serde_json::json!({ "config": overrides });
    merge_update(stored, &body).map_or_else(|_| stored.clone(), |(merged, _)| merged)
}

fn config_object(body: &Value) -> Result<&Map<String, Value>, BackendError> {
    let Some(envelope) = body.as_object() else {
        return Err(BackendError::BadRequest(
            "the body must be a JSON object shaped as a configuration envelope".into(),
        ));
    };
    envelope
        .get("config")
        .and_then(Value::as_object)
        .ok_or_else(|| BackendError::BadRequest("the body must have a `config` object".into()))
}

fn merge_into(base: Configuration, body: &Value) -> Result<(Configuration, Vec<FieldError>), BackendError> {
    let (id, user, created) = (base.id, base.user.clone(), base.created.clone());
    let mut value = serde_json::to_value(base).map_err(internal)?;
    let mut errors = Vec::new();
    let (Some(target), Some(envelope)) = (value.as_object_mut(), body.as_object()) else {
        return Err(BackendError::Internal("a configuration did not serialise to an object".into()));
    };
    for (key, item) in envelope {
        if key == "config" {
            let slot = target.entry("config").or_insert_with(|| Value::Object(Map::new()));
            if let (Some(slot), Some(item)) = (slot.as_object_mut(), item.as_object()) {
                merge_object(slot, item, CONFIG_RULES, "config", &mut errors);
            }
        } else if !SERVER_OWNED.contains(&key.as_str()) {
            target.insert(key.clone(), item.clone());
        }
    }
    let mut merged: Configuration = serde_json::from_value(value).map_err(internal)?;
    (merged.id, merged.user, merged.created) = (id, user, created);
    Ok((merged, errors))
}

fn merge_object(
    target: &mut Map<String, Value>,
    body: &Map<String, Value>,
    fields: Fields,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    for (key, value) in body {
        let key_path = format!("{path}.{key}");
        let Some(rule) = fields.get(key) else {
            target.insert(key.clone(), value.clone());
            continue;
        };
        if let Err(message) = rule.check(value) {
            errors.push(FieldError { key: key_path, message });
            continue;
        }
        match (rule, value) {
            (Rule::Object { fields: sub }, Value::Object(obj)) => {
                let slot = target.entry(key.clone()).or_insert_with(|| Value::Object(Map::new()));
                if !slot.is_object() {
                    *slot = Value::Object(Map::new());
                }
                if let Some(slot) = slot.as_object_mut() {
                    merge_object(slot, obj, *sub, &key_path, errors);
                }
            }
            (Rule::Items { fields, defaults }, Value::Array(items)) => {
                let merged = items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, item)| merge_item(item, *fields, defaults(), &format!("{key_path}.{i}"), errors))
                    .collect();
                target.insert(key.clone(), Value::Array(merged));
            }
            _ => {
                target.insert(key.clone(), value.clone());
            }
        }
    }
}

/// Merges one element of `facetsToShow` or `detailsToShow` onto the item defaults.
fn merge_item(
    item: &Value,
    fields: Fields,
    defaults: Value,
    path: &str,
    errors: &mut Vec<FieldError>,
) -> Option<Value> {
    let Some(obj) = item.as_object() else {
        errors.push(FieldError { key: path.to_owned(), message: MESSAGES.item_not_object.into() });
        return None;
    };
    let Value::Object(mut target) = defaults else { return None };
    let before = errors.len();
    merge_object(&mut target, obj, fields, path, errors);
    let uri = target.get("uri").and_then(Value::as_str).unwrap_or_default().to_owned();
    if uri.trim().is_empty() {
        let uri_key = format!("{path}.uri");
        match errors[before..].iter_mut().find(|e| e.key == uri_key) {
            Some(e) => e.message.push_str(MESSAGES.item_left_out),
            None => errors.push(FieldError { key: uri_key, message: MESSAGES.item_without_uri.into() }),
        }
        return None;
    }
    if let Some(ref_id) = obj.get("refId").and_then(Value::as_str) {
        if ref_id != uri {
            errors.push(FieldError { key: format!("{path}.refId"), message: MESSAGES.ref_id.into() });
        }
    }
    target.insert("refId".into(), Value::String(uri));
    Some(Value::Object(target))
}

fn internal(e: serde_json::Error) -> BackendError {
    BackendError::Internal(format!("configuration could not be converted: {e}"))
}

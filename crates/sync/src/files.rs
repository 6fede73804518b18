//! Configurations as files. A bundle is
//! `{"format": "search-studio/configurations", "version": 1, "exported": "...", "configurations": [...]}`
//! holding whole envelopes, unknown fields included. Reading also takes a single envelope (what
//! `studio export-config ID` writes) and a bare array of envelopes.
//!
//! Importing never replaces anything: every configuration read becomes a new one with a new id.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use studio_model::{Backend, Caller, Configuration, FieldError};
use ts_rs::TS;

use crate::drafts::now;
use crate::error::SyncError;

/// The `format` of a bundle.
pub const FORMAT: &str = "search-studio/configurations";
/// The newest bundle version this build writes and reads.
pub const VERSION: u64 = 1;

/// One configuration created by an import.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportedConfig {
    /// Its id in the file (null when the file had none).
    pub from_id: Option<i32>,
    /// The id it was stored under.
    pub id: i32,
    pub title: String,
    /// Keys the backend refused (they took their defaults).
    pub errors: Vec<FieldError>,
}

/// A bundle of `configs`.
pub fn bundle(configs: &[Configuration]) -> Result<Value, SyncError> {
    Ok(json!({ "format": FORMAT, "version": VERSION, "exported": now(), "configurations": configs }))
}

/// A bundle of every configuration of `backend`.
pub async fn export_all(backend: &dyn Backend) -> Result<Value, SyncError> {
    bundle(&backend.list_configurations().await?.configurations)
}

/// A bundle of configuration `id` of `backend`.
pub async fn export_one(backend: &dyn Backend, id: i32) -> Result<Value, SyncError> {
    bundle(&[backend.get_configuration(id).await?])
}

/// The envelopes in a file's text: a bundle, a single envelope, or an array of envelopes.
pub fn read(text: &str) -> Result<Vec<Value>, SyncError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| SyncError::BadFile(format!("the file is not valid JSON: {e}")))?;
    let envelopes = match value {
        Value::Array(items) => items,
        Value::Object(ref map) if map.contains_key("format") => {
            if map.get("format").and_then(Value::as_str) != Some(FORMAT) {
                return Err(SyncError::BadFile(format!("the file's format is {}, not {FORMAT}", map["format"])));
            }
            match map.get("version").and_then(Value::as_u64) {
                Some(v) if (1..=VERSION).contains(&v) => {}
                Some(v) => {
                    return Err(SyncError::BadFile(format!(
                        "the file has format version {v}; this Search Studio reads up to version {VERSION}"
                    )))
                }
                None => return Err(SyncError::BadFile("the file's format version is missing".into())),
            }
            match map.get("configurations") {
                Some(Value::Array(items)) => items.clone(),
                _ => return Err(SyncError::BadFile("the file has no `configurations` array".into())),
            }
        }
        Value::Object(ref map) if map.get("config").is_some_and(Value::is_object) => vec![value],
        _ => {
            return Err(SyncError::BadFile(
                "the file holds neither a configuration envelope nor a bundle of configurations".into(),
            ))
        }
    };
    for (i, e) in envelopes.iter().enumerate() {
        if !e.get("config").is_some_and(Value::is_object) {
            return Err(SyncError::BadFile(format!("configuration {} in the file has no `config` object", i + 1)));
        }
    }
    Ok(envelopes)
}

/// Stores each envelope as a new configuration of `backend`. Stops at the first one the backend refuses
/// as a whole (the ones before it stay created and are listed in the error message).
pub async fn import(
    backend: &dyn Backend,
    caller: &Caller,
    envelopes: Vec<Value>,
) -> Result<Vec<ImportedConfig>, SyncError> {
    let mut done: Vec<ImportedConfig> = Vec::with_capacity(envelopes.len());
    for (i, envelope) in envelopes.into_iter().enumerate() {
        let from_id = envelope.get("id").and_then(Value::as_i64).and_then(|v| i32::try_from(v).ok());
        let outcome = backend.create_configuration(caller, envelope).await.map_err(|e| {
            let created: Vec<String> = done.iter().map(|d| d.id.to_string()).collect();
            let kept =
                if created.is_empty() { String::new() } else { format!(" (already created: {})", created.join(", ")) };
            SyncError::BadFile(format!("configuration {} in the file could not be imported: {e}{kept}", i + 1))
        })?;
        let id = outcome
            .config
            .id
            .ok_or_else(|| SyncError::Task("the backend created a configuration without an id".into()))?;
        done.push(ImportedConfig { from_id, id, title: outcome.config.config.title, errors: outcome.errors });
    }
    Ok(done)
}

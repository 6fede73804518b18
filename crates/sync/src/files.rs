//! Configurations as files. A bundle is
//! `{"format": "search-studio/configurations", "version": 1, "exported": "...", "configurations": [...]}`
//! holding whole envelopes, unknown fields included. Reading also takes a single envelope (what
//! `studio export-config ID` writes) and a bare array of envelopes.
//!
//! Importing never replaces anything: every configuration read becomes a new one with a new id.
//!
//! A bundle written by the desktop app may also hold the preview scenarios kept for its configurations, under
//! `"scenarios": {"<id in the file>": [...]}`, beside the envelopes: they never reach the server's create body,
//! and an import keeps them for the configuration each became.
//!
//! An export's file is written whole or not at all (`crate::whole_file`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use studio_model::{Backend, Caller, Configuration, FieldError};
use ts_rs::TS;

use crate::drafts::{now, SyncStore};
use crate::error::SyncError;
use crate::scenarios::{check_scenarios, Scenario};

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

/// Adds the scenarios kept on `backend` for the bundle's configurations to `bundle` (none: no key).
pub fn add_scenarios(bundle: &mut Value, sync: &SyncStore, backend: &str) -> Result<(), SyncError> {
    let ids: Vec<i64> = bundle["configurations"]
        .as_array()
        .map(|list| list.iter().filter_map(|c| c["id"].as_i64()).collect())
        .unwrap_or_default();
    let mut kept = serde_json::Map::new();
    for id in ids {
        let Ok(id) = i32::try_from(id) else { continue };
        let list = sync.scenarios(backend, id)?;
        if !list.is_empty() {
            kept.insert(id.to_string(), serde_json::to_value(list)?);
        }
    }
    if !kept.is_empty() {
        bundle["scenarios"] = Value::Object(kept);
    }
    Ok(())
}

/// The scenarios a file holds, by configuration id in the file; each list checked as a save checks it.
pub fn scenarios_in(text: &str) -> Result<BTreeMap<i32, Vec<Scenario>>, SyncError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| SyncError::BadFile(format!("the file is not valid JSON: {e}")))?;
    let Some(map) = value.get("scenarios") else { return Ok(BTreeMap::new()) };
    let map = map.as_object().ok_or_else(|| SyncError::BadFile("the file's `scenarios` is not an object".into()))?;
    let mut out = BTreeMap::new();
    for (id, list) in map {
        let bad = |why: String| SyncError::BadFile(format!("the scenarios of configuration {id} in the file {why}"));
        let id: i32 = id.parse().map_err(|_| bad("are not under a configuration id".into()))?;
        let list: Vec<Scenario> =
            serde_json::from_value(list.clone()).map_err(|e| bad(format!("cannot be read: {e}")))?;
        check_scenarios(&list).map_err(|e| bad(format!("break a limit: {e}")))?;
        out.insert(id, list);
    }
    Ok(out)
}

/// Keeps on `backend` the scenarios of each imported configuration that the file had some for; how many lists.
pub fn keep_scenarios(
    sync: &SyncStore,
    backend: &str,
    imported: &[ImportedConfig],
    scenarios: &BTreeMap<i32, Vec<Scenario>>,
) -> Result<usize, SyncError> {
    let mut kept = 0;
    for config in imported {
        if let Some(list) = config.from_id.and_then(|from| scenarios.get(&from)) {
            sync.save_scenarios(backend, config.id, list)?;
            kept += 1;
        }
    }
    Ok(kept)
}

//! The bodies of the API's successful answers as this client reads them. Every field docs/api.md marks optional
//! (and every `message`) may be missing; the values inside are the model types, which keep unknown fields.
//! Search and recommendation answers are read straight into the model's types, whose fields all default; so is
//! facet health, an extension only this project's servers offer, whose answer has every field.

use serde::Deserialize;
use studio_model::{Configuration, Document, FieldError, LogEntry, SearchSpace};

/// Operations 1, 3 and 4, and set-active.
#[derive(Deserialize)]
pub(crate) struct OneConfiguration {
    pub configuration: Configuration,
}

/// Operation 2. `activeId` is null or absent when no configuration is active.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ConfigurationList {
    pub configurations: Vec<Configuration>,
    #[serde(default)]
    pub active_id: Option<i32>,
}

/// Operations 5 and 6. An absent `errors` means every key was stored.
#[derive(Deserialize)]
pub(crate) struct Written {
    pub config: Configuration,
    #[serde(default)]
    pub errors: Vec<FieldError>,
}

/// Operation 7.
#[derive(Deserialize)]
pub(crate) struct Similar {
    #[serde(default)]
    pub result: Vec<Document>,
}

/// `GET /api/searchspaces`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SearchSpaces {
    #[serde(default)]
    pub search_spaces: Vec<SearchSpace>,
}

/// An answer whose body carries nothing needed (delete), read only to check it is JSON.
#[derive(Deserialize)]
pub(crate) struct Acknowledged {}

/// The answer of make-active, which other servers shape in their own ways: `{configuration}`, `{config}`,
/// the envelope itself, or a message only. `None` when it carries no configuration.
pub(crate) fn set_active_configuration(answer: serde_json::Value) -> Option<Configuration> {
    let candidates = [
        answer.get("configuration").cloned(),
        answer.get("config").filter(|c| c.get("config").is_some()).cloned(),
        Some(answer),
    ];
    candidates
        .into_iter()
        .flatten()
        .filter(|c| c.get("config").is_some_and(serde_json::Value::is_object))
        .find_map(|c| serde_json::from_value(c).ok())
}

/// A list that other servers send either bare or under `key`.
fn list_under(answer: serde_json::Value, key: &str) -> Vec<serde_json::Value> {
    match answer {
        serde_json::Value::Array(items) => items,
        serde_json::Value::Object(mut map) => match map.remove(key) {
            Some(serde_json::Value::Array(items)) => items,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The visible configurations, from `{configurations}` or a bare array; entries that are not
/// configurations are left out.
pub(crate) fn visible_configurations(answer: serde_json::Value) -> Vec<Configuration> {
    list_under(answer, "configurations").into_iter().filter_map(|c| serde_json::from_value(c).ok()).collect()
}

/// History entries, from `{logs}` or a bare array, read leniently: the time from `at`, `timestamp`, `date`
/// or `created`; the user from `user` or `username`; the configuration from `config` or `configuration`; an
/// action this client does not know becomes `other`. Entries without a configuration are left out.
pub(crate) fn log_entries(answer: serde_json::Value) -> Vec<LogEntry> {
    let first = |entry: &serde_json::Value, keys: &[&str]| {
        keys.iter().find_map(|k| entry.get(*k).filter(|v| !v.is_null()).cloned())
    };
    list_under(answer, "logs")
        .into_iter()
        .filter_map(|entry| {
            let config: Configuration = serde_json::from_value(first(&entry, &["config", "configuration"])?).ok()?;
            let text = |keys: &[&str]| match first(&entry, keys) {
                Some(serde_json::Value::String(s)) => s,
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let action = serde_json::from_value(serde_json::Value::String(text(&["action"])))
                .unwrap_or(studio_model::LogAction::Other);
            Some(LogEntry {
                at: text(&["at", "timestamp", "date", "created"]),
                user: text(&["user", "username"]),
                action,
                config,
            })
        })
        .collect()
}

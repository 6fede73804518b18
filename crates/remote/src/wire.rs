//! The bodies of the API's successful answers as this client reads them. Every field api.md marks optional
//! (and every `message`) may be missing; the values inside are the model types, which keep unknown fields.
//! Search and recommendation answers are read straight into the model's types, whose fields all default.

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

/// `GET /api/configurations/visible`.
#[derive(Deserialize)]
pub(crate) struct Visible {
    pub configurations: Vec<Configuration>,
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

/// `GET /api/configurations/{id}/logs`.
#[derive(Deserialize)]
pub(crate) struct Logs {
    #[serde(default)]
    pub logs: Vec<LogEntry>,
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

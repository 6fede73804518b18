//! The values offline work hands to the desktop shell and the UI. TypeScript copies are generated from
//! them by this crate's `bindings` test.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use studio_model::{Configuration, WriteOutcome};
use ts_rs::TS;

/// The backend key of the local store; a remote server's key is its base URL.
pub const LOCAL_KEY: &str = "local";

/// An autosaved draft: the edited envelope and the stored one it started from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DraftRecord {
    /// `local`, or the base URL of the remote server.
    pub backend: String,
    /// The configuration's id; negative for a configuration not yet created.
    pub config_id: i32,
    /// The edited envelope, unknown fields included.
    pub draft: Value,
    /// The stored envelope the draft started from; null for a configuration not yet created.
    pub base: Option<Value>,
    /// UTC, ISO 8601 with milliseconds.
    pub updated_at: String,
}

/// One leaf that differs between two versions (arrays count as one leaf: updates replace them whole).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FieldDiff {
    /// Dotted path, e.g. `config.layout.navbar.backgroundColor`.
    pub path: String,
    /// Null when the field is absent.
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// One leaf as the base, the draft (mine) and the server (theirs) have it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FieldChange {
    pub path: String,
    pub base: Option<Value>,
    pub mine: Option<Value>,
    pub theirs: Option<Value>,
    /// Both sides changed it, differently: the user must choose.
    pub conflicting: bool,
}

/// The server's version changed since the draft started.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Conflict {
    pub base: Value,
    pub mine: Value,
    pub theirs: Value,
    /// Every leaf where the three differ; `conflicting` marks those changed on both sides.
    pub fields: Vec<FieldChange>,
}

/// Which version of a field wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Side {
    Mine,
    Theirs,
}

/// The answer of a publish.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum PublishOutcome {
    /// Stored; `outcome.errors` lists the keys the server refused.
    Published { outcome: Box<WriteOutcome> },
    /// Nothing was written: the server's version changed since the draft started.
    Conflict { conflict: Box<Conflict> },
}

/// Where a version in the history comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum HistorySource {
    /// The backend's own `/logs`.
    Server,
    /// Recorded by this app when it published to that backend.
    Published,
}

/// One earlier version of a configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub at: String,
    pub user: String,
    /// `create`, `update`, `delete`, `set-active`, or `publish`.
    pub action: String,
    pub source: HistorySource,
    pub config: Configuration,
}

/// What copying a configuration to another connection would do, shown before anything is written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CopyPlan {
    /// The connection the configuration goes to.
    pub target: String,
    /// The configuration copied, on the current connection.
    pub source_id: i32,
    /// The target's configuration that would be updated; null when a new one would be created ("new there").
    pub target_id: Option<i32>,
    /// The target's current version of it (null when new); the copy checks that it is still the same.
    pub base: Option<Configuration>,
    /// Field by field, what changes on the target.
    pub diff: Vec<FieldDiff>,
    /// The target's configurations, to pick which one to update instead.
    pub candidates: Vec<Configuration>,
}

//! Search Studio's offline work, shared by the desktop shell and the `studio` CLI:
//!
//! - [`SyncStore`]: drafts kept in the local store per backend and configuration, so an edit survives a
//!   crash and a journey without a connection; and the versions this app published to each backend.
//! - [`publish`]: create or update on a backend, but only after checking that the server still holds the
//!   version the draft started from; otherwise a [`Conflict`] with base, mine and theirs field by field.
//! - [`check_connection`]: whether the backend in use answers.
//! - [`history`]: the backend's `/logs` together with the versions published from this app.
//! - [`files`]: configurations as JSON files with a format version; importing always creates new ones.
//! - [`folder`]: configurations as a folder of files kept in git, planned and applied to a store or server.
//! - [`copy`]: copying a configuration to another backend (another connection), showing the field diff
//!   first and keeping the conflict rules of publishing.
//! - [`pull`]: copying a remote configuration and the documents its search returns into the local store,
//!   resumable after a cancel.
//!
//! Nothing here talks to a window or knows Tauri; nothing here ever overwrites a change on a server that
//! the user has not seen.

mod connection;
pub mod copy;
mod diff;
mod drafts;
mod error;
pub mod files;
pub mod folder;
mod history;
mod publish;
pub mod pull;
mod scenarios;
mod types;
pub mod whole_file;

pub use connection::{check_connection, ConnectionState};
pub use diff::{changed_paths, diff_fields, resolve, three_way};
pub use drafts::SyncStore;
pub use error::SyncError;
pub use history::history;
pub use publish::{publish, publish_conflict};
pub use scenarios::{
    check_scenarios, Scenario, ScenarioLimits, ScenarioMessages, ScenarioWidth, SCENARIO_LIMITS, SCENARIO_MESSAGES,
};
pub use types::{
    Conflict, CopyPlan, DraftRecord, FieldChange, FieldDiff, HistoryEntry, HistorySource, PublishOutcome, Side,
    LOCAL_KEY,
};

//! Why a folder command could not do its work, one case per thing the user would do differently.

use std::path::PathBuf;

use studio_model::{file_error_message, BackendError};

/// What went wrong reading a folder, planning or applying.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The store or server refused or failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// A file or folder could not be read or written; a full disk is worded as every full disk is.
    #[error("{}", file_error_message(what, path.display(), source))]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
    /// The state file is not one this program can read.
    #[error("{} cannot be used: {message}; fix or delete it (the next plan then matches configurations by title and search space)", path.display())]
    BadState { path: PathBuf, message: String },
    /// The folder breaks its rules; `studio config lint` lists each problem.
    #[error("{0} problem(s) in the folder, listed above; fix them and run again")]
    Lint(usize),
    /// A conflict stands and no side was chosen.
    #[error("{} conflict(s) ({}): the target changed since this folder last applied them; choose a side with --ours or --theirs (all, or KEY for one)", keys.len(), keys.join(", "))]
    Unresolved { keys: Vec<String> },
    /// The target changed between the plan and the write: nothing of that configuration was written.
    #[error("configuration {key}{} changed on the target after the plan was made; nothing was written to it: run the plan again", id.map(|id| format!(" (id {id})")).unwrap_or_default())]
    ChangedSincePlan { key: String, id: Option<i32> },
    /// The target answered a create without the new configuration's id: the state could not record it.
    #[error("the target created configuration {key} but answered without its id, so this folder cannot follow it; check that the target is a server of the API (its answer to a create names the id), then run the plan again")]
    CreatedWithoutId { key: String },
    /// A side was chosen for a key that has no conflict.
    #[error("--ours/--theirs {0}: no conflict has that key")]
    UnknownChoice(String),
}

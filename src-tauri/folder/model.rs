//! What the folder workspace's modules share and the UI sees: the search backend, a file that cannot be read,
//! what changed in the folder, and why a folder cannot be opened or followed.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use studio_model::{Backend, ErrorCode};
use ts_rs::TS;

use crate::error::IpcError;

/// The prefix of a folder's backend key (drafts and published versions are kept per key): `folder:` and the
/// folder's full path.
pub const KEY_PREFIX: &str = "folder:";

/// The backend a folder's preview searches, and its name as the designer knows it.
#[derive(Clone)]
pub struct SearchTarget {
    pub backend: Arc<dyn Backend>,
    pub name: String,
}

/// A file of the folder that could not be read as a configuration; `line` and `column` count from 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FileProblem {
    /// The file's name in the folder, e.g. `news.json`.
    pub file: String,
    /// The configuration's id when the file is one of the folder's configurations (its name is a key).
    pub id: Option<i32>,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A configuration of the folder, by its id and its key (the file's name without `.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct FolderEntry {
    pub id: i32,
    pub key: String,
}

/// What changed in the folder on disk, not by this app: the `folder-changed` event, and the folder's state for
/// the UI at any time (then `changed` and `removed` are empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct FolderChange {
    /// The folder's full path.
    pub path: String,
    /// Files written or added, that read as configurations.
    pub changed: Vec<FolderEntry>,
    /// Files that are gone.
    pub removed: Vec<FolderEntry>,
    /// Every file of the folder that cannot be read as a configuration now.
    pub problems: Vec<FileProblem>,
}

impl FolderChange {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty()
    }
}

/// The event the UI hears a change on disk by.
pub const CHANGE_EVENT: &str = "folder-changed";

/// Why a folder cannot be a workspace, or cannot be followed.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error("{} is not a folder that can be opened: {source}", .path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{} is a file, not a folder; choose the folder that holds the configuration files", .0.display())]
    NotAFolder(PathBuf),
    #[error("changes to {} on disk cannot be followed: {source}", .path.display())]
    Watch { path: PathBuf, source: notify::Error },
}

impl From<FolderError> for IpcError {
    fn from(e: FolderError) -> Self {
        let code = match e {
            FolderError::NotAFolder(_) => ErrorCode::BadRequest,
            FolderError::Unreadable { .. } | FolderError::Watch { .. } => ErrorCode::Storage,
        };
        IpcError::new(code, e.to_string())
    }
}

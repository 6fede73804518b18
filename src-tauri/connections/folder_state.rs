//! The folder workspace's state in the connections: the folder as the preferences keep it, and the folder in use.
//! Below `connections/mod.rs`, which holds the open folder, and `connections/folder.rs`, which opens it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::model::LOCAL_ID;
use crate::folder::watch::Following;
use crate::folder::FolderBackend;

/// The preferences key of the remembered folder.
pub(super) const FOLDER_KEY: &str = "folder";

/// The folder as the preferences file keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredFolder {
    /// Its full path.
    pub path: String,
    /// The id of the connection its preview searches: `local` or a remote connection's.
    #[serde(default = "local_id")]
    pub search: String,
}

pub(super) fn local_id() -> String {
    LOCAL_ID.to_owned()
}

/// The folder in use: its backend, followed on disk while it is held.
pub struct OpenFolder {
    pub(super) backend: Arc<FolderBackend>,
    /// Held for as long as the folder is in use: dropping it stops following the folder.
    pub(super) _following: Following,
}

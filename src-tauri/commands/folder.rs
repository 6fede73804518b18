//! The folder workspace: opening a folder of configuration files as the current connection, what cannot be
//! read in it, and which connection its preview searches. Each command delegates to the connection store.

use tauri::State;

use crate::connections::{ConnectionStore, Connections};
use crate::error::Answer;
use crate::folder::FolderChange;
use crate::state::BackendSlot;

/// Opens the folder at `path` as the workspace and makes it the current connection.
#[tauri::command]
pub async fn open_workspace_folder(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    path: String,
) -> Answer<Connections> {
    connections.open_folder(&slot, &path).await
}

/// The open folder's path and every file of it that cannot be read as a configuration now.
#[tauri::command]
pub async fn folder_status(connections: State<'_, ConnectionStore>) -> Answer<FolderChange> {
    connections.folder_status()
}

/// Makes the folder's preview search connection `id` (`local` or a remote connection's id).
#[tauri::command]
pub async fn set_folder_search(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    id: String,
) -> Answer<Connections> {
    connections.set_folder_search(&slot, &id).await
}

//! The folder workspace: opening a folder of configuration files as the current connection, what cannot be
//! read in it, which connection its preview searches, and planning and applying it to a connection. Each
//! command delegates to the connection store.

use studio_sync::folder::{Choices, Plan};
use tauri::State;

use crate::connections::{ConnectionStore, Connections, FolderApplied, FolderPlan};
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

/// The plan of applying the open folder's files (as they are on disk) to connection `target` (`local` or a
/// remote connection's id), as `studio config plan` makes it; with `prune`, what only the target has is
/// deleted. A folder with problems answers them instead.
#[tauri::command]
pub async fn plan_folder(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    target: String,
    prune: bool,
) -> Answer<FolderPlan> {
    connections.plan_folder(&slot, &target, prune).await
}

/// Makes the changes of `plan` (the one shown) on connection `target`, conflicts resolved as `choices` say,
/// and answers each write with its line; nothing is written when the folder or the target changed since the plan.
#[tauri::command]
pub async fn apply_folder(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    target: String,
    prune: bool,
    plan: Plan,
    choices: Choices,
) -> Answer<FolderApplied> {
    connections.apply_folder(&slot, &target, prune, &plan, &choices).await
}

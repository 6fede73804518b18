//! Publishing with conflict detection, history, the connection state, and pulling a remote search space.

use serde::Serialize;
use serde_json::Value;
use studio_local::os_caller;
use studio_model::BackendError;
use studio_sync::{HistoryEntry, PublishOutcome, LOCAL_KEY};
use tauri::State;
use ts_rs::TS;

use crate::error::Answer;
use crate::state::{BackendSlot, Tasks};
use crate::work;

/// Which backend is in use and whether it answers.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionState {
    /// `local`, or the remote server's base URL.
    pub backend: String,
    pub online: bool,
    /// Why it is offline.
    pub message: Option<String>,
}

#[tauri::command]
pub async fn publish(
    slot: State<'_, BackendSlot>,
    id: Option<i32>,
    mine: Value,
    base: Option<Value>,
) -> Answer<PublishOutcome> {
    let (backend, key) = slot.get_keyed();
    Ok(studio_sync::publish(slot.sync(), backend.as_ref(), &key, &os_caller(), id, mine, base).await?)
}

#[tauri::command]
pub async fn history(slot: State<'_, BackendSlot>, id: i32) -> Answer<Vec<HistoryEntry>> {
    let (backend, key) = slot.get_keyed();
    Ok(studio_sync::history(slot.sync(), backend.as_ref(), &key, id).await?)
}

#[tauri::command]
pub async fn check_connection(slot: State<'_, BackendSlot>) -> Answer<ConnectionState> {
    let (backend, key) = slot.get_keyed();
    let answer = if key == LOCAL_KEY { Ok(()) } else { backend.default_configuration().await.map(|_| ()) };
    // A server that answers, even to refuse the sign-in, is online: only one that cannot be reached is not.
    let online = !answer.as_ref().is_err_and(BackendError::is_unreachable);
    Ok(ConnectionState { backend: key, online, message: answer.err().map(|e| e.to_string()) })
}

#[tauri::command]
pub async fn start_pull(tasks: State<'_, Tasks>, slot: State<'_, BackendSlot>, id: i32) -> Answer<u64> {
    work::start_pull(&tasks, &slot, id)
}

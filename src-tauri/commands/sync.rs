//! Publishing with conflict detection, history, the connection state, and pulling a remote search space.

use serde_json::Value;
use studio_local::os_caller;
use studio_sync::{HistoryEntry, PublishOutcome};
use tauri::State;

use crate::error::Answer;
use crate::state::{BackendSlot, Tasks};
use crate::work;

pub use studio_sync::ConnectionState;

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
    Ok(studio_sync::check_connection(backend.as_ref(), &key).await)
}

#[tauri::command]
pub async fn start_pull(tasks: State<'_, Tasks>, slot: State<'_, BackendSlot>, id: i32) -> Answer<u64> {
    work::start_pull(&tasks, &slot, id)
}

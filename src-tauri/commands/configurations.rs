//! Operations 1–6 (docs/api.md, Operations) and the configuration extensions, over the current backend.

use serde_json::Value;
use studio_local::os_caller;
use studio_model::{Configuration, ConfigurationList, LogEntry, WriteOutcome};
use tauri::State;

use crate::error::Answer;
use crate::state::BackendSlot;

#[tauri::command]
pub async fn default_configuration(slot: State<'_, BackendSlot>) -> Answer<Configuration> {
    Ok(slot.get().default_configuration().await?)
}

#[tauri::command]
pub async fn list_configurations(slot: State<'_, BackendSlot>) -> Answer<ConfigurationList> {
    Ok(slot.get().list_configurations().await?)
}

#[tauri::command]
pub async fn active_configuration(slot: State<'_, BackendSlot>) -> Answer<Configuration> {
    Ok(slot.get().active_configuration().await?)
}

#[tauri::command]
pub async fn get_configuration(slot: State<'_, BackendSlot>, id: i32) -> Answer<Configuration> {
    Ok(slot.get().get_configuration(id).await?)
}

#[tauri::command]
pub async fn create_configuration(slot: State<'_, BackendSlot>, body: Value) -> Answer<WriteOutcome> {
    Ok(slot.get().create_configuration(&os_caller(), body).await?)
}

#[tauri::command]
pub async fn update_configuration(slot: State<'_, BackendSlot>, id: i32, body: Value) -> Answer<WriteOutcome> {
    Ok(slot.get().update_configuration(&os_caller(), id, body).await?)
}

#[tauri::command]
pub async fn set_active(slot: State<'_, BackendSlot>, id: i32) -> Answer<Configuration> {
    Ok(slot.get().set_active(&os_caller(), id).await?)
}

#[tauri::command]
pub async fn configuration_logs(slot: State<'_, BackendSlot>, id: i32) -> Answer<Vec<LogEntry>> {
    Ok(slot.get().configuration_logs(id).await?)
}

#[tauri::command]
pub async fn delete_configuration(slot: State<'_, BackendSlot>, id: i32) -> Answer<()> {
    Ok(slot.get().delete_configuration(&os_caller(), id).await?)
}

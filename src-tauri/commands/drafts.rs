//! Drafts autosaved in the local store, and the preview scenarios kept with them, per current backend (its key)
//! and configuration.

use serde_json::Value;
use studio_sync::{DraftRecord, Scenario};
use tauri::State;

use crate::error::Answer;
use crate::state::BackendSlot;

#[tauri::command]
pub async fn save_draft(
    slot: State<'_, BackendSlot>,
    config_id: i32,
    draft: Value,
    base: Option<Value>,
) -> Answer<DraftRecord> {
    let (_, key) = slot.get_keyed();
    Ok(slot.sync().save_draft(&key, config_id, &draft, base.as_ref())?)
}

#[tauri::command]
pub async fn get_draft(slot: State<'_, BackendSlot>, config_id: i32) -> Answer<Option<DraftRecord>> {
    let (_, key) = slot.get_keyed();
    Ok(slot.sync().draft(&key, config_id)?)
}

#[tauri::command]
pub async fn discard_draft(slot: State<'_, BackendSlot>, config_id: i32) -> Answer<bool> {
    let (_, key) = slot.get_keyed();
    Ok(slot.sync().discard_draft(&key, config_id)?)
}

#[tauri::command]
pub async fn scenarios(slot: State<'_, BackendSlot>, config_id: i32) -> Answer<Vec<Scenario>> {
    let (_, key) = slot.get_keyed();
    Ok(slot.sync().scenarios(&key, config_id)?)
}

#[tauri::command]
pub async fn save_scenarios(slot: State<'_, BackendSlot>, config_id: i32, scenarios: Vec<Scenario>) -> Answer<()> {
    let (_, key) = slot.get_keyed();
    Ok(slot.sync().save_scenarios(&key, config_id, &scenarios)?)
}

//! Configurations to and from JSON files chosen in the system's dialogs (the UI opens them).

use std::path::Path;

use studio_local::os_caller;
use studio_model::ErrorCode;
use studio_sync::files::{self, ImportedConfig};
use studio_sync::whole_file::write_whole;
use tauri::State;

use crate::error::{Answer, IpcError};
use crate::state::BackendSlot;

fn io(what: &str, path: &str, e: std::io::Error) -> IpcError {
    IpcError::file(path, &e, ErrorCode::BadRequest, || format!("cannot {what} {path}: {e}"))
}

/// Writes configuration `id`, or every configuration when `id` is null, as a bundle; answers how many.
#[tauri::command]
pub async fn export_configurations(slot: State<'_, BackendSlot>, path: String, id: Option<i32>) -> Answer<usize> {
    let backend = slot.get();
    let mut bundle = match id {
        Some(id) => files::export_one(backend.as_ref(), id).await?,
        None => files::export_all(backend.as_ref()).await?,
    };
    // The preview scenarios kept with the configurations go into the file (never to the server).
    let (_, key) = slot.get_keyed();
    files::add_scenarios(&mut bundle, slot.sync(), &key)?;
    let count = bundle["configurations"].as_array().map_or(0, Vec::len);
    let text = serde_json::to_string_pretty(&bundle).map_err(|e| IpcError::new(ErrorCode::Internal, e.to_string()))?;
    // Whole or not at all: a write that fails (a full disk) leaves the file as it was.
    write_whole(Path::new(&path), &(text + "\n")).map_err(|e| io("write", &path, e))?;
    Ok(count)
}

/// Stores every configuration in the file as a new one; never replaces an existing configuration.
#[tauri::command]
pub async fn import_configurations(slot: State<'_, BackendSlot>, path: String) -> Answer<Vec<ImportedConfig>> {
    let text = std::fs::read_to_string(&path).map_err(|e| io("read", &path, e))?;
    let envelopes = files::read(&text)?;
    let scenarios = files::scenarios_in(&text)?;
    let imported = files::import(slot.get().as_ref(), &os_caller(), envelopes).await?;
    let (_, key) = slot.get_keyed();
    files::keep_scenarios(slot.sync(), &key, &imported, &scenarios)?;
    Ok(imported)
}

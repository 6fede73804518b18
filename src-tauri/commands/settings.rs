//! The desktop's own settings: which backend, the editor theme, the last configuration.

use tauri::State;

use crate::connect;
use crate::error::IpcError;
use crate::prefs::{Mode, Prefs, Settings, Theme};
use crate::state::BackendSlot;

#[tauri::command]
pub async fn get_settings(prefs: State<'_, Prefs>) -> Result<Settings, IpcError> {
    Ok(prefs.settings().await)
}

/// Switches between the local store and a remote server; `token` null keeps the saved one.
#[tauri::command]
pub async fn save_backend(
    slot: State<'_, BackendSlot>,
    prefs: State<'_, Prefs>,
    mode: Mode,
    remote_url: Option<String>,
    token: Option<String>,
) -> Result<Settings, IpcError> {
    let url = connect::switch(&slot, mode, remote_url.as_deref(), token.as_deref()).await?;
    prefs.set_backend(mode, url.as_deref())?;
    Ok(prefs.settings().await)
}

#[tauri::command]
pub async fn set_preference(prefs: State<'_, Prefs>, theme: Option<Theme>, last_config_id: Option<i32>) -> Result<Settings, IpcError> {
    if let Some(theme) = theme {
        prefs.set_theme(theme)?;
    }
    if let Some(id) = last_config_id {
        prefs.set_last_config_id(Some(id))?;
    }
    Ok(prefs.settings().await)
}

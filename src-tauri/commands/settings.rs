//! The desktop's own settings: the editor theme, the last configuration, the data directory. (Which
//! backend is in use is the current connection's business: `commands::connections`.)

use tauri::State;

use crate::error::Answer;
use crate::prefs::{Prefs, Settings, Theme};

#[tauri::command]
pub async fn get_settings(prefs: State<'_, Prefs>) -> Answer<Settings> {
    Ok(prefs.settings())
}

#[tauri::command]
pub async fn set_preference(
    prefs: State<'_, Prefs>,
    theme: Option<Theme>,
    last_config_id: Option<i32>,
) -> Answer<Settings> {
    if let Some(theme) = theme {
        prefs.set_theme(theme)?;
    }
    if let Some(id) = last_config_id {
        prefs.set_last_config_id(Some(id))?;
    }
    Ok(prefs.settings())
}

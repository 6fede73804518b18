//! The local store's health as the UI sees it: what the launch found (the editor or the recovery screen),
//! recovering a damaged store, going on with one that is behind its backup, opening its folders, and its
//! backups for Settings.

use serde::{Deserialize, Serialize};
use studio_model::ErrorCode;
use tauri::{AppHandle, Runtime, State};
use ts_rs::TS;

use crate::browser::Browser;
use crate::error::{Answer, IpcError};
use crate::local_store::{self, backup, Launch, RecoverReport, StoreStatus};
use crate::prefs::Prefs;
use crate::state::{Progress, Tasks};

/// A folder of the data directory the user may open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Folder {
    /// The data directory itself (the store's files, a damaged file moved aside).
    Data,
    /// The store's automatic backups.
    Backups,
}

/// The automatic backups, for Settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupSettings {
    /// Where they are kept.
    pub folder: String,
    /// How many there are now.
    #[ts(type = "number")]
    pub count: usize,
    /// When the newest was taken (RFC 3339), if there is one.
    pub newest: Option<String>,
}

/// What the launch found: the store open, damaged, or behind its newest backup.
#[tauri::command]
pub async fn store_status(launch: State<'_, Launch>) -> Answer<StoreStatus> {
    Ok(launch.status())
}

/// Recovers the damaged store (a background task reporting progress) and opens the recovered one; answers
/// what was saved.
#[tauri::command]
pub async fn recover_store<R: Runtime>(app: AppHandle<R>, tasks: State<'_, Tasks>) -> Answer<RecoverReport> {
    let (task_id, _) = tasks.start();
    let label = "Recovering the store".to_owned();
    let report = |finished: bool, error: Option<String>| Progress {
        task_id,
        label: label.clone(),
        done: 0,
        total: None,
        finished,
        error,
        cancelled: false,
        message: None,
    };
    tasks.report(report(false, None));
    let outcome = tauri::async_runtime::spawn_blocking(move || local_store::recover_and_start(&app))
        .await
        .map_err(|e| IpcError::new(ErrorCode::Internal, format!("the recovery stopped: {e}")))?
        .map_err(IpcError::from);
    tasks.report(report(true, outcome.as_ref().err().map(|e| e.message.clone())));
    tasks.finish(task_id);
    outcome
}

/// Goes on with a store that is behind its newest backup, as it is.
#[tauri::command]
pub async fn open_store_as_is<R: Runtime>(app: AppHandle<R>) -> Answer<()> {
    tauri::async_runtime::spawn_blocking(move || local_store::open_as_is(&app))
        .await
        .map_err(|e| IpcError::new(ErrorCode::Internal, format!("opening the store stopped: {e}")))?
        .map_err(IpcError::from)
}

/// Opens a folder of the data directory in the system's file manager.
#[tauri::command]
pub fn open_folder(browser: State<'_, Browser>, prefs: State<'_, Prefs>, folder: Folder) -> Answer<()> {
    let path = match folder {
        Folder::Data => prefs.data_dir().to_owned(),
        Folder::Backups => prefs.data_dir().join(backup::BACKUPS_DIR),
    };
    if let Err(e) = std::fs::create_dir_all(&path) {
        return Err(IpcError::new(ErrorCode::Internal, format!("cannot make the folder {}: {e}", path.display())));
    }
    browser
        .0
        .open(&path.display().to_string())
        .map_err(|e| IpcError::new(ErrorCode::Internal, format!("cannot open {}: {e}", path.display())))
}

/// Where the automatic backups are, how many, and when the newest was taken.
#[tauri::command]
pub async fn backup_settings(prefs: State<'_, Prefs>) -> Answer<BackupSettings> {
    let data_dir = prefs.data_dir().to_owned();
    let list = backup::list(&data_dir);
    Ok(BackupSettings {
        folder: data_dir.join(backup::BACKUPS_DIR).display().to_string(),
        count: list.len(),
        newest: list.first().map(|b| b.taken.to_rfc3339()),
    })
}

//! Preferences that outlive a session (the connections, the editor theme, the last configuration, the window
//! geometry) in a tauri-plugin-store file in the data directory. Nothing secret is ever written here: the
//! connections' secrets live in the keyring or the secrets file (`secrets`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use studio_model::ErrorCode;
use tauri::{AppHandle, Runtime};
use tauri_plugin_store::{Store as SettingsFile, StoreExt};
use ts_rs::TS;

use crate::error::IpcError;

/// The few operations of the settings file (tauri-plugin-store's) that preferences need, so that `Prefs` does not
/// carry the app's runtime type.
trait KeyValue: Send + Sync {
    fn get(&self, key: &str) -> Option<Value>;
    fn set(&self, key: &str, value: Value);
    fn has(&self, key: &str) -> bool;
    fn delete(&self, key: &str);
    fn save(&self) -> Result<(), tauri_plugin_store::Error>;
}

impl<R: Runtime> KeyValue for SettingsFile<R> {
    fn get(&self, key: &str) -> Option<Value> {
        SettingsFile::get(self, key)
    }
    fn set(&self, key: &str, value: Value) {
        SettingsFile::set(self, key, value)
    }
    fn has(&self, key: &str) -> bool {
        SettingsFile::has(self, key)
    }
    fn delete(&self, key: &str) {
        SettingsFile::delete(self, key);
    }
    fn save(&self) -> Result<(), tauri_plugin_store::Error> {
        SettingsFile::save(self)
    }
}

/// The preferences file, inside the data directory.
pub const PREFS_FILE: &str = "desktop-settings.json";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, TS)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
    #[default]
    System,
}

/// Window size and place, in logical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Geometry {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// The settings as the UI sees them.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(rename = "DesktopSettings")]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    pub theme: Theme,
    pub last_config_id: Option<i32>,
    pub data_dir: String,
}

/// The preferences of one data directory, in its settings file. Cheap to clone; clones share the file.
#[derive(Clone)]
pub struct Prefs {
    /// The settings file, as tauri-plugin-store holds it in memory.
    file: Arc<dyn KeyValue>,
    data_dir: PathBuf,
    /// Held by each write from its change to its sync; true when a save failed since the file was read (what
    /// the file holds in memory may then not be on disk).
    unsaved: Arc<Mutex<bool>>,
}

impl Prefs {
    pub fn open<R: Runtime>(app: &AppHandle<R>, data_dir: &Path) -> Result<Self, IpcError> {
        let file = app
            .store(data_dir.join(PREFS_FILE))
            .map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot open the settings file: {e}")))?;
        Ok(Prefs { file: file as Arc<dyn KeyValue>, data_dir: data_dir.to_owned(), unsaved: Arc::default() })
    }

    /// The value under `key`, when there is one of type `T`.
    pub(crate) fn read<T: for<'de> Deserialize<'de>>(&self, key: &str) -> Option<T> {
        self.file.get(key).and_then(|v| serde_json::from_value(v).ok())
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.file.has(key)
    }

    pub(crate) fn write(&self, key: &str, value: Value) -> Result<(), IpcError> {
        self.write_all(&[(key, value)], &[])
    }

    /// Sets every `(key, value)` of `set` and removes every key of `remove`, then saves the file once. A
    /// change to what the file holds already is not written again (the editor sets the configuration it opens
    /// as the last one at every start, and each save waits for the disk).
    pub(crate) fn write_all(&self, set: &[(&str, Value)], remove: &[&str]) -> Result<(), IpcError> {
        let mut unsaved = self.unsaved.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let holds = set.iter().all(|(key, value)| self.file.get(key).as_ref() == Some(value))
            && remove.iter().all(|key| !self.file.has(key));
        if holds && !*unsaved {
            return Ok(());
        }
        for (key, value) in set {
            self.file.set(key, value.clone());
        }
        for key in remove {
            self.file.delete(key);
        }
        *unsaved = true;
        self.file.save().map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot save the settings: {e}")))?;
        self.sync().map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot save the settings: {e}")))?;
        *unsaved = false;
        Ok(())
    }

    /// Puts the saved file and its name on disk before the change is acknowledged: tauri-plugin-store writes
    /// the file but does not sync it.
    fn sync(&self) -> std::io::Result<()> {
        std::fs::File::open(self.data_dir.join(PREFS_FILE))?.sync_all()?;
        #[cfg(unix)]
        std::fs::File::open(&self.data_dir)?.sync_all()?;
        Ok(())
    }

    pub fn geometry(&self) -> Option<Geometry> {
        self.read("window")
    }

    pub fn set_geometry(&self, geometry: Geometry) -> Result<(), IpcError> {
        self.write("window", json!(geometry))
    }

    pub fn set_theme(&self, theme: Theme) -> Result<(), IpcError> {
        self.write("theme", json!(theme))
    }

    pub fn set_last_config_id(&self, id: Option<i32>) -> Result<(), IpcError> {
        self.write("lastConfigId", json!(id))
    }

    /// The settings for the UI.
    pub fn settings(&self) -> Settings {
        Settings {
            theme: self.read("theme").unwrap_or_default(),
            last_config_id: self.read("lastConfigId"),
            data_dir: self.data_dir.display().to_string(),
        }
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }
}

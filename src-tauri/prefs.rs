//! Preferences that outlive a session (the connections, the editor theme, the last configuration, the window
//! geometry) in a tauri-plugin-store file in the data directory. Nothing secret is ever written here: the
//! connections' secrets live in the keyring or the secrets file (`secrets`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use studio_model::ErrorCode;
use tauri::{AppHandle, Runtime};
use tauri_plugin_store::{Store, StoreExt};
use ts_rs::TS;

use crate::error::IpcError;

/// The few store operations preferences need, so that `Prefs` does not carry the app's runtime type.
trait KeyValue: Send + Sync {
    fn get(&self, key: &str) -> Option<Value>;
    fn set(&self, key: &str, value: Value);
    fn has(&self, key: &str) -> bool;
    fn delete(&self, key: &str);
    fn save(&self) -> Result<(), tauri_plugin_store::Error>;
}

impl<R: Runtime> KeyValue for Store<R> {
    fn get(&self, key: &str) -> Option<Value> {
        Store::get(self, key)
    }
    fn set(&self, key: &str, value: Value) {
        Store::set(self, key, value)
    }
    fn has(&self, key: &str) -> bool {
        Store::has(self, key)
    }
    fn delete(&self, key: &str) {
        Store::delete(self, key);
    }
    fn save(&self) -> Result<(), tauri_plugin_store::Error> {
        Store::save(self)
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

/// The preference store of one data directory. Cheap to clone; clones share the store.
#[derive(Clone)]
pub struct Prefs {
    store: Arc<dyn KeyValue>,
    data_dir: PathBuf,
    /// Held by each write from its change to its sync; true when a save failed since the file was read (what
    /// the store holds in memory may then not be on disk).
    unsaved: Arc<Mutex<bool>>,
}

impl Prefs {
    pub fn open<R: Runtime>(app: &AppHandle<R>, data_dir: &Path) -> Result<Self, IpcError> {
        let store = app
            .store(data_dir.join(PREFS_FILE))
            .map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot open the settings file: {e}")))?;
        Ok(Prefs { store: store as Arc<dyn KeyValue>, data_dir: data_dir.to_owned(), unsaved: Arc::default() })
    }

    /// The value under `key`, when there is one of type `T`.
    pub(crate) fn read<T: for<'de> Deserialize<'de>>(&self, key: &str) -> Option<T> {
        self.store.get(key).and_then(|v| serde_json::from_value(v).ok())
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.store.has(key)
    }

    pub(crate) fn write(&self, key: &str, value: Value) -> Result<(), IpcError> {
        self.write_all(&[(key, value)], &[])
    }

    /// Sets every `(key, value)` of `set` and removes every key of `remove`, then saves the file once. A
    /// change to what the file holds already is not written again (the editor sets the configuration it opens
    /// as the last one at every start, and each save waits for the disk).
    pub(crate) fn write_all(&self, set: &[(&str, Value)], remove: &[&str]) -> Result<(), IpcError> {
        let mut unsaved = self.unsaved.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let holds = set.iter().all(|(key, value)| self.store.get(key).as_ref() == Some(value))
            && remove.iter().all(|key| !self.store.has(key));
        if holds && !*unsaved {
            return Ok(());
        }
        for (key, value) in set {
            self.store.set(key, value.clone());
        }
        for key in remove {
            self.store.delete(key);
        }
        *unsaved = true;
        self.store.save().map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot save the settings: {e}")))?;
        self.sync().map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot save the settings: {e}")))?;
        *unsaved = false;
        Ok(())
    }

    /// Puts the saved file and its name on disk before the change is acknowledged: the store plugin writes
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

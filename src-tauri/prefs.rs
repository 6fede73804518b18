//! Preferences that outlive a session (the connections, the editor theme, the last configuration, the window
//! geometry) in a JSON file in the data directory, held in memory and written whole at each change. Nothing secret
//! is ever written here: the connections' secrets live in the keyring or the secrets file (`secrets`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use studio_model::ErrorCode;
use studio_sync::whole_file::{set_aside, write_whole};
use ts_rs::TS;

use crate::error::IpcError;

/// The settings file: what it held when opened, with the changes since.
struct SettingsFile {
    path: PathBuf,
    entries: Mutex<BTreeMap<String, Value>>,
}

impl SettingsFile {
    /// The file at `path`; none yet is an empty one. A file that is not a JSON object (cut short by a crash of an
    /// earlier version, or edited by hand) is kept beside it (`set_aside`) and the settings start afresh, as a new
    /// user's, rather than the app not starting.
    fn open(path: PathBuf) -> Result<Self, std::io::Error> {
        let entries = match std::fs::read(&path) {
            Ok(bytes) => match serde_json::from_slice::<BTreeMap<String, Value>>(&bytes) {
                Ok(entries) => entries,
                Err(e) => {
                    let aside = set_aside(&path)?;
                    tracing::warn!("{} is not a settings file ({e}); kept as {}", path.display(), aside.display());
                    BTreeMap::new()
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => return Err(e),
        };
        Ok(SettingsFile { path, entries: Mutex::new(entries) })
    }

    fn entries(&self) -> MutexGuard<'_, BTreeMap<String, Value>> {
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes what the settings hold now, whole or not at all, and on disk before it returns. The data directory
    /// is made if it is not there yet: the connections may be written at the start, before the store makes it.
    fn save(&self) -> Result<(), std::io::Error> {
        let text = serde_json::to_string_pretty(&*self.entries())?;
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        write_whole(&self.path, &(text + "\n"))
    }
}

/// The preferences file, inside the data directory.
pub const PREFS_FILE: &str = "desktop-settings.json";

/// What a settings file that cannot be read or written asks of the data directory.
const DATA_DIR_ADVICE: &str =
    "the data directory must be a folder this user can read and write; SEARCH_STUDIO_DATA_DIR names another";

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
    file: Arc<SettingsFile>,
    data_dir: PathBuf,
    /// Held by each write from its change to its sync; true when a save failed since the file was read (what
    /// the file holds in memory may then not be on disk).
    unsaved: Arc<Mutex<bool>>,
}

impl Prefs {
    pub fn open(data_dir: &Path) -> Result<Self, IpcError> {
        let path = data_dir.join(PREFS_FILE);
        let file = SettingsFile::open(path.clone()).map_err(|e| {
            IpcError::new(
                ErrorCode::Settings,
                format!("cannot open the settings file {}: {e} ({DATA_DIR_ADVICE})", path.display()),
            )
        })?;
        Ok(Prefs { file: Arc::new(file), data_dir: data_dir.to_owned(), unsaved: Arc::default() })
    }

    /// The value under `key`, when there is one of type `T`.
    pub(crate) fn read<T: for<'de> Deserialize<'de>>(&self, key: &str) -> Option<T> {
        self.file.entries().get(key).and_then(|v| serde_json::from_value(v.clone()).ok())
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.file.entries().contains_key(key)
    }

    pub(crate) fn write(&self, key: &str, value: Value) -> Result<(), IpcError> {
        self.write_all(&[(key, value)], &[])
    }

    /// Sets every `(key, value)` of `set` and removes every key of `remove`, then saves the file once. A
    /// change to what the file holds already is not written again (the editor sets the configuration it opens
    /// as the last one at every start, and each save waits for the disk).
    pub(crate) fn write_all(&self, set: &[(&str, Value)], remove: &[&str]) -> Result<(), IpcError> {
        let mut unsaved = self.unsaved.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        {
            let mut entries = self.file.entries();
            let holds = set.iter().all(|(key, value)| entries.get(*key) == Some(value))
                && remove.iter().all(|key| !entries.contains_key(*key));
            if holds && !*unsaved {
                return Ok(());
            }
            for (key, value) in set {
                entries.insert((*key).to_owned(), value.clone());
            }
            for key in remove {
                entries.remove(*key);
            }
        }
        *unsaved = true;
        self.file.save().map_err(|e| {
            let path = self.file.path.display();
            IpcError::file(&path, &e, ErrorCode::Settings, || {
                format!("cannot save the settings file {path}: {e} ({DATA_DIR_ADVICE})")
            })
        })?;
        *unsaved = false;
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

//! Preferences that outlive a session (backend mode, remote URL, editor theme, last configuration, window
//! geometry) in a tauri-plugin-store file in the data directory, and the remote token: in the OS keyring
//! when one answers, else in a file readable only by its owner. The token is never logged, and never sent
//! back to the UI.

use studio_model::ErrorCode;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tauri::{AppHandle, Runtime};
use tauri_plugin_store::{Store, StoreExt};

/// The few store operations preferences need, so that `Prefs` does not carry the app's runtime type.
trait KeyValue: Send + Sync {
    fn get(&self, key: &str) -> Option<Value>;
    fn set(&self, key: &str, value: Value);
    fn save(&self) -> Result<(), String>;
}

impl<R: Runtime> KeyValue for Store<R> {
    fn get(&self, key: &str) -> Option<Value> {
        Store::get(self, key)
    }
    fn set(&self, key: &str, value: Value) {
        Store::set(self, key, value)
    }
    fn save(&self) -> Result<(), String> {
        Store::save(self).map_err(|e| e.to_string())
    }
}

use crate::error::IpcError;

/// The preferences file, inside the data directory.
pub const PREFS_FILE: &str = "desktop-settings.json";
/// The token file used when no keyring is available.
const TOKEN_FILE: &str = "remote-token";
const KEYRING_SERVICE: &str = "search-studio";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    #[default]
    Local,
    Remote,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
    #[default]
    System,
}

/// Where the remote token is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenStorage {
    Keyring,
    File,
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
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    pub mode: Mode,
    pub remote_url: Option<String>,
    pub token_saved: bool,
    pub token_storage: Option<TokenStorage>,
    pub theme: Theme,
    pub last_config_id: Option<i32>,
    pub data_dir: String,
}

/// The preference store of one data directory.
pub struct Prefs {
    store: Arc<dyn KeyValue>,
    data_dir: PathBuf,
}

impl Prefs {
    pub fn open<R: Runtime>(app: &AppHandle<R>, data_dir: &Path) -> Result<Self, IpcError> {
        let store = app
            .store(data_dir.join(PREFS_FILE))
            .map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot open the settings file: {e}")))?;
        Ok(Prefs { store: store as Arc<dyn KeyValue>, data_dir: data_dir.to_owned() })
    }

    fn read<T: for<'de> Deserialize<'de>>(&self, key: &str) -> Option<T> {
        self.store.get(key).and_then(|v| serde_json::from_value(v).ok())
    }

    fn write(&self, key: &str, value: Value) -> Result<(), IpcError> {
        self.store.set(key, value);
        self.store.save().map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot save the settings: {e}")))
    }

    pub fn mode(&self) -> Mode {
        self.read("mode").unwrap_or_default()
    }

    pub fn remote_url(&self) -> Option<String> {
        self.read("remoteUrl")
    }

    pub fn geometry(&self) -> Option<Geometry> {
        self.read("window")
    }

    pub fn set_geometry(&self, geometry: Geometry) -> Result<(), IpcError> {
        self.write("window", json!(geometry))
    }

    pub fn set_backend(&self, mode: Mode, remote_url: Option<&str>) -> Result<(), IpcError> {
        self.store.set("mode", json!(mode));
        self.write("remoteUrl", json!(remote_url))
    }

    pub fn set_theme(&self, theme: Theme) -> Result<(), IpcError> {
        self.write("theme", json!(theme))
    }

    pub fn set_last_config_id(&self, id: Option<i32>) -> Result<(), IpcError> {
        self.write("lastConfigId", json!(id))
    }

    /// The settings for the UI, with where the token is kept but never the token.
    pub async fn settings(&self) -> Settings {
        let url = self.remote_url();
        let stored = match &url {
            Some(url) => token::load(&self.data_dir, url).await.map(|(_, storage)| storage),
            None => None,
        };
        Settings {
            mode: self.mode(),
            remote_url: url,
            token_saved: stored.is_some(),
            token_storage: stored,
            theme: self.read("theme").unwrap_or_default(),
            last_config_id: self.read("lastConfigId"),
            data_dir: self.data_dir.display().to_string(),
        }
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }
}

/// Keeping the remote token: the OS keyring first, an owner-only file when no keyring answers.
pub mod token {
    use super::*;

    fn file(data_dir: &Path) -> PathBuf {
        data_dir.join(TOKEN_FILE)
    }

    /// Runs a keyring call off the async threads, giving up after a few seconds (a keyring daemon that
    /// does not answer must not hang the app).
    async fn with_keyring<T: Send + 'static>(url: &str, work: impl FnOnce(keyring::Entry) -> Option<T> + Send + 'static) -> Option<T> {
        let url = url.to_owned();
        let call = tokio::task::spawn_blocking(move || keyring::Entry::new(KEYRING_SERVICE, &url).ok().and_then(work));
        match tokio::time::timeout(std::time::Duration::from_secs(3), call).await {
            Ok(Ok(found)) => found,
            _ => None,
        }
    }

    /// The token saved for `url`, and where it was found.
    pub async fn load(data_dir: &Path, url: &str) -> Option<(String, TokenStorage)> {
        if let Some(token) = with_keyring(url, |entry| entry.get_password().ok()).await {
            return Some((token, TokenStorage::Keyring));
        }
        let text = std::fs::read_to_string(file(data_dir)).ok()?;
        let saved: Value = serde_json::from_str(&text).ok()?;
        let token = saved.get(url)?.as_str()?.to_owned();
        Some((token, TokenStorage::File))
    }

    /// Saves the token for `url` and says where it went.
    pub async fn save(data_dir: &Path, url: &str, token: &str) -> Result<TokenStorage, IpcError> {
        let secret = token.to_owned();
        let stored = with_keyring(url, move |entry| {
            (entry.set_password(&secret).is_ok() && entry.get_password().ok() == Some(secret)).then_some(())
        })
        .await;
        if stored.is_some() {
            return Ok(TokenStorage::Keyring);
        }
        save_to_file(data_dir, url, token)?;
        Ok(TokenStorage::File)
    }

    fn save_to_file(data_dir: &Path, url: &str, token: &str) -> Result<(), IpcError> {
        let path = file(data_dir);
        let mut saved: serde_json::Map<String, Value> = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        saved.insert(url.to_owned(), Value::String(token.to_owned()));
        let text = Value::Object(saved).to_string();
        let fail = |e: std::io::Error| IpcError::new(ErrorCode::Settings, format!("cannot save the token in {}: {e}", path.display()));
        write_owner_only(&path, text.as_bytes()).map_err(fail)
    }

    #[cfg(unix)]
    fn write_owner_only(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Write;
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let tmp = path.with_extension("tmp");
        let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(tmp, path)
    }

    #[cfg(not(unix))]
    fn write_owner_only(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        std::fs::write(path, bytes)
    }
}

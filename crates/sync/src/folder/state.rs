//! What a folder (or a promotion) last applied to each target: `.studio/state.json` of the folder, or the
//! promotions' file in the data directory. Per target (`local`, or a server's base URL), per key: the
//! configuration's id there, and a hash of the configuration as the target held it right after the last
//! apply or pull. It holds no secret and no settings, so it is small and safe to commit.
//!
//! ```json
//! {
//!   "version": 1,
//!   "targets": {
//!     "https://search.example.org": {
//!       "news": {"id": 12, "sha256": "3f5a…"}
//!     }
//!   }
//! }
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use studio_model::Config;

use super::error::FolderError;
use super::format::write_if_changed;

/// The state file's name in the folder's `.studio`.
pub const STATE_FILE: &str = "state.json";
/// The version of the state file this program writes and reads.
pub const STATE_VERSION: u32 = 1;

/// One configuration as last applied to (or pulled from) a target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    pub id: i32,
    /// [`config_hash`] of the configuration as the target held it then.
    pub sha256: String,
}

/// Every target's applied configurations, by key.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct State {
    pub version: u32,
    pub targets: BTreeMap<String, BTreeMap<String, Applied>>,
}

/// A state file: where it is and what it holds.
#[derive(Debug, Clone)]
pub struct StateFile {
    pub path: PathBuf,
    pub state: State,
}

impl StateFile {
    /// Reads the state at `path`; an empty state when there is no file yet.
    pub fn read(path: &Path) -> Result<StateFile, FolderError> {
        let state = match std::fs::read_to_string(path) {
            Ok(text) => {
                let state: State = serde_json::from_str(&text)
                    .map_err(|e| FolderError::BadState { path: path.to_owned(), message: e.to_string() })?;
                if state.version > STATE_VERSION {
                    return Err(FolderError::BadState {
                        path: path.to_owned(),
                        message: format!(
                            "it is of version {}, newer than this program reads ({STATE_VERSION}); update studio",
                            state.version
                        ),
                    });
                }
                state
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => State { version: STATE_VERSION, ..State::default() },
            Err(source) => return Err(FolderError::Io { what: "cannot read", path: path.to_owned(), source }),
        };
        Ok(StateFile { path: path.to_owned(), state })
    }

    /// What was applied to `target`.
    pub fn target(&self, target: &str) -> BTreeMap<String, Applied> {
        self.state.targets.get(target).cloned().unwrap_or_default()
    }

    /// Notes that `key` is configuration `id` of `target`, as `config` is now.
    pub fn record(&mut self, target: &str, key: &str, id: i32, config: &Config) {
        self.record_hash(target, key, id, &config_hash(config));
    }

    /// Notes that `key` is configuration `id` of `target`, whose settings have the hash `sha256`.
    pub fn record_hash(&mut self, target: &str, key: &str, id: i32, sha256: &str) {
        let applied = Applied { id, sha256: sha256.to_owned() };
        self.state.targets.entry(target.to_owned()).or_default().insert(key.to_owned(), applied);
    }

    /// Forgets `key` on `target`.
    pub fn forget(&mut self, target: &str, key: &str) {
        if let Some(keys) = self.state.targets.get_mut(target) {
            keys.remove(key);
        }
    }

    /// Writes the state to disk (atomically: the old state or the new one, never half of either).
    pub fn save(&self) -> Result<(), FolderError> {
        let io = |source| FolderError::Io { what: "cannot write", path: self.path.clone(), source };
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut text = serde_json::to_string_pretty(&self.state).unwrap_or_default();
        text.push('\n');
        write_if_changed(&self.path, &text).map(drop).map_err(io)
    }
}

/// A hash of a configuration's settings that does not depend on the order of their keys: SHA-256 of the
/// settings as JSON with every object's keys sorted, in hexadecimal.
pub fn config_hash(config: &Config) -> String {
    let value = sorted(serde_json::to_value(config).unwrap_or_default());
    let digest = Sha256::digest(value.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().map(|(k, v)| (k, sorted(v))).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_ignores_key_order_but_not_values() {
        let mut a = Config { title: "A".into(), ..Config::default() };
        let mut b = a.clone();
        a.extra.insert("x".into(), serde_json::json!({"p": 1, "q": 2}));
        a.extra.insert("y".into(), serde_json::json!(1));
        b.extra.insert("y".into(), serde_json::json!(1));
        b.extra.insert("x".into(), serde_json::json!({"q": 2, "p": 1}));
        assert_eq!(config_hash(&a), config_hash(&b));
        b.title = "B".into();
        assert_ne!(config_hash(&a), config_hash(&b));
    }

    #[test]
    fn a_state_survives_a_round_trip_and_a_missing_file_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".studio").join(STATE_FILE);
        let mut file = StateFile::read(&path).unwrap();
        assert!(file.state.targets.is_empty());
        file.record("local", "news", 3, &Config::default());
        file.save().unwrap();
        let again = StateFile::read(&path).unwrap();
        assert_eq!(again.target("local")["news"].id, 3);
        std::fs::write(&path, "{\"version\": 9, \"targets\": {}}").unwrap();
        assert!(StateFile::read(&path).unwrap_err().to_string().contains("newer"));
    }
}

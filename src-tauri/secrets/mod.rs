//! The secrets of the desktop's connections: pasted tokens, a provider's refresh token (with its expiry),
//! remembered passwords and client secrets. Each connection's secrets are kept in the OS keyring when one
//! answers, else in one owner-only file in the data directory ([`file`]); [`SecretStorage`] says which.
//!
//! Secrets never go into the settings file, never to the UI, and never into a log or an error message.
//! They are held in memory too, with what is never saved at all: the provider's current access token and a
//! pasted token the designer chose not to remember.

mod file;
mod keyring;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use studio_model::ErrorCode;
use studio_remote::oidc::Tokens;
use ts_rs::TS;

use crate::error::IpcError;

pub(crate) use file::write_owner_only;
pub use file::SECRETS_FILE;
pub(crate) use keyring::{delete as keyring_delete, get as keyring_get};

/// Where a connection's secrets are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum SecretStorage {
    Keyring,
    File,
}

/// The secrets saved for one connection.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConnectionSecrets {
    /// A pasted access token (the token sign-in method).
    pub token: Option<String>,
    /// A provider's refresh token, which lets the next start go on without signing in.
    pub refresh_token: Option<String>,
    /// When the refresh token expires, in seconds since 1970.
    pub refresh_expires_at: Option<u64>,
    /// A remembered password (the password method, when the designer asked to remember it).
    pub password: Option<String>,
    /// The provider client's secret.
    pub client_secret: Option<String>,
}

impl std::fmt::Debug for ConnectionSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = |s: &Option<String>| s.as_ref().map(|_| "…");
        f.debug_struct("ConnectionSecrets")
            .field("token", &held(&self.token))
            .field("refresh_token", &held(&self.refresh_token))
            .field("password", &held(&self.password))
            .field("client_secret", &held(&self.client_secret))
            .finish()
    }
}

impl ConnectionSecrets {
    fn is_empty(&self) -> bool {
        self.token.is_none() && self.refresh_token.is_none() && self.password.is_none() && self.client_secret.is_none()
    }

    /// The saved refresh token as tokens to start a session from (the first use refreshes them).
    pub fn refresh_tokens(&self) -> Option<Tokens> {
        let expires = self.refresh_expires_at.map(|s| UNIX_EPOCH + Duration::from_secs(s));
        let tokens = Tokens::from_refresh_token(self.refresh_token.clone()?, expires);
        tokens.usable_refresh_token(SystemTime::now()).is_some().then_some(tokens)
    }

    /// Saves the refresh part of a provider's `tokens`.
    pub fn keep_refresh(&mut self, tokens: &Tokens) {
        self.refresh_token = tokens.refresh_token.clone();
        self.refresh_expires_at =
            tokens.refresh_expires_at.and_then(|at| at.duration_since(UNIX_EPOCH).ok()).map(|d| d.as_secs());
    }
}

/// What the shell knows of one connection's secrets: the saved ones and those it holds for this run only.
/// (No `Debug`: it holds secrets.)
#[derive(Clone, Default)]
pub struct Held {
    pub saved: ConnectionSecrets,
    /// The provider's tokens in use now, access token included (never saved whole).
    pub tokens: Option<Tokens>,
    /// A pasted token used for this run only.
    pub session_token: Option<String>,
    /// Where `saved` is kept; `None` while nothing is saved.
    pub storage: Option<SecretStorage>,
}

impl Held {
    /// Whether the shell can send a provider's access token without asking the designer: it holds a valid
    /// one, or a refresh token that has not expired.
    pub fn has_provider_tokens(&self) -> bool {
        let now = SystemTime::now();
        let held = self.tokens.as_ref().is_some_and(|t| !t.needs_renewal(now) || t.usable_refresh_token(now).is_some());
        held || self.saved.refresh_tokens().is_some()
    }
}

/// Why secrets could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    #[error("cannot write the secrets file {path}: {source}")]
    File { path: PathBuf, source: std::io::Error },
    #[error("the secrets file {path} cannot be read ({reason}); move it away to start over")]
    Corrupt { path: PathBuf, reason: String },
}

impl From<SecretsError> for IpcError {
    fn from(e: SecretsError) -> Self {
        IpcError::new(ErrorCode::Settings, e.to_string())
    }
}

/// The keyring entry of connection `id`.
fn keyring_user(id: &str) -> String {
    format!("connection:{id}")
}

/// The secrets of every connection of one data directory.
pub struct Secrets {
    data_dir: PathBuf,
    use_keyring: bool,
    held: Mutex<HashMap<String, Held>>,
    /// One write at a time, each writing the newest secrets of its connection.
    writing: tokio::sync::Mutex<()>,
    /// How many writes are scheduled and not yet done (see [`Secrets::flush`]).
    pending: tokio::sync::watch::Sender<usize>,
}

impl Secrets {
    /// Reads the secrets of connections `ids`: from the keyring (when `use_keyring`), else from the file.
    pub async fn open(data_dir: &Path, use_keyring: bool, ids: &[String]) -> Result<Secrets, SecretsError> {
        let secrets = Secrets {
            data_dir: data_dir.to_owned(),
            use_keyring,
            held: Mutex::default(),
            writing: tokio::sync::Mutex::new(()),
            pending: tokio::sync::watch::channel(0).0,
        };
        let mut keyring = tokio::task::JoinSet::new();
        if use_keyring {
            for id in ids {
                let id = id.clone();
                keyring.spawn(async move { (keyring::get(&keyring_user(&id)).await, id) });
            }
        }
        let mut loaded = HashMap::new();
        while let Some(Ok((text, id))) = keyring.join_next().await {
            if let Some(saved) = text.and_then(|t| serde_json::from_str::<ConnectionSecrets>(&t).ok()) {
                loaded.insert(id, Held { saved, storage: Some(SecretStorage::Keyring), ..Held::default() });
            }
        }
        for id in ids {
            if !loaded.contains_key(id) {
                if let Some(saved) = file::load(data_dir, id)? {
                    loaded.insert(id.clone(), Held { saved, storage: Some(SecretStorage::File), ..Held::default() });
                }
            }
        }
        *secrets.lock() = loaded;
        Ok(secrets)
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Held>> {
        self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// What is known of connection `id`'s secrets.
    pub fn get(&self, id: &str) -> Held {
        self.lock().get(id).cloned().unwrap_or_default()
    }

    /// Changes connection `id`'s secrets with `edit` and saves them before answering.
    pub async fn change(&self, id: &str, edit: impl FnOnce(&mut Held)) -> Result<(), SecretsError> {
        let changed = {
            let mut all = self.lock();
            let held = all.entry(id.to_owned()).or_default();
            let before = held.saved.clone();
            edit(held);
            held.saved != before
        };
        if changed {
            self.save(id).await?;
        }
        Ok(())
    }

    /// Takes a provider's new `tokens` for connection `id` (a session renewed them). Called while the
    /// session's lock is held, so it only updates memory and leaves the write to a task.
    pub fn keep_tokens(self: &Arc<Self>, id: &str, tokens: &Tokens) {
        let changed = {
            let mut all = self.lock();
            let held = all.entry(id.to_owned()).or_default();
            let before = held.saved.clone();
            held.saved.keep_refresh(tokens);
            held.tokens = Some(tokens.clone());
            held.saved != before
        };
        if changed {
            self.pending.send_modify(|n| *n += 1);
            let (me, id) = (Arc::clone(self), id.to_owned());
            tauri::async_runtime::spawn(async move {
                if let Err(e) = me.save(&id).await {
                    tracing::warn!(connection = %id, "the refresh token could not be saved: {e}");
                }
                me.pending.send_modify(|n| *n -= 1);
            });
        }
    }

    /// Forgets every secret of connection `id`, in memory, in the keyring and in the file.
    pub async fn forget(&self, id: &str) -> Result<(), SecretsError> {
        self.lock().remove(id);
        self.save(id).await
    }

    /// Waits until every scheduled write is done (before the app exits).
    pub async fn flush(&self) {
        let mut pending = self.pending.subscribe();
        let _ = pending.wait_for(|n| *n == 0).await;
    }

    /// Writes the newest saved secrets of `id` where they belong, and notes where that is.
    async fn save(&self, id: &str) -> Result<(), SecretsError> {
        let _one_at_a_time = self.writing.lock().await;
        let saved = self.lock().get(id).map(|h| h.saved.clone()).filter(|s| !s.is_empty());
        let user = keyring_user(id);
        let storage = match saved {
            None => {
                if self.use_keyring {
                    keyring::delete(&user).await;
                }
                file::store(&self.data_dir, id, None)?;
                None
            }
            Some(saved) => {
                let text = serde_json::to_string(&saved).unwrap_or_default();
                if self.use_keyring && keyring::set(&user, &text).await {
                    file::store(&self.data_dir, id, None)?;
                    Some(SecretStorage::Keyring)
                } else {
                    file::store(&self.data_dir, id, Some(&saved))?;
                    if self.use_keyring {
                        // An older entry would otherwise be read first at the next start.
                        keyring::delete(&user).await;
                    }
                    Some(SecretStorage::File)
                }
            }
        };
        if let Some(held) = self.lock().get_mut(id) {
            held.storage = storage;
        }
        Ok(())
    }
}

//! The OS keyring (Secret Service, Keychain, Credential Manager), asked off the async threads and given up
//! on after a few seconds: a keyring daemon that does not answer must not hang the app.
//!
//! A call comes to one of three [`Reply`]s, and the difference matters: `Absent` (there is no keyring to
//! ask) and `NoAnswer` (a keyring is there but did not answer in time, or refused because it is locked) are
//! never taken for "no entry", since secrets may well be kept there.

use std::sync::Arc;
use std::time::Duration;

/// The keyring service all of this app's entries are filed under.
pub const SERVICE: &str = "search-studio";

/// How long one keyring call may take, by default.
pub const PATIENCE: Duration = Duration::from_secs(3);

/// Why a keyring call failed.
#[derive(Debug, thiserror::Error)]
pub enum KeyringError {
    /// There is no keyring to ask (no Secret Service on the session bus, or the platform has none).
    #[error("no keyring: {0}")]
    Absent(String),
    /// The keyring is there but did not let us in (locked, its unlock prompt dismissed).
    #[error("the keyring refused: {0}")]
    Refused(String),
}

/// A keyring, asked by blocking calls (the shell runs them on the blocking pool, with a time limit). The
/// system's is [`SystemKeyring`]; tests use a stand-in whose answers they control.
pub trait Keyring: Send + Sync {
    /// The secret kept under `user`; `None` when there is no such entry.
    fn get(&self, user: &str) -> Result<Option<String>, KeyringError>;
    /// Keeps `secret` under `user`.
    fn set(&self, user: &str, secret: &str) -> Result<(), KeyringError>;
    /// Removes the entry `user` (no entry is no error).
    fn delete(&self, user: &str) -> Result<(), KeyringError>;
}

/// The operating system's keyring, under [`SERVICE`].
pub struct SystemKeyring;

fn failure(e: keyring::Error) -> KeyringError {
    match e {
        keyring::Error::NoStorageAccess(inner) => KeyringError::Refused(inner.to_string()),
        other => KeyringError::Absent(other.to_string()),
    }
}

impl Keyring for SystemKeyring {
    fn get(&self, user: &str) -> Result<Option<String>, KeyringError> {
        match keyring::Entry::new(SERVICE, user).and_then(|entry| entry.get_password()) {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(failure(e)),
        }
    }

    fn set(&self, user: &str, secret: &str) -> Result<(), KeyringError> {
        let entry = keyring::Entry::new(SERVICE, user).map_err(failure)?;
        entry.set_password(secret).map_err(failure)?;
        // Some keyrings accept a write they do not keep: read it back to be sure.
        match entry.get_password() {
            Ok(kept) if kept == secret => Ok(()),
            Ok(_) | Err(keyring::Error::NoEntry) => {
                Err(KeyringError::Absent("it did not keep what was written".into()))
            }
            Err(e) => Err(failure(e)),
        }
    }

    fn delete(&self, user: &str) -> Result<(), KeyringError> {
        match keyring::Entry::new(SERVICE, user).and_then(|entry| entry.delete_credential()) {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(failure(e)),
        }
    }
}

/// What one keyring call came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply<T> {
    Done(T),
    /// There is no keyring to ask.
    Absent,
    /// The keyring did not answer in time, or refused: what it keeps is unknown.
    NoAnswer,
}

/// A keyring with the time each call may take.
#[derive(Clone)]
pub struct KeyringAccess {
    keyring: Arc<dyn Keyring>,
    patience: Duration,
}

impl KeyringAccess {
    pub fn new(keyring: Arc<dyn Keyring>, patience: Duration) -> Self {
        KeyringAccess { keyring, patience }
    }

    /// The system's keyring, with the default patience.
    pub fn system() -> Self {
        KeyringAccess::new(Arc::new(SystemKeyring), PATIENCE)
    }

    /// Runs `work` on the blocking pool, waiting at most the patience. A call given up on may still
    /// finish later; callers order their writes so that a late one does no harm.
    async fn call<T: Send + 'static>(
        &self,
        work: impl FnOnce(&dyn Keyring) -> Result<T, KeyringError> + Send + 'static,
    ) -> Reply<T> {
        let keyring = Arc::clone(&self.keyring);
        let call = tauri::async_runtime::spawn_blocking(move || work(keyring.as_ref()));
        match tokio::time::timeout(self.patience, call).await {
            Ok(Ok(Ok(answer))) => Reply::Done(answer),
            Ok(Ok(Err(KeyringError::Absent(reason)))) => {
                tracing::debug!("no keyring: {reason}");
                Reply::Absent
            }
            Ok(Ok(Err(KeyringError::Refused(reason)))) => {
                tracing::warn!("the keyring refused: {reason}");
                Reply::NoAnswer
            }
            Ok(Err(_)) | Err(_) => Reply::NoAnswer,
        }
    }

    /// The secret kept under `user`, if any.
    pub async fn get(&self, user: &str) -> Reply<Option<String>> {
        let user = user.to_owned();
        self.call(move |k| k.get(&user)).await
    }

    /// Keeps `secret` under `user`.
    pub async fn set(&self, user: &str, secret: &str) -> Reply<()> {
        let (user, secret) = (user.to_owned(), secret.to_owned());
        self.call(move |k| k.set(&user, &secret)).await
    }

    /// Removes the entry `user`.
    pub async fn delete(&self, user: &str) -> Reply<()> {
        let user = user.to_owned();
        self.call(move |k| k.delete(&user)).await
    }
}

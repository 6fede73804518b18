//! What the secrets' modules share, below all of them: what one connection's secrets are, where they are
//! kept, what the shell holds of them, and what can go wrong or be worth telling the designer.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use studio_model::ErrorCode;
use studio_remote::oidc::Tokens;
use ts_rs::TS;

use crate::error::IpcError;

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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// A provider's refresh token, which lets the next start go on without signing in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// When the refresh token expires, in seconds since 1970.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_expires_at: Option<u64>,
    /// A remembered password (the password method, when the designer asked to remember it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// The provider client's secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// When these were saved, in milliseconds since 1970, and always above the revision before: the newest
    /// copy wins when the keyring and the file both hold one (0 for secrets saved before revisions).
    pub revision: u64,
}

impl std::fmt::Debug for ConnectionSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = |s: &Option<String>| s.as_ref().map(|_| "…");
        f.debug_struct("ConnectionSecrets")
            .field("token", &held(&self.token))
            .field("refresh_token", &held(&self.refresh_token))
            .field("password", &held(&self.password))
            .field("client_secret", &held(&self.client_secret))
            .field("revision", &self.revision)
            .finish()
    }
}

impl ConnectionSecrets {
    /// Whether no secret is kept (the revision aside).
    pub fn is_empty(&self) -> bool {
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
    /// The keyring did not answer at start and may keep this connection's secrets: they are not in use,
    /// and changes are held in memory only, never saved over them.
    pub unread: bool,
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

/// Why secrets could not be kept. No message quotes what a file or keyring holds.
#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    #[error("cannot write the secrets file {path}: {source}")]
    File { path: PathBuf, source: std::io::Error },
    #[error("the secrets file {path} cannot be read: it is not what this app writes (line {line}, column {column})")]
    Corrupt { path: PathBuf, line: usize, column: usize },
}

impl From<SecretsError> for IpcError {
    fn from(e: SecretsError) -> Self {
        match &e {
            SecretsError::File { path, source } => {
                IpcError::file(path.display(), source, ErrorCode::Settings, || e.to_string())
            }
            SecretsError::Corrupt { .. } => IpcError::new(ErrorCode::Settings, e.to_string()),
        }
    }
}

/// Something about the secrets that the designer should know (Settings shows it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretsNotice {
    /// The keyring did not answer at start: connections `ids` may have secrets there, which are not used in
    /// this run; what changes for them is held until the app closes.
    KeyringUnread { ids: Vec<String> },
    /// The keyring stopped answering while the app ran: secrets are saved in the file from then on.
    KeyringStopped,
    /// The secrets file was damaged; the app started without it and set it aside as `kept_as`.
    DamagedFile { path: PathBuf, kept_as: Option<PathBuf>, line: usize, column: usize },
    /// The secrets file could not be read at all.
    UnreadableFile { reason: String },
}

/// The keyring entry of connection `id`.
pub(super) fn keyring_user(id: &str) -> String {
    format!("connection:{id}")
}

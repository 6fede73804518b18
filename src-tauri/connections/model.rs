//! The shapes of connections: as the preferences file keeps them (no secret, ever), as the UI sees them
//! (with what the shell knows of their secrets, never the secrets), and as the UI sends them. The UI's
//! TypeScript copies are generated from these (`ui/src/lib/types/desktop.ts`).

use serde::{Deserialize, Serialize};
use studio_model::ErrorCode;
use studio_remote::oidc::DEFAULT_CLIENT_ID;
use ts_rs::TS;

use crate::error::IpcError;
use crate::secrets::{Held, SecretStorage};

/// The id of the local store's connection, always present.
pub const LOCAL_ID: &str = "local";
/// The local store's name in the list.
pub const LOCAL_NAME: &str = "Local store";
/// The id of the folder workspace's connection, present once a folder was opened.
pub const FOLDER_ID: &str = "folder";

/// How the shell signs in to a remote server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum SignInMethod {
    /// No Authorization header.
    None,
    /// A pasted access token, sent as it is.
    Token,
    /// The provider's password grant with the connection's username.
    Password,
    /// The provider's authorization code with PKCE, through the system browser.
    Browser,
}

impl SignInMethod {
    /// Every method, in the order the UI offers them.
    pub const ALL: [SignInMethod; 4] =
        [SignInMethod::None, SignInMethod::Token, SignInMethod::Password, SignInMethod::Browser];

    /// Whether the method signs in through an OpenID Connect provider (and so needs its issuer URL and a
    /// client id). The UI's copy of this rule is generated from it.
    pub fn uses_provider(self) -> bool {
        matches!(self, SignInMethod::Password | SignInMethod::Browser)
    }
}

/// Whether a connection is the local store, a remote server or a folder of configuration files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ConnectionKind {
    Local,
    Remote,
    Folder,
}

/// A remote connection as the preferences file keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredConnection {
    pub id: String,
    pub name: String,
    pub url: String,
    pub sign_in: SignInMethod,
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    pub username: Option<String>,
    pub remember_password: bool,
}

impl StoredConnection {
    /// Whether `other` signs in to the same server in the same way (tokens obtained for one are good for
    /// the other).
    pub fn same_sign_in(&self, other: &StoredConnection) -> bool {
        (&self.url, self.sign_in, &self.issuer, &self.client_id, &self.username)
            == (&other.url, other.sign_in, &other.issuer, &other.client_id, &other.username)
    }

    /// The provider's client id.
    pub fn client_id(&self) -> &str {
        self.client_id.as_deref().unwrap_or(DEFAULT_CLIENT_ID)
    }

    /// The issuer, which every provider method has (checked when the connection was saved).
    pub fn issuer(&self) -> Result<&str, IpcError> {
        self.issuer.as_deref().ok_or_else(|| {
            IpcError::new(
                ErrorCode::Settings,
                format!("connection {} signs in through a provider but names no issuer", self.name),
            )
        })
    }
}

/// A connection as the UI sees it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    /// `local` for the local store; others e.g. `c-3f9a…`.
    pub id: String,
    pub name: String,
    #[ts(inline)]
    pub kind: ConnectionKind,
    /// The remote server's base URL (the part before `/api`); null for the local store.
    pub url: Option<String>,
    pub sign_in: SignInMethod,
    /// The OpenID Connect issuer URL (password and browser methods).
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    /// The password method's username.
    pub username: Option<String>,
    pub remember_password: bool,
    /// A pasted token is saved.
    pub has_token: bool,
    pub has_client_secret: bool,
    /// A remembered password is saved.
    pub has_password: bool,
    /// The shell holds tokens for it now (or a saved refresh token, or a pasted token).
    pub signed_in: bool,
    /// Where its secrets are kept; null while none are.
    pub secret_storage: Option<SecretStorage>,
    /// A folder's full path; null for the others.
    pub path: Option<String>,
    /// For a folder: the id of the connection its preview searches (`local` or a remote one); null for the others.
    pub searches: Option<String>,
}

impl Connection {
    /// The local store.
    pub fn local() -> Connection {
        Connection {
            id: LOCAL_ID.to_owned(),
            name: LOCAL_NAME.to_owned(),
            kind: ConnectionKind::Local,
            url: None,
            sign_in: SignInMethod::None,
            issuer: None,
            client_id: None,
            username: None,
            remember_password: false,
            has_token: false,
            has_client_secret: false,
            has_password: false,
            signed_in: false,
            secret_storage: None,
            path: None,
            searches: None,
        }
    }

    /// The folder at `path`, whose preview searches connection `searches`.
    pub fn folder(path: &str, searches: &str) -> Connection {
        let name = std::path::Path::new(path).file_name().map_or(path.to_owned(), |n| n.to_string_lossy().into_owned());
        Connection {
            id: FOLDER_ID.to_owned(),
            name,
            kind: ConnectionKind::Folder,
            path: Some(path.to_owned()),
            searches: Some(searches.to_owned()),
            ..Connection::local()
        }
    }

    /// A remote connection with what is known of its secrets.
    pub fn remote(stored: &StoredConnection, held: &Held) -> Connection {
        let signed_in = match stored.sign_in {
            SignInMethod::None => false,
            SignInMethod::Token => held.saved.token.is_some() || held.session_token.is_some(),
            SignInMethod::Password | SignInMethod::Browser => held.has_provider_tokens(),
        };
        Connection {
            id: stored.id.clone(),
            name: stored.name.clone(),
            kind: ConnectionKind::Remote,
            url: Some(stored.url.clone()),
            sign_in: stored.sign_in,
            issuer: stored.issuer.clone(),
            client_id: stored.client_id.clone(),
            username: stored.username.clone(),
            remember_password: stored.remember_password,
            has_token: held.saved.token.is_some(),
            has_client_secret: held.saved.client_secret.is_some(),
            has_password: held.saved.password.is_some(),
            signed_in,
            secret_storage: held.storage,
            path: None,
            searches: None,
        }
    }
}

/// Every connection (the local store first), the id of the current one, and what the designer should know
/// about them.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Connections {
    pub connections: Vec<Connection>,
    /// The id of the current connection.
    pub current: String,
    /// What went wrong with the connections or their secrets since the app started, each a sentence for
    /// Settings (the last connection could not be set up, the keyring did not answer, the secrets file was
    /// damaged).
    pub notices: Vec<String>,
}

/// A connection as the UI saves it. (No `Debug`: it may carry secrets.)
#[derive(Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionInput {
    /// Null for a new connection.
    pub id: Option<String>,
    pub name: String,
    pub url: String,
    pub sign_in: SignInMethod,
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    pub username: Option<String>,
    pub remember_password: bool,
    /// The token method's token; null keeps the saved one, "" removes it.
    pub token: Option<String>,
    /// Null keeps the saved one, "" removes it.
    pub client_secret: Option<String>,
    /// The password method's password: used to sign in now, kept only when `rememberPassword`.
    pub password: Option<String>,
}

/// A sign-in the UI asks for: a password (password method) or a pasted token (token method). (No `Debug`:
/// it carries a secret.)
#[derive(Clone, Deserialize, TS)]
pub struct SignInInput {
    pub password: Option<String>,
    pub token: Option<String>,
    /// Keep the password (password method) or the token (token method) for the next start.
    pub remember: bool,
}

/// A new connection id: `c-` and 16 random hexadecimal digits.
pub fn new_id() -> String {
    format!("c-{:016x}", rand::random::<u64>())
}

/// `text` trimmed, or `None` when nothing is left.
pub fn given(text: Option<&str>) -> Option<String> {
    text.map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned)
}

fn invalid(message: impl Into<String>) -> IpcError {
    IpcError::new(ErrorCode::Settings, message)
}

/// Checks a server's address the way its client will: the remote client's own rule, so that a connection
/// that can be saved can be used. Answers the address as the client keeps it (no trailing slash or `/api`).
pub fn check_server_url(url: &str) -> Result<String, IpcError> {
    studio_remote::check_base_url(url).map_err(|e| invalid(e.to_string()))
}

/// Checks an issuer URL the user typed: http(s), with a host. Answers it without a trailing slash.
fn check_issuer(url: &str) -> Result<String, IpcError> {
    let trimmed = url.trim().trim_end_matches('/');
    let rest = trimmed.strip_prefix("https://").or_else(|| trimmed.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => Ok(trimmed.to_owned()),
        _ => Err(invalid(format!("`{url}` is not an issuer URL; write it like https://sso.example.org/realms/NAME"))),
    }
}

impl ConnectionInput {
    /// The connection to keep under `id`, once every field the sign-in method needs is there and usable.
    pub fn to_stored(&self, id: &str) -> Result<StoredConnection, IpcError> {
        let name = given(Some(&self.name)).ok_or_else(|| invalid("give the connection a name"))?;
        let url = check_server_url(&self.url)?;
        let issuer = match given(self.issuer.as_deref()) {
            Some(issuer) => Some(check_issuer(&issuer)?),
            None if self.sign_in.uses_provider() => {
                return Err(invalid(
                    "signing in through a provider needs its issuer URL, e.g. https://sso.example.org/realms/NAME",
                ))
            }
            None => None,
        };
        let username = given(self.username.as_deref());
        if self.sign_in == SignInMethod::Password && username.is_none() {
            return Err(invalid("the password sign-in needs a username"));
        }
        let client_id = given(self.client_id.as_deref())
            .or_else(|| self.sign_in.uses_provider().then(|| DEFAULT_CLIENT_ID.to_owned()));
        Ok(StoredConnection {
            id: id.to_owned(),
            name,
            url,
            sign_in: self.sign_in,
            issuer,
            client_id,
            username,
            remember_password: self.remember_password && self.sign_in == SignInMethod::Password,
        })
    }
}

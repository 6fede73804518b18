//! What can go wrong when talking to a remote server, one case per thing a designer would do differently
//! (fix the token, ask for rights, check the address, wait, point at the right server), and the single
//! place where those cases become [`BackendError`]s.
//!
//! Messages name the server and say what it answered; they never consist of a bare serde message.

use std::time::Duration;

use studio_model::{BackendError, Extension};

/// A failed exchange with a remote server of the API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemoteError {
    /// The base URL given for the server cannot be used.
    #[error("`{url}` is not a usable server address: {reason}")]
    BadBaseUrl { url: String, reason: String },
    /// The access token cannot be sent: it holds characters an HTTP header cannot carry.
    #[error("the access token for {server} holds characters that cannot be sent in a header; paste it again")]
    BadToken { server: String },
    /// The HTTP client could not be built (no TLS backend); a fault of this program, not of the server.
    #[error("the HTTP client could not be set up: {0}")]
    Client(String),
    /// 401: the server does not accept the access token (missing, unknown or expired).
    #[error("{server} rejected the access token (401): {message}")]
    TokenRejected { server: String, message: String },
    /// 403: the token is known but its user may not do this.
    #[error("{server} does not allow this (403): {message}")]
    NotAllowed { server: String, message: String },
    /// 404: the configuration, document, plugin or path does not exist there. `message` is the server's own.
    #[error("{message}")]
    NotFound { message: String },
    /// 400: the server found the request unusable. `message` is the server's own.
    #[error("{message}")]
    BadRequest { message: String },
    /// 409: the request conflicts with the server's state (deleting the active configuration).
    #[error("{message}")]
    Conflict { message: String },
    /// Any other 4xx (405, 413, 415, 429 …).
    #[error("{server} refused the request ({status}): {message}")]
    Refused { server: String, status: u16, message: String },
    /// 5xx: the server failed (after retries, where the request allowed them).
    #[error("{server} failed to answer ({status}): {message}")]
    ServerFailed { server: String, status: u16, message: String },
    /// No connection could be made (refused, unknown host, TLS failure).
    #[error("cannot reach {server}: {reason}")]
    Unreachable { server: String, reason: String },
    /// The server did not answer in time.
    #[error("{server} did not answer within {} s", seconds(*.after))]
    TimedOut { server: String, after: Duration },
    /// The connection broke before the whole answer arrived.
    #[error("the connection to {server} broke before its answer was complete: {reason}")]
    ConnectionLost { server: String, reason: String },
    /// The answer was larger than the client reads ([`RemoteOptions::max_answer_bytes`](crate::RemoteOptions)).
    #[error("{server} sent an answer larger than {limit} bytes to {request}; it was not read")]
    TooLarge { server: String, request: String, limit: u64 },
    /// The server lacks an extension of the API (it answered 404 or 405 without this API's error body).
    #[error("{server} does not offer {}", .extension.operation())]
    NotOffered { server: String, extension: Extension },
    /// The sign-in provider cannot be used: a wrong issuer URL, a refused client, an odd answer. The
    /// connection's settings must be fixed; signing in again would not help.
    #[error("signing in with {issuer} failed: {message}")]
    SignIn { issuer: String, message: String },
    /// The provider refused the grant: wrong username or password, or a refresh token that has expired.
    #[error("{issuer} refused the sign-in: {message}")]
    GrantRefused { issuer: String, message: String },
    /// The provider's tokens could not be renewed and no password is known: the user must sign in again.
    #[error("sign in to {server} again: {reason}")]
    SignInNeeded { server: String, reason: String },
    /// The server answered, but not as a server of this API would (HTML, wrong JSON, an unexpected status).
    #[error(
        "{server} answered something that is not the Search Studio API (HTTP {status}; {problem}); it began: {start}"
    )]
    NotTheApi { server: String, status: u16, problem: String, start: String },
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

impl From<RemoteError> for BackendError {
    /// 4xx answers keep their meaning (and, for statuses without a variant of their own, their status, so
    /// that a proxy passes them through); everything else about the upstream is a bad gateway or a timeout.
    fn from(e: RemoteError) -> Self {
        let message = e.to_string();
        match e {
            RemoteError::TokenRejected { .. } | RemoteError::BadToken { .. } => BackendError::Unauthorized(message),
            // The provider refused or ended the sign-in: the user must sign in again (through a proxy, its
            // own sign-in to its upstream failed, which is no fault of its caller's token).
            RemoteError::GrantRefused { .. } | RemoteError::SignInNeeded { .. } => BackendError::SignInNeeded(message),
            RemoteError::NotOffered { server, extension } => extension.not_offered(&server),
            RemoteError::NotAllowed { .. } => BackendError::Forbidden(message),
            RemoteError::NotFound { message } => BackendError::NotFound(message),
            RemoteError::BadRequest { message } => BackendError::BadRequest(message),
            RemoteError::Conflict { message } => BackendError::Conflict(message),
            RemoteError::Refused { status, .. } => BackendError::Upstream { status, message },
            RemoteError::TimedOut { .. } => BackendError::Timeout(message),
            RemoteError::ServerFailed { .. }
            | RemoteError::Unreachable { .. }
            | RemoteError::ConnectionLost { .. }
            | RemoteError::NotTheApi { .. }
            | RemoteError::TooLarge { .. }
            | RemoteError::SignIn { .. }
            | RemoteError::BadBaseUrl { .. } => BackendError::BadGateway(message),
            RemoteError::Client(_) => BackendError::Internal(message),
        }
    }
}

/// The innermost cause of an error (`Connection refused (os error 111)`), which says more than reqwest's
/// outer `error sending request for url …`.
pub(crate) fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(inner) = cause.source() {
        cause = inner;
    }
    cause.to_string()
}

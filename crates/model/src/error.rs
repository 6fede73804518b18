//! Errors every backend can give, each a distinct case a transport maps once to its own form (an HTTP
//! status, an IPC `{code, message}`), and the one list of error codes those forms share with the UI.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// One key of a create or update body that could not be stored, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
pub struct FieldError {
    /// Dotted path of the key, e.g. `config.layout.navbar.backgroundColor`.
    pub key: String,
    pub message: String,
}

/// What kind of failure an error is, as the UI acts on it without reading messages. The HTTP error body's
/// status, the desktop commands' `{code, message}` and the UI's `BackendError.code` all come from here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request itself is unusable (400).
    BadRequest,
    /// Not signed in, or the token was refused and could not be renewed (401).
    Unauthorized,
    /// Signed in, but not allowed (403).
    Forbidden,
    /// No such configuration, document, plugin or path (404).
    NotFound,
    /// The request conflicts with the current state (409).
    Conflict,
    /// The server does not offer this operation at all (501).
    NotOffered,
    /// A server behind this one failed or answered something that is not the API (502).
    BadGateway,
    /// A server behind this one did not answer in time (504).
    Timeout,
    /// The sign-in with a server's provider has ended (its session ended, or the password was refused) and
    /// must be renewed by the user; through a proxy, the proxy's own sign-in to its upstream (502).
    SignInNeeded,
    /// A server behind this one refused with another 4xx status, passed through as it was.
    Upstream,
    /// The local store failed (500).
    Storage,
    /// The disk holding a file the write needs (the local store's, a configuration file, an export, the settings)
    /// is full: nothing was written (507).
    InsufficientStorage,
    /// The local store is damaged and must be recovered (500).
    StoreDamaged,
    /// A fault of this program (500).
    Internal,
    /// The desktop app's settings could not be read or written.
    Settings,
    /// A long task was cancelled or failed.
    Task,
    /// The server could not be reached at all (only the UI's HTTP transport gives this).
    Network,
}

impl ErrorCode {
    /// Every code, in a stable order (the UI's copy is generated from it).
    pub const ALL: [ErrorCode; 17] = [
        ErrorCode::BadRequest,
        ErrorCode::Unauthorized,
        ErrorCode::Forbidden,
        ErrorCode::NotFound,
        ErrorCode::Conflict,
        ErrorCode::NotOffered,
        ErrorCode::BadGateway,
        ErrorCode::Timeout,
        ErrorCode::SignInNeeded,
        ErrorCode::Upstream,
        ErrorCode::Storage,
        ErrorCode::InsufficientStorage,
        ErrorCode::StoreDamaged,
        ErrorCode::Internal,
        ErrorCode::Settings,
        ErrorCode::Task,
        ErrorCode::Network,
    ];

    /// The code as written on the wire, e.g. `not_offered`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Conflict => "conflict",
            ErrorCode::NotOffered => "not_offered",
            ErrorCode::BadGateway => "bad_gateway",
            ErrorCode::Timeout => "timeout",
            ErrorCode::SignInNeeded => "sign_in_needed",
            ErrorCode::Upstream => "upstream",
            ErrorCode::Storage => "storage",
            ErrorCode::InsufficientStorage => "insufficient_storage",
            ErrorCode::StoreDamaged => "store_damaged",
            ErrorCode::Internal => "internal",
            ErrorCode::Settings => "settings",
            ErrorCode::Task => "task",
            ErrorCode::Network => "network",
        }
    }

    /// The HTTP status this code is answered with; `None` for codes that never cross HTTP as themselves
    /// (`upstream` carries the upstream's own status; `settings`, `task` and `network` stay on one side).
    pub fn status(self) -> Option<u16> {
        match self {
            ErrorCode::BadRequest => Some(400),
            ErrorCode::Unauthorized => Some(401),
            ErrorCode::Forbidden => Some(403),
            ErrorCode::NotFound => Some(404),
            ErrorCode::Conflict => Some(409),
            ErrorCode::NotOffered => Some(501),
            ErrorCode::BadGateway | ErrorCode::SignInNeeded => Some(502),
            ErrorCode::Timeout => Some(504),
            ErrorCode::Storage | ErrorCode::StoreDamaged | ErrorCode::Internal => Some(500),
            ErrorCode::InsufficientStorage => Some(507),
            ErrorCode::Upstream | ErrorCode::Settings | ErrorCode::Task | ErrorCode::Network => None,
        }
    }

    /// Whether this code means the server could not be reached at all (or not in time), as opposed to one that
    /// answered, even to refuse: only then is a connection offline. The UI's copy of this list is generated.
    pub fn is_unreachable(self) -> bool {
        matches!(self, ErrorCode::Network | ErrorCode::BadGateway | ErrorCode::Timeout)
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What went wrong in a backend operation. Messages name the thing that was wrong and are safe to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// The request itself is unusable (bad body, missing parameter).
    #[error("{0}")]
    BadRequest(String),
    /// The caller is not logged in, or its token was rejected.
    #[error("{0}")]
    Unauthorized(String),
    /// The caller may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// A configuration, document or plugin that does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The operation conflicts with the current state (deleting the active configuration).
    #[error("{0}")]
    Conflict(String),
    /// The server does not offer this operation (one of the extensions of the API); the message says
    /// "does not offer" and names the operation.
    #[error("{0}")]
    NotOffered(String),
    /// A server behind this one could not be reached or answered something that is not the API.
    #[error("{0}")]
    BadGateway(String),
    /// The sign-in with a server's provider has ended and must be renewed by the user.
    #[error("{0}")]
    SignInNeeded(String),
    /// A server behind this one refused the request with a 4xx status that has no variant of its own
    /// (405, 413, 415, 429 …); a proxy answers with that same status.
    #[error("{message}")]
    Upstream { status: u16, message: String },
    /// A server behind this one did not answer in time.
    #[error("{0}")]
    Timeout(String),
    /// The local store failed (locked too long, an unexpected SQLite failure).
    #[error("storage failed: {0}")]
    Storage(String),
    /// The disk holding a file the write needs (the local store, a folder workspace's configuration file) is
    /// full; the message ([`disk_full_message`]) names the file and says what to do.
    #[error("{0}")]
    InsufficientStorage(String),
    /// The local store is damaged; the message names it and says what to do.
    #[error("{0}")]
    StoreDamaged(String),
    /// A fault in this program; never caused by input.
    #[error("internal error: {0}")]
    Internal(String),
}

/// What a write says when the disk holding `file` cannot take it: the one wording of a full disk, whichever file
/// it is.
pub fn disk_full_message(file: impl std::fmt::Display) -> String {
    format!("the disk holding {file} is full: free some space and try again")
}

/// Whether `e` says the disk, or the user's share of it, has no room for the write (ENOSPC, EDQUOT): the one test
/// of a full disk.
pub fn is_disk_full(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded)
}

/// A failed read or write of `path` as the user reads it: a full disk as every full disk is worded
/// ([`disk_full_message`]), any other failure as `what` ("cannot write"), the path and the system's reason.
pub fn file_error_message(what: &str, path: impl std::fmt::Display, e: &std::io::Error) -> String {
    if is_disk_full(e) {
        disk_full_message(path)
    } else {
        format!("{what} {path}: {e}")
    }
}

impl BackendError {
    /// The code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            BackendError::BadRequest(_) => ErrorCode::BadRequest,
            BackendError::Unauthorized(_) => ErrorCode::Unauthorized,
            BackendError::Forbidden(_) => ErrorCode::Forbidden,
            BackendError::NotFound(_) => ErrorCode::NotFound,
            BackendError::Conflict(_) => ErrorCode::Conflict,
            BackendError::NotOffered(_) => ErrorCode::NotOffered,
            BackendError::BadGateway(_) => ErrorCode::BadGateway,
            BackendError::SignInNeeded(_) => ErrorCode::SignInNeeded,
            BackendError::Upstream { .. } => ErrorCode::Upstream,
            BackendError::Timeout(_) => ErrorCode::Timeout,
            BackendError::Storage(_) => ErrorCode::Storage,
            BackendError::InsufficientStorage(_) => ErrorCode::InsufficientStorage,
            BackendError::StoreDamaged(_) => ErrorCode::StoreDamaged,
            BackendError::Internal(_) => ErrorCode::Internal,
        }
    }

    /// Whether the server could not be reached at all (or not in time), as opposed to one that answered,
    /// even to refuse: only then is a connection offline.
    pub fn is_unreachable(&self) -> bool {
        self.code().is_unreachable()
    }

    /// The HTTP status a server answers this error with: the code's status, an upstream's own 4xx as it
    /// was, and 502 for an "upstream" status that is not a 4xx.
    pub fn status(&self) -> u16 {
        match self {
            BackendError::Upstream { status, .. } if (400..500).contains(status) => *status,
            other => other.code().status().unwrap_or(502),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Error, ErrorKind};

    use super::{file_error_message, is_disk_full};

    #[test]
    fn a_full_disk_or_a_full_quota_is_said_one_way_and_any_other_failure_as_the_system_says_it() {
        for full in [Error::from(ErrorKind::StorageFull), Error::from(ErrorKind::QuotaExceeded)] {
            assert!(is_disk_full(&full), "{full}");
            assert_eq!(
                file_error_message("cannot write", "/data/news.json", &full),
                "the disk holding /data/news.json is full: free some space and try again"
            );
        }
        let denied = Error::from(ErrorKind::PermissionDenied);
        assert!(!is_disk_full(&denied));
        assert_eq!(
            file_error_message("cannot write", "/data/news.json", &denied),
            format!("cannot write /data/news.json: {denied}")
        );
    }
}

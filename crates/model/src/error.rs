//! Errors every backend can give, each a distinct case a transport maps once to its own form (an HTTP
//! status, an IPC `{code, message}`).

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
    /// A server behind this one could not be reached or answered something that is not the API.
    #[error("{0}")]
    BadGateway(String),
    /// A server behind this one refused the request with a 4xx status that has no variant of its own
    /// (405, 413, 415, 429 …); a proxy answers with that same status.
    #[error("{message}")]
    Upstream { status: u16, message: String },
    /// A server behind this one did not answer in time.
    #[error("{0}")]
    Timeout(String),
    /// The local store failed (disk full, corrupt file, locked too long).
    #[error("storage failed: {0}")]
    Storage(String),
    /// A fault in this program; never caused by input.
    #[error("internal error: {0}")]
    Internal(String),
}

//! The one shape in which failures reach the UI over IPC: `{code, message}`, so the UI can act on `code`
//! without matching message text.

use serde::Serialize;
use studio_model::BackendError;

/// An error as the UI receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct IpcError {
    /// One of `bad_request`, `unauthorized`, `forbidden`, `not_found`, `conflict`, `bad_gateway`,
    /// `timeout`, `upstream`, `storage`, `internal`, `settings`, `task`.
    pub code: &'static str,
    pub message: String,
}

impl IpcError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        IpcError { code, message: message.into() }
    }
}

impl From<BackendError> for IpcError {
    fn from(e: BackendError) -> Self {
        let code = match &e {
            BackendError::BadRequest(_) => "bad_request",
            BackendError::Unauthorized(_) => "unauthorized",
            BackendError::Forbidden(_) => "forbidden",
            BackendError::NotFound(_) => "not_found",
            BackendError::Conflict(_) => "conflict",
            BackendError::BadGateway(_) => "bad_gateway",
            BackendError::Timeout(_) => "timeout",
            BackendError::Storage(_) => "storage",
            BackendError::Internal(_) => "internal",
            BackendError::Upstream { .. } => "upstream",
        };
        IpcError { code, message: e.to_string() }
    }
}

impl From<studio_local::StoreError> for IpcError {
    fn from(e: studio_local::StoreError) -> Self {
        IpcError::new("storage", e.to_string())
    }
}

impl From<studio_sync::SyncError> for IpcError {
    fn from(e: studio_sync::SyncError) -> Self {
        match e {
            studio_sync::SyncError::Backend(b) => b.into(),
            studio_sync::SyncError::BadFile(m) => IpcError::new("bad_request", m),
            studio_sync::SyncError::Cancelled => IpcError::new("task", "cancelled"),
            other => IpcError::new("storage", other.to_string()),
        }
    }
}

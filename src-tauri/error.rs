//! The one shape in which failures reach the UI over IPC: `{code, message}`, so the UI can act on `code`
//! without matching message text, and [`Answer`], what every command answers.
//!
//! This module stands below every other module of the shell and imports none of them: the errors of the core
//! crates are converted here, and each error of the shell's own modules is converted beside its definition.

use serde::Serialize;
use studio_model::{BackendError, ErrorCode};

/// An error as the UI receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct IpcError {
    pub code: ErrorCode,
    pub message: String,
}

/// What a command answers: its value, or the error the UI receives.
pub type Answer<T> = Result<T, IpcError>;

impl IpcError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        IpcError { code, message: message.into() }
    }
}

impl From<BackendError> for IpcError {
    fn from(e: BackendError) -> Self {
        IpcError { code: e.code(), message: e.to_string() }
    }
}

impl From<studio_local::StoreError> for IpcError {
    /// By the store's one mapping into `BackendError`, so that a full disk or a damaged store keeps its own code.
    fn from(e: studio_local::StoreError) -> Self {
        BackendError::from(e).into()
    }
}

impl From<studio_sync::SyncError> for IpcError {
    fn from(e: studio_sync::SyncError) -> Self {
        match e {
            studio_sync::SyncError::Backend(b) => b.into(),
            studio_sync::SyncError::Store(s) => s.into(),
            studio_sync::SyncError::BadFile(m) | studio_sync::SyncError::BadScenario(m) => {
                IpcError::new(ErrorCode::BadRequest, m)
            }
            studio_sync::SyncError::Cancelled => IpcError::new(ErrorCode::Task, "cancelled"),
            other => IpcError::new(ErrorCode::Storage, other.to_string()),
        }
    }
}

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

    /// A file at `path` that could not be read or written: a full disk as every full disk is coded and said
    /// (`insufficient_storage`, [`studio_model::disk_full_message`]), any other failure as `code` with the message
    /// `otherwise` makes.
    pub fn file(
        path: impl std::fmt::Display,
        e: &std::io::Error,
        code: ErrorCode,
        otherwise: impl FnOnce() -> String,
    ) -> Self {
        if studio_model::is_disk_full(e) {
            IpcError::new(ErrorCode::InsufficientStorage, studio_model::disk_full_message(path))
        } else {
            IpcError::new(code, otherwise())
        }
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

impl From<studio_sync::folder::FolderError> for IpcError {
    /// A backend's error keeps its own code; the rest are said in the desktop's words where the library's speak
    /// of the command line's flags.
    fn from(e: studio_sync::folder::FolderError) -> Self {
        use studio_sync::folder::FolderError;
        match e {
            FolderError::Backend(b) => b.into(),
            FolderError::Unresolved { keys } => IpcError::new(
                ErrorCode::Conflict,
                format!(
                    "not applied: choose “keep the folder's” or “take the target's” for each conflict ({})",
                    keys.join(", ")
                ),
            ),
            FolderError::UnknownChoice(key) => {
                IpcError::new(ErrorCode::BadRequest, format!("not applied: {key} is not a conflict of this plan"))
            }
            FolderError::ChangedSincePlan { .. } => IpcError::new(ErrorCode::Conflict, e.to_string()),
            FolderError::Lint(_) | FolderError::BadState { .. } => IpcError::new(ErrorCode::BadRequest, e.to_string()),
            FolderError::Io { ref path, ref source, .. } => {
                IpcError::file(path.display(), source, ErrorCode::Storage, || e.to_string())
            }
            FolderError::CreatedWithoutId { .. } => IpcError::new(ErrorCode::BadGateway, e.to_string()),
        }
    }
}

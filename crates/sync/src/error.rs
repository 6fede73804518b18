//! Failures of offline work, one case per thing the user would do differently.

use studio_model::BackendError;

/// What went wrong in a draft, publish, history, file or pull operation.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// The backend (local store or remote server) refused or failed the operation.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// The local store failed.
    #[error(transparent)]
    Store(#[from] studio_local::StoreError),
    /// A stored draft or version could not be read back.
    #[error("a stored draft or version could not be read: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// A file that is not a configuration file of a format this version reads.
    #[error("{0}")]
    BadFile(String),
    /// A list of preview scenarios that breaks their limits.
    #[error("{0}")]
    BadScenario(String),
    /// The work was asked to stop; what was done stays done.
    #[error("cancelled")]
    Cancelled,
    /// A background task could not finish.
    #[error("a background task failed: {0}")]
    Task(String),
}

impl From<rusqlite::Error> for SyncError {
    fn from(e: rusqlite::Error) -> Self {
        // Sorted as the store sorts its own (a full disk, a damaged file).
        SyncError::Store(e.into())
    }
}

impl From<SyncError> for BackendError {
    fn from(e: SyncError) -> Self {
        match e {
            SyncError::Backend(b) => b,
            SyncError::BadFile(m) | SyncError::BadScenario(m) => BackendError::BadRequest(m),
            SyncError::Store(s) => s.into(),
            other => BackendError::Storage(other.to_string()),
        }
    }
}

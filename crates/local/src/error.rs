//! Failures of the local store, mapped once into `BackendError` for every transport.
//!
//! SQLite's own failures are sorted as they are converted: a full disk and a damaged file become
//! [`StoreError::DiskFull`] and [`StoreError::Damaged`], whose messages say what happened and what to do;
//! where the file is known (`StoreError::at`), they name it.

use std::path::Path;

use studio_engine::EngineError;
use studio_model::{disk_full_message, is_disk_full, BackendError};
use studio_text::TextError;

/// What can go wrong in the local store, its imports and its search engine.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the data directory {path}: {source}")]
    DataDir { path: String, source: std::io::Error },
    #[error("cannot open the store {path}: {source}")]
    Open { path: String, source: r2d2::Error },
    #[error("the store {path} was written by a newer Search Studio (schema {found}, this one knows up to {known})")]
    TooNew { path: String, found: i64, known: i64 },
    #[error("cannot back up the store before migrating it: {0}")]
    Backup(rusqlite::Error),
    /// The disk holding the store cannot take a write. Nothing acknowledged is lost; reads go on.
    #[error("{}", disk_full_message(or_the_store(path)))]
    DiskFull { path: Option<String> },
    /// A store file is not a database, fails SQLite's check, or a page of it cannot be read.
    #[error(
        "{} is damaged ({detail}); run `studio recover` to rebuild it from what can be read and the newest backup",
        path.as_ref().map_or_else(|| "the store".to_owned(), |p| format!("the store {p}"))
    )]
    Damaged { path: Option<String>, detail: String },
    #[error("no database connection became free: {0}")]
    Pool(#[from] r2d2::Error),
    #[error("{0}")]
    Sql(rusqlite::Error),
    #[error("a stored configuration could not be read: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error("configuration ids are used up (the next id would not fit in 32 bits)")]
    IdsExhausted,
    /// Reading an import file failed (not a bad line: the reader itself failed).
    #[error("cannot read the input: {0}")]
    Read(std::io::Error),
    /// Syncing the documents file's log to disk failed: the import's last writes may not survive a power cut.
    #[error(
        "cannot write the documents file's log to disk ({0}); check the disk (its free space, its health), \
         then import or pull again: documents already on disk are kept"
    )]
    SyncLog(std::io::Error),
    /// A search space id that cannot be used (empty).
    #[error("the search space id must not be empty")]
    EmptySearchSpace,
    /// The search engine failed for a reason of its own (SQLite's failures in it are sorted as the store's).
    #[error(transparent)]
    Engine(EngineError),
    /// The store was closed (the app is ending); a new start opens it again.
    #[error("the store {path} is closed: the app is ending; start it again to go on")]
    Closed { path: String },
    /// Closing the store found connections still in use after waiting for them.
    #[error(
        "the store {path} was not closed: {open} connection(s) still in use after {waited:?}; nothing is lost, \
         its logs stay beside it and are read at the next start"
    )]
    StillInUse { path: String, open: usize, waited: std::time::Duration },
    /// A blocking task of the engine could not finish.
    #[error("a background task failed: {0}")]
    Task(String),
}

fn or_the_store(path: &Option<String>) -> String {
    path.clone().unwrap_or_else(|| "the store".to_owned())
}

impl StoreError {
    /// This error with the store's file named, where it is about the store's file and does not name one.
    pub fn at(self, path: &Path) -> StoreError {
        let named = Some(path.display().to_string());
        match self {
            StoreError::DiskFull { path: None } => StoreError::DiskFull { path: named },
            StoreError::Damaged { path: None, detail } => StoreError::Damaged { path: named, detail },
            other => other,
        }
    }

    /// `e` as a full disk when it is one (`studio_model::is_disk_full`: ENOSPC or EDQUOT), else as `other` makes it.
    pub(crate) fn io(e: std::io::Error, other: impl FnOnce(std::io::Error) -> StoreError) -> StoreError {
        if is_disk_full(&e) {
            StoreError::DiskFull { path: None }
        } else {
            other(e)
        }
    }

    /// Whether the store's disk is full (SQLite's SQLITE_FULL, or ENOSPC or EDQUOT on a file the store writes itself).
    pub fn is_disk_full(&self) -> bool {
        matches!(self, StoreError::DiskFull { .. })
    }

    /// Whether the same work, tried again later, may succeed without anything else changing but what the message
    /// asks: the store busy (no free connection, a lock held by another writer, the full-text index open elsewhere)
    /// or its disk full. A damaged file, a newer store or a fault of this program stays.
    pub fn is_passing(&self) -> bool {
        match self {
            StoreError::DiskFull { .. } | StoreError::Pool(_) => true,
            StoreError::Sql(e) => {
                matches!(
                    e.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
                )
            }
            StoreError::Engine(EngineError::Text(TextError::Busy(_))) => true,
            _ => false,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DiskFull) => StoreError::DiskFull { path: None },
            Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) => {
                StoreError::Damaged { path: None, detail: e.to_string() }
            }
            _ => StoreError::Sql(e),
        }
    }
}

impl From<std::io::Error> for StoreError {
    /// An input that could not be read (a full disk is one the store wrote to).
    fn from(e: std::io::Error) -> Self {
        StoreError::io(e, StoreError::Read)
    }
}

impl From<EngineError> for StoreError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Sql(e) => StoreError::from(e),
            EngineError::Json(e) => StoreError::Corrupt(e),
            EngineError::Text(e) => StoreError::from(e),
            other => StoreError::Engine(other),
        }
    }
}

impl From<TextError> for StoreError {
    /// A damaged file of the full-text index, or a full disk under it, named as the store's own files are;
    /// anything else (another writer of the index) as the engine says it.
    fn from(e: TextError) -> Self {
        match e {
            TextError::Damaged { path, why } => {
                StoreError::Damaged { path: Some(path.display().to_string()), detail: why }
            }
            TextError::Version { path, found, expected } => StoreError::Damaged {
                path: Some(path.display().to_string()),
                detail: format!("its format is version {found}, this program reads version {expected}"),
            },
            TextError::Io { path, source, .. } if is_disk_full(&source) => {
                StoreError::DiskFull { path: Some(path.display().to_string()) }
            }
            other => StoreError::Engine(EngineError::Text(other)),
        }
    }
}

impl From<StoreError> for BackendError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Engine(EngineError::BadRequest(message)) => BackendError::BadRequest(message),
            StoreError::Engine(EngineError::NotFound(message)) => BackendError::NotFound(message),
            StoreError::DiskFull { .. } => BackendError::InsufficientStorage(e.to_string()),
            StoreError::Damaged { .. } => BackendError::StoreDamaged(e.to_string()),
            other => BackendError::Storage(other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use studio_engine::EngineError;
    use studio_model::BackendError;
    use studio_text::TextError;

    use super::StoreError;

    /// A busy store and a full disk pass; a damaged file and a newer store do not.
    #[test]
    fn only_a_busy_store_and_a_full_disk_are_passing() {
        let busy = StoreError::from(rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(5), None));
        let text_busy = StoreError::from(TextError::Busy(PathBuf::from("studio-text")));
        assert!(busy.is_passing() && text_busy.is_passing() && StoreError::DiskFull { path: None }.is_passing());
        let constraint = StoreError::from(rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(19), None));
        let damaged = StoreError::Damaged { path: None, detail: "page 3".into() };
        let newer = StoreError::TooNew { path: "studio.db".into(), found: 99, known: 9 };
        assert!(!constraint.is_passing() && !damaged.is_passing() && !newer.is_passing());
    }

    /// A damaged file of the full-text index and a full disk under it reach a user as the store's own do, naming
    /// the file; another writer of the index is said as the index says it.
    #[test]
    fn the_full_text_index_s_failures_are_sorted_as_the_store_s() {
        let file = PathBuf::from("/data/studio-text/segment-0000000000000001.tix");
        let damaged = EngineError::Text(TextError::Damaged { path: file.clone(), why: "a checksum differs".into() });
        let message = match BackendError::from(StoreError::from(damaged)) {
            BackendError::StoreDamaged(message) => message,
            other => panic!("not a damaged store: {other:?}"),
        };
        assert!(message.contains("segment-0000000000000001.tix") && message.contains("a checksum differs"));
        assert!(message.contains("`studio recover`"), "{message}");

        let full = std::io::Error::from(std::io::ErrorKind::StorageFull);
        let full = EngineError::Text(TextError::Io { what: "write", path: file.clone(), source: full });
        let error = StoreError::from(full);
        assert!(error.is_disk_full() && error.to_string().contains("segment-0000000000000001.tix"), "{error}");

        let busy = StoreError::from(EngineError::Text(TextError::Busy(PathBuf::from("/data/studio-text"))));
        assert!(matches!(BackendError::from(busy), BackendError::Storage(m) if m.contains("open elsewhere")));
    }
}

//! Failures of the local store, mapped once into `BackendError` for every transport.

use studio_model::BackendError;

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
    #[error("no database connection became free: {0}")]
    Pool(#[from] r2d2::Error),
    #[error("{0}")]
    Sql(#[from] rusqlite::Error),
    #[error("a stored configuration could not be read: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error("configuration ids are used up (the next id would not fit in 32 bits)")]
    IdsExhausted,
    /// Reading an import file failed (not a bad line: the reader itself failed).
    #[error("cannot read the input: {0}")]
    Read(#[from] std::io::Error),
    /// A search space id that cannot be used (empty).
    #[error("the search space id must not be empty")]
    EmptySearchSpace,
    /// The store holds more documents than the in-memory index can number.
    #[error("search space {0} holds too many documents for the index (more than 4 billion)")]
    TooManyDocuments(String),
    /// A blocking task of the engine could not finish.
    #[error("a background task failed: {0}")]
    Task(String),
}

impl From<StoreError> for BackendError {
    fn from(e: StoreError) -> Self {
        BackendError::Storage(e.to_string())
    }
}

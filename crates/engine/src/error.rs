//! Failures of the search engine. SQLite's own failures are kept as SQLite said them: the store that hands
//! the engine its connections sorts them (a full disk, a damaged file) once, with the file's name, when it maps
//! them for a transport; a request the engine cannot answer says what is wrong with it.

/// What can go wrong in a search, a similar-document or recommendation query, an index build or the full-text
/// index's upkeep.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// SQLite failed (the documents file, the full-text index, an index snapshot).
    #[error("{0}")]
    Sql(#[from] rusqlite::Error),
    /// A document's stored JSON (its facet list) could not be read or written; the store names it as it names its
    /// own unreadable JSON.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// The store holds more documents than the in-memory index can number.
    #[error("search space {0} holds too many documents for the index (more than 4 billion)")]
    TooManyDocuments(String),
    /// The full-text index's lock file (whether an import is building the index) could not be opened or locked.
    #[error("cannot lock the full-text index's file {path} (check its directory's rights and free space): {source}")]
    Lock { path: String, source: std::io::Error },
    /// The thread indexing an import's text stopped for a reason of its own.
    #[error(
        "the full-text index stopped while the import built it ({0}); the documents written are kept, and the \
         index is built again from them when the store is next opened"
    )]
    IndexerStopped(String),
    /// A query that cannot be answered as asked (a missing parameter).
    #[error("{0}")]
    BadRequest(String),
    /// A query naming what does not exist (a document, a plugin).
    #[error("{0}")]
    NotFound(String),
}

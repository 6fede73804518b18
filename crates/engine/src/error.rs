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
    /// The full-text index could not be read or written (a damaged file, a full disk, another writer).
    #[error("{0}")]
    Text(#[from] studio_text::TextError),
    /// The full-text index's directory could not be removed to be built again.
    #[error("cannot remove the full-text index's directory {path} to build it again (check its rights): {source}")]
    TextDirectory { path: String, source: std::io::Error },
    /// A connection without the documents file attached from a file on disk has no full-text index beside it.
    #[error("the connection has no documents file on disk, so no full-text index beside it")]
    NoTextIndex,
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

//! Search Studio's own store: configurations, their history, documents and concepts in one SQLite file
//! under the data directory, and [`LocalBackend`], which answers every operation of the `Backend` trait
//! from it, fully offline.
//!
//! SQLite is the source of truth; nothing here keeps state that a restart could not rebuild from it.

mod backend;
pub mod backup;
pub mod check;
mod configs;
mod connections;
pub mod demo;
mod error;
mod idle;
mod import;
mod inspect;
pub mod recover;
mod store;

pub use backend::{os_caller, LocalBackend};
pub use error::StoreError;
pub use idle::release_memory_when_idle;
pub use import::{
    import_concepts, import_documents, import_fed, Feed, ImportReport, LineError, BATCH as IMPORT_BATCH,
    MAX_REPORTED_ERRORS,
};
pub use store::{Conn, Store, DB_FILE, DOCUMENTS_FILE, TEXT_DIR, TEXT_FILE};
pub use studio_engine::{self as search, search_spaces, threads, EnginePath, PathsTaken, SearchEngine, Tuning};

/// The data directory when neither `--data-dir` nor `SEARCH_STUDIO_DATA_DIR` names one: the OS data
/// directory's `search-studio` (README, the CLI's data directory).
pub fn default_data_dir() -> Option<std::path::PathBuf> {
    dirs::data_dir().map(|d| d.join("search-studio"))
}

//! Search Studio's search engine: search with facets, similar documents and recommendations over the documents
//! file and its full-text index, through an in-memory index per search space ([`SearchEngine`]).
//!
//! The engine is handed connections to SQLite on which the documents file and the full-text index's state file
//! are attached (as `docs` and `text`, tables named without a schema); the full-text index itself is a directory
//! beside the documents file ([`text_index`]). It reads the documents, concepts and generations the store's
//! imports write, keeps the full-text index in step with them and stores its own cache (index snapshots) in the
//! documents file. It knows nothing of configurations, drafts, connections, backups or import files:
//! the store (`studio-local`) opens the files and uses the engine, never the other way round.

mod build;
mod common_terms;
mod counting;
mod doc_rows;
mod engine;
mod error;
mod explain;
mod facet_scan;
mod facets;
mod fetch;
mod field_builder;
mod field_index;
mod field_names;
mod generation;
mod health;
mod hierarchy;
mod index;
mod kept;
mod matches;
mod packed;
mod query;
mod recommend;
mod run;
pub mod schema;
mod score;
mod shape;
mod similar;
mod snapshot;
mod spaces;
mod stamp;
pub mod stored_facets;
mod tally;
mod term_lists;
#[cfg(test)]
mod test_documents;
pub mod text_index;
mod text_indexer;
mod text_matches;
mod text_search;
mod text_similar;
mod text_writer;
pub mod threads;
mod tuning;
mod upkeep;
mod visit;

pub use engine::{SearchEngine, MAX_SIMILAR, RECOMMENDATION_TYPE};
pub use error::EngineError;
pub use field_names::FIELD_URI_PREFIX;
pub use hierarchy::GLOBAL_SCOPE;
pub use index::SpaceIndex;
pub use query::{Clause, TextQuery};

/// How long a connection of the engine or the store waits for another's write before giving up.
pub const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
pub use spaces::search_spaces;
pub use tuning::{EnginePath, PathsTaken, Tuning};

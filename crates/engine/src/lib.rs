//! Search Studio's search engine: search with facets, similar documents and recommendations over the documents
//! file and its full-text index, through an in-memory index per search space ([`SearchEngine`]).
//!
//! The engine is handed connections to SQLite on which the documents file and the full-text index are attached
//! (as `docs` and `text`, tables named without a schema) and registers its FTS5 functions on each
//! ([`register_functions`]); it reads the documents, concepts and generations the store's imports write, keeps the
//! full-text index in step with them ([`text_index`]) and stores its own caches (index snapshots, term counts)
//! in the documents file. It knows nothing of configurations, drafts, connections, backups or import files:
//! the store (`studio-local`) opens the files and uses the engine, never the other way round.

mod build;
mod common_terms;
mod counting;
mod doc_rows;
mod engine;
mod error;
mod explain;
mod facets;
mod fetch;
mod field_index;
mod field_names;
mod fts;
mod fts_functions;
mod generation;
mod health;
mod hierarchy;
mod index;
mod kept;
mod matches;
mod packed;
mod query;
mod reader;
mod recommend;
mod run;
pub mod schema;
mod score;
mod shape;
mod similar;
mod snapshot;
mod spaces;
mod stamp;
mod tally;
mod term_counts;
mod term_lists;
mod term_rows;
#[cfg(test)]
mod test_documents;
pub mod text_index;
mod text_matches;
mod text_similar;
pub mod threads;
mod tuning;
mod upkeep;
mod varint;

pub use engine::{SearchEngine, MAX_SIMILAR, RECOMMENDATION_TYPE};
pub use error::EngineError;
pub use field_names::FIELD_URI_PREFIX;
pub use fts_functions::register_functions;
pub use hierarchy::GLOBAL_SCOPE;
pub use index::SpaceIndex;
pub use query::{Clause, TextQuery};
pub use reader::{documents_reader, BUSY_TIMEOUT};
pub use spaces::search_spaces;
pub use tuning::{EnginePath, PathsTaken, Tuning};

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
mod engine;
mod error;
mod explain;
mod facets;
mod fetch;
mod fts;
mod fts_functions;
mod health;
mod hierarchy;
mod index;
mod kept;
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
mod term_counts;
#[cfg(test)]
mod test_documents;
mod text;
pub mod text_index;
mod text_similar;
pub mod threads;
mod tuning;
mod upkeep;

pub use engine::{SearchEngine, MAX_SIMILAR, RECOMMENDATION_TYPE};
pub use error::EngineError;
pub use fts_functions::register_functions;
pub use hierarchy::GLOBAL_SCOPE;
pub use index::SpaceIndex;
pub use query::{Clause, TextQuery};
pub use reader::{documents_reader, BUSY_TIMEOUT};
pub use run::FIELD_URI_PREFIX;
pub use spaces::search_spaces;
pub use tuning::{EnginePath, PathsTaken, Tuning};

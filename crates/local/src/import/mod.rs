//! Loading documents and concept schemes from JSON Lines (docs/api.md, Import formats) into the store.
//!
//! Imports stream: one line is read, parsed and written at a time, and rows are committed in batches, so
//! memory does not grow with the size of the file. A line that cannot be read is reported with its number
//! and skipped; it never stops the import. Each committed batch bumps the scope's generation so that search
//! indexes, in this process or another, notice the change.

mod checkpoint;
mod concepts;
mod document;
mod documents;
mod lines;
mod report;

pub use concepts::import_concepts;
pub use documents::{import_documents, import_fed, Feed};
pub use report::{ImportReport, LineError, BATCH, MAX_REPORTED_ERRORS};

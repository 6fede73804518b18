//! Loading documents and concept schemes from JSON Lines (docs/api.md, Import formats) into the store.
//!
//! Imports stream: one line is read, parsed and written at a time, and rows are committed in batches, so
//! memory does not grow with the size of the file. A line that cannot be read is reported with its number
//! and skipped; it never stops the import. Each committed batch bumps the scope's generation so that search
//! indexes, in this process or another, notice the change.

mod checkpoint;
mod concepts;
mod documents;
mod lines;

use rusqlite::Connection;
use serde::Serialize;

pub use concepts::import_concepts;
pub use documents::{import_documents, import_fed, Feed};

/// Documents or concepts per write transaction.
pub const BATCH: usize = 5_000;
/// At most this many line errors are kept in a report; the rest are only counted.
pub const MAX_REPORTED_ERRORS: usize = 1_000;

/// A line of an import file that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineError {
    /// 1-based line number in the file.
    pub line: u64,
    pub message: String,
}

/// The outcome of an import.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    /// Documents (or concepts) written.
    pub imported: u64,
    /// Lines skipped, in total (blank lines are not counted).
    pub skipped: u64,
    /// The first [`MAX_REPORTED_ERRORS`] skipped lines with their reasons.
    pub errors: Vec<LineError>,
}

impl ImportReport {
    pub(crate) fn skip(&mut self, line: u64, message: String) {
        self.skipped += 1;
        if self.errors.len() < MAX_REPORTED_ERRORS {
            self.errors.push(LineError { line, message });
        }
    }
}

/// Marks `scope` (a search space id, or '' for global concepts) as changed.
pub(crate) fn bump_generation(conn: &Connection, scope: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO generations (scope, generation) VALUES (?1, 1)
         ON CONFLICT (scope) DO UPDATE SET generation = generation + 1",
    )?
    .execute([scope])?;
    Ok(())
}

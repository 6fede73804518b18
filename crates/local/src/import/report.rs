//! What every import shares: its batch size, the report of what it wrote and skipped, and the generation it
//! bumps per committed batch. A leaf of the import module: the imports use it, it uses none of them.

use rusqlite::Connection;
use serde::Serialize;

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

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
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

//! Work the engine does for the store on threads of its own, once per state of the store, when an index is
//! about to be built or loaded and when the `text` plugin finds the store changed: the full-text index merged
//! into one segment and, in a large store, every term's rows counted ([`term_counts`]), side by side: the count
//! reads the index as it stood when it began (the merge changes how the index is laid out, not what it says),
//! so the two and the index build share the machine's cores rather than wait for each other.
//!
//! FTS5 does not merge its index's segments as documents are written (documents file version 3 sets its
//! `automerge` to 0 and its crisis merges to 64 segments a level: merging during an import was a large part of
//! the import's time), so an import leaves many segments, each of which every full-text query walks; the upkeep
//! merges them into one after the import, off its path. Merged, the `text` plugin's p95 at 1M went from 22–23
//! to 18–19 ms (docs/performance-journal.md, runs O and P). Both are a cache's work: a failure is logged, and searches
//! answer the same meanwhile, only slower.

use std::thread::JoinHandle;

use rusqlite::Connection;

use super::stamp::{Stamp, Totals};
use super::term_counts;
use super::tuning::Tuning;
use crate::error::EngineError;

/// Pages FTS5 writes in one step of the merge, one write transaction of about a tenth of a second here, so
/// that an import waits for a step at most, never for the whole merge (33 s at 1M documents).
const MERGE_STEP_PAGES: i64 = 1000;

/// The thread keeping the store, and what it was last started for.
pub(crate) struct Upkeep {
    jobs: Vec<JoinHandle<()>>,
    /// The store's generations the last upkeep was started at: one try per state of the store, so that a store
    /// that cannot take it (read-only, a full disk) is not walked again at every call.
    tried: Option<i64>,
    /// Rows of full text from which the terms are counted ahead ([`Tuning::term_counts_from`]: below, the
    /// plugin's own counting takes a few milliseconds).
    pub(crate) counted_from: f64,
    /// Rows a term must be in for its count to be kept.
    stored_from: u64,
}

impl Default for Upkeep {
    fn default() -> Self {
        Upkeep::new(&Tuning::DEFAULT)
    }
}

impl Upkeep {
    /// No upkeep started yet, with the thresholds of `tuning`.
    pub(crate) fn new(tuning: &Tuning) -> Upkeep {
        Upkeep {
            jobs: Vec::new(),
            tried: None,
            counted_from: tuning.term_counts_from,
            stored_from: tuning.term_counts_stored_from,
        }
    }

    /// Starts the upkeep of the store `conn` opens, whose stamp is `stamp`, on threads of its own when it was
    /// not kept at its present state, unless an upkeep is under way.
    pub(crate) fn start(&mut self, conn: &Connection, stamp: &Stamp) {
        if self.jobs.iter().any(|j| !j.is_finished()) || self.tried == Some(stamp.generations) {
            return;
        }
        self.tried = Some(stamp.generations);
        let rows = Totals::of_record(&stamp.averages).map_or(0.0, |t| t.rows);
        let count = rows >= self.counted_from;
        let stored_from = self.stored_from;
        let reader = || match crate::reader::documents_reader(conn) {
            Ok(reader) => reader,
            Err(e) => {
                tracing::warn!("could not start the upkeep of the store: {e}");
                None
            }
        };
        self.jobs.clear();
        if let Some(reader) = reader() {
            let merge = std::thread::Builder::new().name(crate::threads::UPKEEP.into()).spawn(move || {
                if let Err(e) = merge_full_text(&reader) {
                    tracing::warn!("could not merge the store's full-text index: {e}");
                }
            });
            self.jobs.extend(merge.ok());
        }
        // Only a large store's terms are counted: a small one opens no connection for it.
        if let Some(mut reader) = count.then(reader).flatten() {
            let counts = std::thread::Builder::new().name(crate::threads::TERM_COUNTS.into()).spawn(move || {
                if let Err(e) = term_counts::count(&mut reader, stored_from) {
                    tracing::warn!("could not count the store's terms: {e}");
                }
            });
            self.jobs.extend(counts.ok());
        }
    }

    /// The threads under way, if any, for the caller to wait for.
    pub(crate) fn take_jobs(&mut self) -> Vec<JoinHandle<()>> {
        std::mem::take(&mut self.jobs)
    }
}

/// Merges the full-text index into one segment, a step at a time (FTS5's `merge` with a negative number of
/// pages: all segments, whatever their level). Returns whether there was anything to merge. `conn` is a
/// connection to the documents file (its tables unqualified).
pub(crate) fn merge_full_text(conn: &Connection) -> Result<bool, EngineError> {
    let mut step = conn.prepare("INSERT INTO documents_fts (documents_fts, rank) VALUES ('merge', ?1)")?;
    let mut merged = false;
    loop {
        let before = conn.total_changes();
        step.execute([-MERGE_STEP_PAGES])?;
        // FTS5 counts a step that merged nothing as fewer than two changes.
        if conn.total_changes() - before < 2 {
            return Ok(merged);
        }
        merged = true;
    }
}

#[cfg(test)]
mod tests;

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

use super::common_terms::Totals;
use super::kept::Stamp;
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
mod tests {
    use rusqlite::Connection;
    use studio_model::{Config, SimilarQuery};

    use super::merge_full_text;
    use crate::kept::Stamp;
    use crate::term_counts::current;
    use crate::test_documents::{TestFiles, NEWS_SPACE};
    use crate::SearchEngine;

    fn segments(conn: &Connection) -> i64 {
        conn.query_row("SELECT count(DISTINCT segid) FROM documents_fts_idx", [], |r| r.get(0)).unwrap()
    }

    /// FTS5's own ranking of a few words over the whole store.
    fn ranking(conn: &Connection, words: &str) -> Vec<(i64, f64)> {
        conn.prepare(
            "SELECT rowid, bm25(documents_fts, 5.0, 2.0, 1.0) FROM documents_fts WHERE documents_fts MATCH ?1
             ORDER BY 2, 1",
        )
        .unwrap()
        .query_map([words], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
    }

    /// An engine merges the store's full-text index once an index is built, and again at the `text` plugin's
    /// next call after an import anywhere changed the store; it counts the terms too when the store is as large
    /// as it counts from, and not otherwise.
    #[test]
    fn the_engine_keeps_the_store_after_a_build_and_after_an_import() {
        let files = TestFiles::news();
        files.import_lines("elsewhere", "{\"id\": \"w\", \"title\": \"a word\"}\n");
        let mut conn = files.conn();
        let reader = crate::reader::documents_reader(&conn).unwrap().expect("a documents file");
        let generations = || Stamp::read(&files.conn()).unwrap().generations;
        assert!(segments(&reader) > 1, "the imports left several segments");
        let small = SearchEngine::new();
        small.index(&mut conn, NEWS_SPACE).unwrap();
        small.settle();
        assert_eq!(segments(&reader), 1, "merged after the index was built");
        assert!(!current(&conn, generations()).unwrap(), "the corpus is below the size counted from");

        files.import_lines("elsewhere", "{\"id\": \"v\", \"title\": \"new words\"}\n");
        let engine = SearchEngine::new();
        engine.upkeep.lock().unwrap().counted_from = 1.0;
        engine.index(&mut conn, NEWS_SPACE).unwrap();
        engine.settle();
        assert!(current(&conn, generations()).unwrap(), "counted after the index was built");
        assert_eq!(segments(&reader), 1, "merged after the index was built");

        files.import_lines("elsewhere", "{\"id\": \"x\", \"title\": \"more words\"}\n");
        assert!(!current(&conn, generations()).unwrap());
        assert!(segments(&reader) > 1);
        let config = Config { search_space: NEWS_SPACE.into(), ..Config::default() };
        let source: String = conn
            .query_row("SELECT id FROM documents WHERE search_space = ?1 LIMIT 1 OFFSET 7", [NEWS_SPACE], |r| r.get(0))
            .unwrap();
        let query = SimilarQuery { uri: source, number: Some(3), similarity: Some("text".into()), explain: false };
        assert_eq!(engine.similar(&mut conn, &config, &query).unwrap().len(), 3);
        engine.settle();
        assert!(current(&conn, generations()).unwrap(), "counted again after the import");
        assert_eq!(segments(&reader), 1, "merged again after the import");
    }

    /// A store written by several imports has several segments; merged, it has one, and every full-text
    /// query matches and scores the same rows; a second merge finds nothing to do.
    #[test]
    fn merging_leaves_one_segment_and_the_same_answers() {
        let files = TestFiles::news();
        for n in 0..3 {
            let line =
                format!("{{\"id\": \"more-{n}\", \"title\": \"energy policy {n}\", \"content\": \"solar wind\"}}\n");
            files.import_lines(&format!("space-{n}"), &line);
        }
        let conn = files.conn();
        let reader = crate::reader::documents_reader(&conn).unwrap().expect("a documents file");
        assert!(segments(&reader) > 1, "{} segments before", segments(&reader));
        let queries = ["energy", "solar OR wind OR policy", "\"energy policy\"", "climat*"];
        let before: Vec<_> = queries.iter().map(|q| ranking(&reader, q)).collect();
        assert!(before.iter().all(|r| !r.is_empty()));

        assert!(merge_full_text(&reader).unwrap());
        assert_eq!(segments(&reader), 1);
        let after: Vec<_> = queries.iter().map(|q| ranking(&reader, q)).collect();
        assert_eq!(before, after);
        assert!(!merge_full_text(&reader).unwrap(), "nothing left to merge");
    }
}

//! Importing documents: one JSON object per line, shaped as the API's Document (docs/api.md, Documents) plus an optional `content`.

use std::collections::VecDeque;
use std::io::{BufRead, Read};
use std::time::{Duration, Instant};

use super::checkpoint::{sync_documents_log, with_checkpoints, Checkpoints, LOG_LIMIT};
use super::document::{write_document, Incoming, Seen};
use super::lines::Lines;
use super::report::{bump_generation, ImportReport, BATCH};
use crate::error::StoreError;
use crate::store::Store;
use studio_engine::text_index::{self, Indexer, Job};

/// A fed import commits when its input pauses, but not more often than this.
const FED_COMMIT_EVERY: Duration = Duration::from_millis(250);

/// Input of an import that arrives while the import runs, as a pull's pages do ([`import_fed`]).
pub trait Feed: BufRead {
    /// Whether more input can be read, waiting `wait` at most for it. When none can, the import commits the
    /// documents it has read before it waits for more.
    fn at_hand(&mut self, wait: Duration) -> bool;

    /// Every line of the input up to the `lines`th is stored, and on disk. An error stops the import (what is
    /// stored stays stored).
    fn stored(&mut self, lines: u64) -> Result<(), StoreError>;
}

impl<F: Feed + ?Sized> Feed for &mut F {
    fn at_hand(&mut self, wait: Duration) -> bool {
        (**self).at_hand(wait)
    }

    fn stored(&mut self, lines: u64) -> Result<(), StoreError> {
        (**self).stored(lines)
    }
}

/// Input that is all there (a file): every batch full, nothing to tell.
struct Whole<R>(R);

impl<R: BufRead> Read for Whole<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: BufRead> BufRead for Whole<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.0.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.0.consume(amount)
    }
}

impl<R: BufRead> Feed for Whole<R> {
    fn at_hand(&mut self, _: Duration) -> bool {
        true
    }

    fn stored(&mut self, _: u64) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Imports JSON Lines documents into `search_space`. Re-importing an id replaces the document. Bad lines
/// are reported in the result and skipped. `on_progress` receives the number of lines read so far, every
/// thousand lines and at the end.
///
/// The full-text index of the documents is built on a thread of its own while the import writes them
/// (`text_index`); their text becomes searchable when the import ends, all of it at once (each batch's documents,
/// facets and counts are searchable as soon as it is committed).
pub fn import_documents(
    store: &Store,
    search_space: &str,
    reader: impl BufRead,
    on_progress: &mut dyn FnMut(u64),
) -> Result<ImportReport, StoreError> {
    import_fed(store, search_space, Whole(reader), on_progress)
}

/// [`import_documents`] from input that arrives while the import runs: a batch ends early when `feed` pauses (at
/// most four times a second), and `feed` is told after each commit what is on disk: at once when the import waits
/// for input (it syncs the documents file's log), else a commit or so later (the log is synced beside the
/// import); and of everything once the import is done.
pub fn import_fed(
    store: &Store,
    search_space: &str,
    feed: impl Feed,
    on_progress: &mut dyn FnMut(u64),
) -> Result<ImportReport, StoreError> {
    if search_space.is_empty() {
        return Err(StoreError::EmptySearchSpace);
    }
    let mut conn = store.conn()?;
    let mut indexer = Indexer::start(store.text_dir(), &conn)?;
    let mut lines = Lines::new(feed);
    let written = with_checkpoints(store, &mut conn, LOG_LIMIT, |conn, checkpoints| {
        import_lines(store, conn, checkpoints, &mut indexer, search_space, &mut lines, on_progress)
    });
    let (report, told) = match written {
        // Only once every batch is in the documents file and on disk does the index take the import's text.
        Ok(written) => {
            indexer.finish(&conn)?;
            written
        }
        // The batches committed stay, and their text goes live; what came after is dropped. Where even that
        // fails (a full disk), the import stays counted among those building the index, and the next open builds
        // it again from the documents.
        Err(e) => {
            match indexer.finish_committed(&conn) {
                Ok(()) => new_text(&mut conn, search_space)?,
                Err(f) => tracing::warn!("the failed import's text is left for the next open to index: {f}"),
            }
            return Err(e);
        }
    };
    if report.imported > 0 {
        new_text(&mut conn, search_space)?;
    }
    let read = lines.number();
    // Told at least once, an empty input too.
    if read > told || read == 0 {
        sync_documents_log(store)?;
        lines.source().stored(read)?;
    }
    Ok(report)
}

/// After the import's text went live: an index of the search space built while the import ran read the text's
/// sizes without the import's documents, so it is built again.
fn new_text(conn: &mut rusqlite::Connection, search_space: &str) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    bump_generation(&tx, search_space)?;
    tx.commit()?;
    Ok(())
}

fn import_lines(
    store: &Store,
    conn: &mut rusqlite::Connection,
    checkpoints: &Checkpoints,
    indexer: &mut Indexer,
    search_space: &str,
    lines: &mut Lines<impl Feed>,
    on_progress: &mut dyn FnMut(u64),
) -> Result<(ImportReport, u64), StoreError> {
    let mut report = ImportReport::default();
    let mut seen = Seen::from_row(text_index::next_row(conn)?);
    // Commits not yet known to be on disk, with the lines read up to each; the lines the feed was told are stored.
    let mut unsynced = VecDeque::new();
    let mut told = 0;
    let mut last_commit = Instant::now();
    let mut done = false;
    while !done {
        // Deferred: the batch takes the documents file for writing at its first statement, once its first
        // document is read (`new_batch`), so that it never holds the file while it waits for its input.
        let tx = conn.transaction()?;
        let mut in_batch = 0;
        let mut waiting = false;
        while in_batch < BATCH {
            // A pause in the input ends the batch: what arrived is stored while the next arrives. A feed that
            // pauses often still gets a commit a quarter of a second at most.
            if in_batch > 0 && !lines.source().at_hand(FED_COMMIT_EVERY.saturating_sub(last_commit.elapsed())) {
                waiting = true;
                break;
            }
            let Some((_, doc)) =
                lines.next_record::<Incoming>(&mut report, on_progress, ("document", "id"), |r| &r.id)?
            else {
                done = true;
                break;
            };
            if in_batch == 0 {
                seen.new_batch(&tx, search_space)?;
            }
            write_document(&tx, search_space, doc, &mut seen, indexer)?;
            report.imported += 1;
            in_batch += 1;
        }
        tx.commit()?;
        indexer.push(Job::Committed)?;
        unsynced.push_back((checkpoints.committed(), lines.number()));
        last_commit = Instant::now();
        let mut on_disk = checkpoints.stored();
        if waiting {
            // The import waits for its input: what it wrote is synced now rather than told a commit late.
            sync_documents_log(store)?;
            on_disk = u64::MAX;
        }
        let mut stored = None;
        while unsynced.front().is_some_and(|&(commit, _)| commit <= on_disk) {
            stored = unsynced.pop_front().map(|(_, read)| read);
        }
        if let Some(read) = stored.filter(|&read| read > told) {
            lines.source().stored(read)?;
            told = read;
        }
    }
    on_progress(lines.number());
    Ok((report, told))
}

#[cfg(test)]
mod tests {
    use crate::{import_documents, Store};

    #[test]
    fn an_import_that_returned_is_in_the_documents_file_and_its_connection_checkpoints_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_dir(dir.path()).unwrap();
        let lines: String = (0..12_000).map(|i| format!("{{\"id\": \"d{i}\", \"title\": \"word {i}\"}}\n")).collect();
        let report = import_documents(&store, "space", lines.as_bytes(), &mut |_| {}).unwrap();
        assert_eq!(report.imported, 12_000);
        // The import's connection and the copying thread's are back in the pool, both checkpointing on their own.
        let idle = [store.conn().unwrap(), store.conn().unwrap()];
        for conn in &idle {
            let own: i64 = conn.query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0)).unwrap();
            assert_eq!(own, 1000);
        }
        // The documents file alone, without its log, holds every document.
        let copy = tempfile::tempdir().unwrap();
        let file = copy.path().join("documents.db");
        std::fs::copy(store.documents_path(), &file).unwrap();
        let alone = rusqlite::Connection::open(&file).unwrap();
        let count: i64 = alone.query_row("SELECT count(*) FROM documents", [], |r| r.get(0)).unwrap();
        assert_eq!(count, 12_000, "the log was copied into the file before the import returned");
    }
}

//! The store's full-text index: a directory of the engine's own (`studio-text`, beside the documents file) holding
//! a [`studio_text`] index built from the documents' rows, and its state in the file `studio-text.db`
//! (`text_state`).
//!
//! The index holds no text: each document is its row number (`documents.num`) with its terms, positions and
//! sizes, which is all the searches read. An import hands its documents' text to an [`Indexer`] as it writes
//! them; a builder on a thread of its own turns them into segment files while the import writes the next ones,
//! and the import makes them live when it ends (with the rows it replaced taken out). An import that fails (its
//! input breaks off, a write is refused) makes live what it committed, and takes out again what it handed over
//! since ([`Indexer::finish_committed`]). The store's upkeep merges
//! the segments afterwards ([`merge`]).
//!
//! `text_state` says how far the index has got, and counts the imports building it: an import cut short (a crash,
//! a power cut, a full disk) leaves the count above 0. A store opened with the count above 0 and no import alive,
//! with documents past the last row indexed, with another number of documents than the index holds, or with an
//! index that cannot be read (a damaged or missing file), builds the index again from the documents before
//! anything reads it ([`settle`]): the index is only ever a copy of what the documents say.
//!
//! One writer at a time changes the directory, whatever the process (the index's lock file); in one process the
//! imports and the upkeep share one ([`Writer`]). Readers take no lock: each search reads the index as its
//! manifest says, reopened only when it was replaced ([`snapshot`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension};
use studio_text::{Reader, Snapshot, TextError};

use crate::error::EngineError;

use crate::text_indexer::Lag;
pub use crate::text_indexer::{Indexer, Job};
use crate::text_writer::{Writer, WRITER_WAIT};

/// The index's directory, beside the documents file.
pub const TEXT_DIR: &str = "studio-text";

/// Threads a merge of the index runs on.
const MERGE_THREADS: usize = 2;

/// The index's directory for the documents file `documents`.
pub fn text_dir(documents: &Path) -> PathBuf {
    documents.with_file_name(TEXT_DIR)
}

/// The first row number an import may give a document: above every row the documents file holds and every row
/// the index was handed, so that no number is used twice.
pub fn next_row(conn: &Connection) -> Result<i64, EngineError> {
    let (indexed_to, _) = state(conn)?;
    Ok(last_row(conn)?.max(indexed_to) + 1)
}

/// How far the index has got: every document row up to `indexed_to` is in it, and nothing else is, unless
/// imports are building it (how many: the second number).
fn state(conn: &Connection) -> Result<(i64, i64), EngineError> {
    Ok(conn.query_row("SELECT indexed_to, building FROM text_state WHERE id = 1", [], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

fn last_row(conn: &Connection) -> Result<i64, EngineError> {
    Ok(conn.query_row("SELECT coalesce(max(num), 0) FROM documents", [], |r| r.get(0))?)
}

// ---------------------------------------------------------------------------------------------------------------
// Reading.

/// Readers of this process, by directory: a few, the most recently used last.
static READERS: Mutex<Vec<Arc<Reader>>> = Mutex::new(Vec::new());
const READERS_KEPT: usize = 8;

/// The directory of the index of the documents file `conn` has attached as `docs`.
pub(crate) fn dir_of(conn: &Connection) -> Result<PathBuf, EngineError> {
    let file: Option<String> = conn
        .prepare_cached("SELECT file FROM pragma_database_list WHERE name IN ('docs', 'main') ORDER BY name = 'main'")?
        .query_row([], |r| r.get(0))
        .optional()?;
    match file.filter(|f| !f.is_empty()) {
        Some(file) => Ok(text_dir(Path::new(&file))),
        None => Err(EngineError::NoTextIndex),
    }
}

/// The full-text index of the store `conn` opens, as it stands.
pub(crate) fn snapshot(conn: &Connection) -> Result<Snapshot, EngineError> {
    Ok(reader(&dir_of(conn)?).snapshot()?)
}

/// This process's reader of the index in `dir`.
fn reader(dir: &Path) -> Arc<Reader> {
    let mut readers = READERS.lock().unwrap_or_else(|e| e.into_inner());
    let reader = match readers.iter().position(|r| r.dir() == dir) {
        Some(at) => readers.remove(at),
        None => Arc::new(Reader::new(dir)),
    };
    readers.push(reader.clone());
    if readers.len() > READERS_KEPT {
        readers.remove(0);
    }
    reader
}

/// Builds the index in `dir` again from the documents unless it is known to hold exactly them, or an import or
/// a merge (here or in another process) is writing it. Returns whether it did.
pub fn settle(dir: &Path, conn: &mut Connection) -> Result<bool, EngineError> {
    let (indexed_to, building) = state(conn)?;
    let (last, documents): (i64, i64) =
        conn.query_row("SELECT coalesce(max(num), 0), count(*) FROM documents", [], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let held = match reader(dir).snapshot() {
        Ok(snapshot) => Some(snapshot.statistics().rows),
        Err(e) if e.needs_rebuild() => None,
        Err(e) => return Err(e.into()),
    };
    // `indexed_to` may lie past the last document: rows handed to the index by a batch that was not committed.
    if building == 0 && indexed_to >= last && held == Some(documents as u64) {
        return Ok(false);
    }
    let writer = match Writer::of(dir, Duration::ZERO, true) {
        Ok(Some(writer)) => writer,
        Ok(None) | Err(EngineError::Text(TextError::Busy(_))) => return Ok(false),
        // Files it cannot read: the directory is the engine's copy, made again from nothing.
        Err(EngineError::Text(e)) if e.needs_rebuild() => {
            tracing::warn!("the full-text index is built again from the documents: {e}");
            remove_index(dir)?;
            match Writer::of(dir, Duration::ZERO, true)? {
                Some(writer) => writer,
                None => return Ok(false),
            }
        }
        Err(e) => return Err(e),
    };
    tracing::info!("building the full-text index from the documents (about ten seconds a million documents)");
    build(&writer, conn)?;
    Ok(true)
}

/// Builds the index in `dir` from every document, waiting for another writer to end. (`studio recover` works on
/// a store no one else has open.)
pub fn rebuild(dir: &Path, conn: &mut Connection) -> Result<(), EngineError> {
    let writer = match Writer::of(dir, WRITER_WAIT, false) {
        Err(EngineError::Text(e)) if e.needs_rebuild() => {
            remove_index(dir)?;
            Writer::of(dir, WRITER_WAIT, false)?
        }
        opened => opened?,
    };
    match writer {
        Some(writer) => build(&writer, conn),
        None => Err(EngineError::IndexerStopped("another writer holds the index".into())),
    }
}

/// Removes the index's directory (an index that cannot be read), to be made again.
fn remove_index(dir: &Path) -> Result<(), EngineError> {
    std::fs::remove_dir_all(dir)
        .or_else(|e| if e.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(e) })
        .map_err(|source| EngineError::TextDirectory { path: dir.display().to_string(), source })
}

/// Empties the index of `writer` and builds it from every document of `conn`'s documents file: one thread reads
/// the documents while a second builds, then the segments are merged into one.
fn build(writer: &Writer, conn: &mut Connection) -> Result<(), EngineError> {
    let mut index = writer.index();
    index.clear()?;
    let tx = conn.transaction()?;
    let mut indexer = Indexer::thread(index.builder(), Lag::of(256))?;
    let mut last = 0;
    {
        let mut stmt = tx.prepare("SELECT num, title, description, body FROM documents ORDER BY num")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            last = row.get(0)?;
            indexer.push(Job::Add { row: last, fields: [row.get(1)?, row.get(2)?, row.get(3)?] })?;
        }
    }
    index.add(indexer.segments()?)?;
    index.merge_on(MERGE_THREADS)?;
    tx.execute("UPDATE text_state SET indexed_to = ?1, building = 0", [last])?;
    tx.commit()?;
    Ok(())
}

/// Merges the index in `dir` into one segment when this process can write it now (no other process does).
/// Returns whether there was anything to merge.
pub(crate) fn merge(dir: &Path) -> Result<bool, EngineError> {
    let writer = match Writer::of(dir, Duration::ZERO, false) {
        Ok(Some(writer)) => writer,
        Ok(None) | Err(EngineError::Text(TextError::Busy(_))) => return Ok(false),
        Err(e) => return Err(e),
    };
    let Some(merge) = writer.index().start_merge() else { return Ok(false) };
    // The index answers and takes imports while the merge runs.
    let merged = merge.run_on(MERGE_THREADS)?;
    let finished = writer.index().finish_merge(merged);
    match finished {
        Ok(()) => Ok(true),
        Err(TextError::MergeOvertaken) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

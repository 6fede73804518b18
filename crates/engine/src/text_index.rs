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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension};
use studio_text::{Builder, NewSegment, Reader, Snapshot, TextError, TextIndex};

use crate::error::EngineError;

/// The index's directory, beside the documents file.
pub const TEXT_DIR: &str = "studio-text";

/// How long an import waits for another process's writer of the index (an import, a merge) to end.
const WRITER_WAIT: Duration = Duration::from_secs(600);

/// Threads a merge of the index runs on.
const MERGE_THREADS: usize = 2;

/// What an import's builder holds in memory before it writes a segment: an import's memory stays within a few
/// tens of MB whatever the size of its file (the upkeep merges the segments afterwards). Building the index again
/// from every document takes the builder's default, fewer and larger segments.
const IMPORT_BUDGET: usize = 32 << 20;

/// Jobs an import hands its builder at a time (one at a time, the builder, faster than the import, emptied the
/// channel after each document and slept until the next). The builder hands each batch back once it has read
/// it, and the import frees the text in it or fills it again: text freed on another thread than the one that
/// allocated it waits for a lock of the allocator's, on which the two threads kept a quarter of both cores idle
/// (docs/performance-journal.md).
const HANDOVER: usize = 128;

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

// ---------------------------------------------------------------------------------------------------------------
// Writing.

/// This process's writer of the index in a directory, shared by its imports and its upkeep while any of them
/// holds it; the directory's lock is let go when the last one lets go of it.
pub(crate) struct Writer {
    index: Mutex<TextIndex>,
}

static WRITERS: Mutex<Vec<(PathBuf, Weak<Writer>)>> = Mutex::new(Vec::new());

impl Writer {
    /// The writer of `dir`: this process's if it has one, else opened, waiting up to `wait` for another process's
    /// to close. `None` when `exclusive` and this process already has one (an import or a merge under way).
    fn of(dir: &Path, wait: Duration, exclusive: bool) -> Result<Option<Arc<Writer>>, EngineError> {
        let start = Instant::now();
        loop {
            {
                let mut writers = WRITERS.lock().unwrap_or_else(|e| e.into_inner());
                writers.retain(|(_, w)| w.strong_count() > 0);
                if let Some(writer) = writers.iter().find(|(d, _)| d == dir).and_then(|(_, w)| w.upgrade()) {
                    return Ok((!exclusive).then_some(writer));
                }
                match TextIndex::open(dir) {
                    Ok(index) => {
                        let writer = Arc::new(Writer { index: Mutex::new(index) });
                        writers.push((dir.to_owned(), Arc::downgrade(&writer)));
                        return Ok(Some(writer));
                    }
                    Err(TextError::Busy(_)) if start.elapsed() < wait => {}
                    Err(e) => return Err(e.into()),
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn index(&self) -> std::sync::MutexGuard<'_, TextIndex> {
        self.index.lock().unwrap_or_else(|e| e.into_inner())
    }
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
    let mut indexer = Indexer::thread(index.builder(), 256)?;
    let mut last = 0;
    {
        let mut stmt = tx.prepare("SELECT num, title, description, body FROM documents ORDER BY num")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            last = row.get(0)?;
            indexer.push(Job::Add { row: last, fields: [row.get(1)?, row.get(2)?, row.get(3)?] })?;
        }
    }
    let built = indexer.built()?;
    index.add(built.segments)?;
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

/// What an import hands the index, in the order it wrote the documents.
#[derive(Debug, Clone)]
pub enum Job {
    /// A document written under `row`, with its title, description and body.
    Add { row: i64, fields: [String; 3] },
    /// A row replaced: out of the index when the import ends.
    Remove { row: i64 },
    /// Everything handed before was committed to the documents file.
    Committed,
}

/// What a builder's thread made of the jobs it was handed.
struct Built {
    segments: Vec<NewSegment>,
    /// The rows replaced by what was committed.
    removed: Vec<u64>,
    /// The rows added, and replaced, since the last commit.
    uncommitted: (Vec<u64>, Vec<u64>),
    /// The largest row handed.
    last: i64,
}

/// The index's side of an import: a builder on a thread of its own, taking the import's documents as it writes
/// them; [`Indexer::finish`] makes what it built live.
pub struct Indexer {
    writer: Option<Arc<Writer>>,
    send: Option<mpsc::SyncSender<Vec<Job>>>,
    /// The batches the builder has read, handed back.
    back: mpsc::Receiver<Vec<Job>>,
    /// The jobs not yet handed over.
    pending: Vec<Job>,
    thread: Option<JoinHandle<Result<Built, EngineError>>>,
    /// Set when the import failed: the builder drops what it holds rather than write it.
    abandon: Arc<AtomicBool>,
}

impl Indexer {
    /// Counts the import among those building the index in `dir` (on `conn`, before the import writes anything)
    /// and starts its builder, which lags at most `queue` documents behind the import (and [`HANDOVER`] more).
    /// Waits for another process writing the index (an import, a merge) to end.
    pub fn start(dir: &Path, conn: &Connection, queue: usize) -> Result<Indexer, EngineError> {
        let writer = Writer::of(dir, WRITER_WAIT, false)?
            .ok_or_else(|| EngineError::IndexerStopped("another writer holds the index".into()))?;
        let builder = writer.index().builder().budget(IMPORT_BUDGET);
        conn.execute("UPDATE text_state SET building = building + 1", [])?;
        let mut indexer = Indexer::thread(builder, queue)?;
        indexer.writer = Some(writer);
        Ok(indexer)
    }

    fn thread(mut builder: Builder, queue: usize) -> Result<Indexer, EngineError> {
        // Bounded: the import waits rather than hold more than `queue` documents' text while the builder lags.
        let (send, receive) = mpsc::sync_channel::<Vec<Job>>(queue.div_ceil(HANDOVER));
        let (hand_back, back) = mpsc::channel::<Vec<Job>>();
        let abandon = Arc::new(AtomicBool::new(false));
        let abandoned = abandon.clone();
        let thread = std::thread::Builder::new()
            .name(crate::threads::IMPORT_TEXT.into())
            .spawn(move || {
                let mut removed = Vec::new();
                let mut uncommitted: (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
                let mut last = 0;
                for jobs in receive {
                    for job in &jobs {
                        match *job {
                            Job::Add { row, fields: [ref title, ref description, ref body] } => {
                                builder.add(row as u64, [title, description, body])?;
                                uncommitted.0.push(row as u64);
                                last = row;
                            }
                            Job::Remove { row } => uncommitted.1.push(row as u64),
                            Job::Committed => {
                                uncommitted.0.clear();
                                removed.append(&mut uncommitted.1);
                            }
                        }
                    }
                    // An import that is gone frees nothing more: the batch is freed here.
                    let _ = hand_back.send(jobs);
                }
                if abandoned.load(Ordering::Relaxed) {
                    return Err(stopped("the import failed"));
                }
                Ok(Built { segments: builder.finish()?, removed, uncommitted, last })
            })
            .map_err(|e| stopped(&format!("no thread: {e}")))?;
        let pending = Vec::with_capacity(HANDOVER);
        Ok(Indexer { writer: None, send: Some(send), back, pending, thread: Some(thread), abandon })
    }

    /// Hands over `job` (with the next ones, [`HANDOVER`] at a time). Fails with the builder's error when it
    /// stopped.
    pub fn push(&mut self, job: Job) -> Result<(), EngineError> {
        self.pending.push(job);
        if self.pending.len() < HANDOVER {
            return Ok(());
        }
        // The batches handed back are freed here, on the thread that allocated their text, but for one to fill.
        let mut next = None;
        for mut read in self.back.try_iter() {
            read.clear();
            next = Some(read);
        }
        let next = next.unwrap_or_else(|| Vec::with_capacity(HANDOVER));
        let jobs = std::mem::replace(&mut self.pending, next);
        if self.send.as_ref().is_none_or(|s| s.send(jobs).is_err()) {
            return Err(match self.built() {
                Err(e) => e,
                Ok(_) => stopped("its thread ended"),
            });
        }
        Ok(())
    }

    /// Waits for the builder to write what it was handed (the jobs pending too, unless the import was abandoned).
    fn built(&mut self) -> Result<Built, EngineError> {
        let pending = std::mem::take(&mut self.pending);
        if let Some(send) = self.send.take().filter(|_| !pending.is_empty() && !self.abandon.load(Ordering::Relaxed)) {
            // A builder that stopped says why below.
            let _ = send.send(pending);
        }
        match self.thread.take().map(JoinHandle::join) {
            None => Err(stopped("it was stopped before")),
            Some(Ok(built)) => built,
            Some(Err(_)) => Err(stopped("its thread stopped unexpectedly")),
        }
    }

    /// The import ended with every batch written and on disk: what the builder made becomes live, the rows the
    /// import replaced are taken out, and the import is no longer counted among those building the index (on
    /// `conn`).
    pub fn finish(self, conn: &Connection) -> Result<(), EngineError> {
        self.make_live(conn, true)
    }

    /// The import stopped after what it last reported [`Job::Committed`]: what it committed becomes live as
    /// [`Indexer::finish`] makes it, and what it handed over since is taken out again (its documents are not in
    /// the documents file, and the rows it replaced still are).
    pub fn finish_committed(self, conn: &Connection) -> Result<(), EngineError> {
        self.make_live(conn, false)
    }

    fn make_live(mut self, conn: &Connection, all: bool) -> Result<(), EngineError> {
        let mut built = self.built()?;
        if all {
            built.removed.append(&mut built.uncommitted.1);
        } else {
            // Numbers handed to the index are never given again (`indexed_to` below), so these rows cannot come
            // back with other text.
            built.removed.append(&mut built.uncommitted.0);
        }
        if let Some(writer) = &self.writer {
            let mut index = writer.index();
            index.add(built.segments)?;
            index.delete(&built.removed)?;
        }
        conn.execute(
            "UPDATE text_state SET indexed_to = max(indexed_to, ?1), building = max(building - 1, 0)",
            [built.last],
        )?;
        Ok(())
    }
}

impl Drop for Indexer {
    /// An import that did not finish: its builder stops without writing, and the import stays counted among
    /// those building the index, so that the next open builds it again from the documents.
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.abandon.store(true, Ordering::Relaxed);
            let _ = self.built();
        }
    }
}

/// The indexer stopped for a reason of its own (not a failure of the store, which it returns as it is).
fn stopped(why: &str) -> EngineError {
    EngineError::IndexerStopped(why.to_owned())
}

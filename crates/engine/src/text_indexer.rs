//! The index's side of an import: a builder on a thread of its own taking the import's documents as it writes
//! them, and what it built made live when the import ends (see [`crate::text_index`]).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

use rusqlite::Connection;
use studio_text::{Builder, NewSegment};

use crate::error::EngineError;
use crate::text_writer::{Writer, WRITER_WAIT};

/// What an import's builder holds in memory before it writes a segment: 32 MB for its first eight segments, so
/// that an import of up to a few hundred MB of documents stays within a few tens of MB, then 128 MB, so that a large
/// one writes a quarter as many segments for the upkeep to merge (at a million documents about 45 instead of 150;
/// docs/performance-journal.md). Building the index again from every document takes the builder's default, fewer
/// and larger segments.
const IMPORT_BUDGET: usize = 32 << 20;
const LARGE_IMPORT_AFTER: usize = 8;
const LARGE_IMPORT_BUDGET: usize = 128 << 20;

/// How far an import may run ahead of its builder, in documents whose text waits in memory meanwhile: 1,000 while
/// the builder holds [`IMPORT_BUDGET`], 4,000 once it holds the larger budget and stops longer to write each segment
/// (at a million documents 1,000 left the import waiting 3 s of its 27, while 4,000 from the start let an import of
/// 100 MB grow by 4 to 7 MB more; docs/performance-journal.md).
const IMPORT_LAG: Lag = Lag { first: 1_000, later: 4_000 };

/// How many documents (jobs) an import may have handed its builder that the builder has not read yet: `first`
/// while the builder writes its first segments, `later` once it holds its later budget.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lag {
    pub(crate) first: usize,
    pub(crate) later: usize,
}

impl Lag {
    /// The same lag throughout.
    pub(crate) fn of(jobs: usize) -> Lag {
        Lag { first: jobs, later: jobs }
    }
}

/// Jobs an import hands its builder at a time (one at a time, the builder, faster than the import, emptied the
/// channel after each document and slept until the next). The builder hands each batch back once it has read
/// it, and the import frees the text in it or fills it again: text freed on another thread than the one that
/// allocated it waits for a lock of the allocator's, on which the two threads kept a quarter of both cores idle
/// (docs/performance-journal.md).
const HANDOVER: usize = 128;

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
    send: Option<mpsc::Sender<Vec<Job>>>,
    /// The batches the builder has read, handed back.
    back: mpsc::Receiver<Vec<Job>>,
    lag: Lag,
    /// Jobs handed to the builder and not handed back yet.
    unread: usize,
    /// Set by the builder once it holds its later budget.
    later: Arc<AtomicBool>,
    /// The jobs not yet handed over.
    pending: Vec<Job>,
    thread: Option<JoinHandle<Result<Built, EngineError>>>,
    /// Set when the import failed: the builder drops what it holds rather than write it.
    abandon: Arc<AtomicBool>,
}

impl Indexer {
    /// Counts the import among those building the index in `dir` (on `conn`, before the import writes anything)
    /// and starts its builder, which lags at most [`IMPORT_LAG`] documents behind the import (and [`HANDOVER`]
    /// more). Waits for another process writing the index (an import, a merge) to end.
    pub fn start(dir: &Path, conn: &Connection) -> Result<Indexer, EngineError> {
        let writer = Writer::of(dir, WRITER_WAIT, false)?
            .ok_or_else(|| EngineError::IndexerStopped("another writer holds the index".into()))?;
        let builder =
            writer.index().builder().budget(IMPORT_BUDGET).budget_after(LARGE_IMPORT_AFTER, LARGE_IMPORT_BUDGET);
        conn.execute("UPDATE text_state SET building = building + 1", [])?;
        let mut indexer = Indexer::thread(builder, IMPORT_LAG)?;
        indexer.writer = Some(writer);
        Ok(indexer)
    }

    pub(crate) fn thread(mut builder: Builder, lag: Lag) -> Result<Indexer, EngineError> {
        // Unbounded: the import waits in `push`, for batches handed back, rather than hold more than the lag's
        // documents' text while the builder lags.
        let (send, receive) = mpsc::channel::<Vec<Job>>();
        let (hand_back, back) = mpsc::channel::<Vec<Job>>();
        let abandon = Arc::new(AtomicBool::new(false));
        let abandoned = abandon.clone();
        let later = Arc::new(AtomicBool::new(false));
        let on_later = later.clone();
        let thread = std::thread::Builder::new()
            .name(crate::threads::IMPORT_TEXT.into())
            .spawn(move || {
                studio_os::as_batch_work();
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
                    if builder.on_later_budget() {
                        on_later.store(true, Ordering::Relaxed);
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
        Ok(Indexer {
            writer: None,
            send: Some(send),
            back,
            lag,
            unread: 0,
            later,
            pending: Vec::with_capacity(HANDOVER),
            thread: Some(thread),
            abandon,
        })
    }

    /// A batch the builder has read, handed back: no longer counted, and its text freed here, on the thread that
    /// allocated it.
    fn read_back(&mut self, mut read: Vec<Job>) -> Vec<Job> {
        self.unread = self.unread.saturating_sub(read.len());
        read.clear();
        read
    }

    /// Hands over `job` (with the next ones, [`HANDOVER`] at a time). Fails with the builder's error when it
    /// stopped.
    pub fn push(&mut self, job: Job) -> Result<(), EngineError> {
        self.pending.push(job);
        if self.pending.len() < HANDOVER {
            return Ok(());
        }
        // The batches handed back are freed, but for one to fill.
        let mut next = None;
        while let Ok(read) = self.back.try_recv() {
            next = Some(self.read_back(read));
        }
        let next = next.unwrap_or_else(|| Vec::with_capacity(HANDOVER));
        let jobs = std::mem::replace(&mut self.pending, next);
        self.unread += jobs.len();
        if self.send.as_ref().is_none_or(|s| s.send(jobs).is_err()) {
            return Err(self.stopped_builder());
        }
        let lag = if self.later.load(Ordering::Relaxed) { self.lag.later } else { self.lag.first };
        while self.unread > lag {
            match self.back.recv() {
                Ok(read) => drop(self.read_back(read)),
                // The builder's thread ended: it says why.
                Err(_) => return Err(self.stopped_builder()),
            }
        }
        Ok(())
    }

    /// Why the builder stopped taking jobs.
    fn stopped_builder(&mut self) -> EngineError {
        match self.built() {
            Err(e) => e,
            Ok(_) => stopped("its thread ended"),
        }
    }

    /// The segments the builder wrote of everything it was handed, for the index built again from the documents.
    pub(crate) fn segments(mut self) -> Result<Vec<NewSegment>, EngineError> {
        Ok(self.built()?.segments)
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

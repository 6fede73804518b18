//! The full-text index, in a file of its own (`studio-text.db`), built from the documents file's rows.
//!
//! The index holds no text: each row is a document's row number (`documents.num`) with its terms, positions and
//! sizes, which is all the searches read. Since it is a file of its own, a second connection can build it while
//! an import writes the documents (SQLite takes one writer per file): the import hands the [`Indexer`] the row
//! numbers of each batch it committed, and of each indexed row it replaced, and the indexer applies them in that
//! order on a thread of its own while the import writes the next batch (docs/performance-journal.md, run R).
//!
//! The file's `text_state` says how far the index has got, and counts the imports building it: an import cut short
//! (a crash, a power cut, a full disk) may leave rows the index holds that the documents no longer do, or rows it
//! has not indexed yet, and leaves the count above 0. A store opened with the count above 0 and no import alive, or
//! with documents past the last row indexed (a store upgraded from the one-file index, a recovered one), builds
//! the index again from the documents before anything reads it ([`settle`]): the index is only ever a copy of
//! what the documents say. Whether an import is alive, in this process or another, is told by a lock on the file
//! `studio-text.db-building`: each import holds it shared while it builds; building the index again takes it
//! exclusively, and is left to a later open while an import holds it.

use std::fs::{File, TryLockError};
use std::ops::DerefMut;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;

use rusqlite::Connection;

use crate::error::EngineError;

/// The first row number an import may give a document: above every row the documents file holds and every row
/// the index was handed, so that no number is used twice (the index takes a row out by its text).
pub fn next_row(conn: &Connection) -> Result<i64, EngineError> {
    let (indexed_to, _) = state(conn)?;
    Ok(last_row(conn)?.max(indexed_to) + 1)
}

/// How far the index has got: every document row up to `indexed_to` is in it, and nothing else is, unless
/// imports are building it (how many: the second number).
fn state(conn: &Connection) -> Result<(i64, i64), EngineError> {
    Ok(conn.query_row("SELECT indexed_to, building FROM text_state WHERE id = 1", [], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// The lock file beside the index's file `text`, opened (the module's comment).
fn lock_file(text: &Path) -> Result<File, EngineError> {
    let mut name = text.as_os_str().to_owned();
    name.push("-building");
    let path = PathBuf::from(name);
    File::options().create(true).truncate(false).write(true).open(&path).map_err(|e| lock_failed(&path, e))
}

fn lock_failed(path: &Path, source: std::io::Error) -> EngineError {
    EngineError::Lock { path: path.display().to_string(), source }
}

fn last_row(conn: &Connection) -> Result<i64, EngineError> {
    Ok(conn.query_row("SELECT coalesce(max(num), 0) FROM documents", [], |r| r.get(0))?)
}

/// Builds the index in the file `text` again from the documents unless it is known to hold exactly them, or an
/// import (here or in another process) is building it. Returns whether it did.
pub fn settle(text: &Path, conn: &mut Connection) -> Result<bool, EngineError> {
    let (indexed_to, building) = state(conn)?;
    if building == 0 && indexed_to == last_row(conn)? {
        return Ok(false);
    }
    let lock = lock_file(text)?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Ok(false),
        Err(TryLockError::Error(e)) => return Err(lock_failed(text, e)),
    }
    tracing::info!("building the full-text index from the documents (a minute for a million documents)");
    rebuild(conn)?;
    Ok(true)
}

/// Builds the index from every document, in one transaction. (No import may be building it meanwhile: at open,
/// [`settle`] holds the lock; `studio recover` works on a store no one else has open.)
pub fn rebuild(conn: &mut Connection) -> Result<(), EngineError> {
    let tx = conn.transaction()?;
    tx.execute_batch(
        "INSERT INTO documents_fts (documents_fts) VALUES ('delete-all');
         INSERT INTO documents_fts (rowid, title, description, body)
             SELECT num, title, description, body FROM documents;
         UPDATE text_state SET indexed_to = (SELECT coalesce(max(num), 0) FROM documents), building = 0;",
    )?;
    tx.commit()?;
    Ok(())
}

/// The indexer stopped for a reason of its own (not a failure of the store, which it returns as it is). The
/// import still counts among the index's builders, so the next open builds the index from the documents.
fn stopped(why: &str) -> EngineError {
    EngineError::IndexerStopped(why.to_owned())
}

/// What an import asks of the index, in the order it happened in the documents file.
#[derive(Debug, Clone)]
pub enum Job {
    /// A row replaced after an earlier batch was committed, with the text it had: out of the index, if it is
    /// there. (FTS5 takes a row out of an index without text by its text: row numbers are never used twice, so
    /// a row the index holds under this number holds this text.)
    Remove { num: i64, title: String, description: String, body: String },
    /// The rows `from..=to`, committed: into the index (those deleted since are gone from the documents).
    Add { from: i64, to: i64 },
}

/// Applies `jobs` in one transaction on `conn`, a connection with the documents file and the index attached.
/// A deferred transaction: it takes the index's file for writing and only reads the documents file, which the
/// import writes meanwhile.
fn apply(conn: &mut Connection, jobs: &[Job]) -> Result<(), EngineError> {
    let tx = conn.transaction()?;
    // A plain write to the index's file first: it takes the file for writing at its start, waiting for another
    // import's indexer as any write does. FTS5's statements read the index before they write it, and a
    // transaction that has read cannot take the file once another writer committed after its read: SQLite
    // then says "database is locked" at once, without waiting.
    let indexed_to = jobs.iter().filter_map(|job| if let Job::Add { to, .. } = job { Some(*to) } else { None }).max();
    tx.prepare_cached("UPDATE text_state SET indexed_to = max(indexed_to, ?1)")?.execute([indexed_to.unwrap_or(0)])?;
    for job in jobs {
        match job {
            // Only a row the index holds (its sizes are kept): FTS5 cannot tell.
            Job::Remove { num, title, description, body } => tx
                .prepare_cached(
                    "INSERT INTO documents_fts (documents_fts, rowid, title, description, body)
                     SELECT 'delete', ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM documents_fts_docsize WHERE id = ?1)",
                )?
                .execute(rusqlite::params![num, title, description, body])?,
            &Job::Add { from, to } => tx
                .prepare_cached(
                    "INSERT INTO documents_fts (rowid, title, description, body)
                     SELECT num, title, description, body FROM documents WHERE num BETWEEN ?1 AND ?2",
                )?
                .execute([from, to])?,
        };
    }
    tx.commit()?;
    Ok(())
}

/// The index's side of an import: a thread with a connection of its own applying the import's jobs in order,
/// or, when either cannot be had, the import's own connection applying them after each commit.
pub struct Indexer {
    how: Applying,
    /// The shared lock saying that an import is building the index, held until the indexer is dropped.
    _building: File,
}

enum Applying {
    Thread { send: Option<mpsc::SyncSender<Job>>, thread: Option<JoinHandle<Result<(), EngineError>>> },
    Inline { jobs: Vec<Job> },
}

impl Indexer {
    /// Counts the import among those building the index in the file `text` (on `conn`, before the import writes
    /// anything; once the index is not being built again at open) and starts the indexer's thread on `own`, a
    /// second connection like `conn` (without one, the import's connection applies the jobs after each commit).
    /// The thread lags at most `queue` jobs behind the import.
    pub fn start<C, E>(text: &Path, conn: &Connection, own: Result<C, E>, queue: usize) -> Result<Indexer, EngineError>
    where
        C: DerefMut<Target = Connection> + Send + 'static,
        E: std::fmt::Display,
    {
        let building = lock_file(text)?;
        building.lock_shared().map_err(|e| lock_failed(text, e))?;
        conn.execute("UPDATE text_state SET building = building + 1", [])?;
        Ok(Indexer { how: Indexer::applying(own, queue), _building: building })
    }

    fn applying<C, E>(own: Result<C, E>, queue: usize) -> Applying
    where
        C: DerefMut<Target = Connection> + Send + 'static,
        E: std::fmt::Display,
    {
        let mut own = match own {
            Ok(own) => own,
            Err(e) => {
                tracing::warn!("the import indexes its text itself (no second connection: {e})");
                return Applying::Inline { jobs: Vec::new() };
            }
        };
        // Bounded: a job that takes a replaced row out carries its text, and an import over itself hands one per
        // document; the import waits rather than hold more than `queue` of them while the thread lags.
        let (send, receive) = mpsc::sync_channel::<Job>(queue);
        let started = std::thread::Builder::new().name(crate::threads::IMPORT_TEXT.into()).spawn(move || {
            while let Ok(first) = receive.recv() {
                // Whatever arrived meanwhile goes into the same transaction.
                let jobs: Vec<Job> = std::iter::once(first).chain(receive.try_iter()).collect();
                apply(&mut own, &jobs)?;
            }
            Ok(())
        });
        match started {
            Ok(thread) => Applying::Thread { send: Some(send), thread: Some(thread) },
            Err(e) => {
                tracing::warn!("the import indexes its text itself (no thread: {e})");
                Applying::Inline { jobs: Vec::new() }
            }
        }
    }

    /// Hands over `job`. Fails with the indexer's error when it stopped.
    pub fn push(&mut self, job: Job) -> Result<(), EngineError> {
        match &mut self.how {
            Applying::Inline { jobs } => jobs.push(job),
            Applying::Thread { send, .. } => {
                if send.as_ref().is_none_or(|s| s.send(job).is_err()) {
                    return Err(self.stop().err().unwrap_or_else(|| stopped("its thread ended")));
                }
            }
        }
        Ok(())
    }

    /// After each commit of the import on `conn`: the inline indexer applies what it was handed.
    pub fn committed(&mut self, conn: &mut Connection) -> Result<(), EngineError> {
        if let Applying::Inline { jobs } = &mut self.how {
            if !jobs.is_empty() {
                apply(conn, jobs)?;
                jobs.clear();
            }
        }
        Ok(())
    }

    /// The import ended with every batch written, indexed and on disk: it is no longer counted among those building
    /// the index (on `conn`, after [`Indexer::stop`]), and lets go of the lock.
    pub fn count_out(self, conn: &Connection) -> Result<(), EngineError> {
        conn.execute("UPDATE text_state SET building = max(building - 1, 0)", [])?;
        Ok(())
    }

    /// Waits for every job handed over to be applied; returns the first failure.
    pub fn stop(&mut self) -> Result<(), EngineError> {
        match &mut self.how {
            Applying::Inline { jobs } if jobs.is_empty() => Ok(()),
            Applying::Inline { .. } => Err(stopped("jobs were left after the last commit")),
            Applying::Thread { send, thread } => {
                send.take();
                match thread.take().map(JoinHandle::join) {
                    None => Ok(()),
                    Some(Ok(done)) => done,
                    Some(Err(_)) => Err(stopped("its thread stopped unexpectedly")),
                }
            }
        }
    }
}

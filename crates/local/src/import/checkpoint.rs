//! The documents file's write-ahead log copied into the file while an import writes, on a thread of its own.
//!
//! SQLite copies a connection's log into the database file (a checkpoint) at the end of a write that leaves the
//! log longer than 1,000 pages, on the writing thread, after syncing the log to disk and before syncing the
//! file: an import waited for every batch's copy and both syncs before it read its next line (about a tenth of
//! a 1M-document import, docs/performance-journal.md). While an import writes, its own connection now checkpoints
//! nothing, and a second connection copies the log after each batch on a thread of its own, while the import
//! writes the next one.
//!
//! SQLite starts the log again from its beginning only when a write begins with the log copied whole; with the
//! copy always a batch behind, that never happens by itself. So once the log is longer than [`LOG_LIMIT`] (which
//! SQLite tells the import's connection at each commit), the import waits for one copy after its batch before
//! writing the next: the log stays about that long, and the import waits for one copy in several instead of
//! every one. It also waits for the copy after its last batch before it returns, as it did, so an import that
//! returned is in the file and on disk. A copy that fails loses nothing (the pages stay in the log, and the next
//! copy takes them), as with SQLite's own checkpoints.
//!
//! After each copy the thread also syncs the log's file (a copy syncs it only when it copies pages, which a reader
//! of an older batch can prevent), so that the commits it was asked to copy after are on disk: an import fed while
//! it runs (a pull) tells its feed what is stored from that ([`Checkpoints::stored`]).

use std::cell::Cell;
use std::ffi::c_int;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::hooks::Wal;
use rusqlite::Connection;

use crate::error::StoreError;
use crate::store::Store;

/// The length of the log, in bytes, after which the import lets the log be copied whole before its next batch.
pub(crate) const LOG_LIMIT: i64 = 256 << 20;

/// The pages SQLite's own checkpoints wait for (its `wal_autocheckpoint` default), for the files other than the
/// documents file that the import's connection writes.
const OWN_CHECKPOINT_PAGES: c_int = 1000;

thread_local! {
    /// Pages in the documents file's log after the last commit on this thread, as SQLite reported it.
    static LOG_PAGES: Cell<c_int> = const { Cell::new(0) };
}

/// SQLite's call after each commit of a connection importing: notes the documents file's log, and checkpoints
/// any other file as SQLite would have.
fn after_commit(wal: &Wal, pages: c_int) -> rusqlite::Result<()> {
    if wal.name().to_bytes() == b"docs" {
        LOG_PAGES.set(pages);
    } else if pages >= OWN_CHECKPOINT_PAGES {
        // As SQLite's own: a checkpoint that cannot finish now is taken at a later commit.
        let _ = wal.checkpoint();
    }
    Ok(())
}

/// Runs `write` on `conn` with the documents file's log copied on a thread of its own (the module's comment),
/// kept about `limit` bytes long ([`LOG_LIMIT`]), then gives `conn` back its own checkpoints. `write` calls
/// [`Checkpoints::committed`] after each commit. When the thread cannot be started, `write` runs with SQLite's
/// own checkpoints, as before.
pub(crate) fn with_checkpoints<T>(
    store: &Store,
    conn: &mut Connection,
    limit: i64,
    write: impl FnOnce(&mut Connection, &Checkpoints) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let own: i64 = conn.query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))?;
    let page_size: i64 = conn.query_row("PRAGMA docs.page_size", [], |r| r.get(0))?;
    let checkpoints = Checkpoints::start(store, limit / page_size);
    if checkpoints.thread.is_some() {
        LOG_PAGES.set(0);
        conn.wal_hook(Some(after_commit));
    }
    let written = write(conn, &checkpoints);
    // The last copy is waited for before the connection checkpoints again on its own (which replaces the hook).
    drop(checkpoints);
    let restored = conn.pragma_update(None, "wal_autocheckpoint", own);
    let written = written?;
    restored?;
    Ok(written)
}

/// The documents file's log.
fn log_of(documents: &Path) -> PathBuf {
    let mut name = documents.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// Syncs the log's file: every commit written to it is on disk once this returns `Ok`.
fn sync_log(log: &Path) -> std::io::Result<()> {
    File::open(log)?.sync_data()
}

/// Syncs the documents file's log (see [`sync_log`]).
pub(crate) fn sync_documents_log(store: &Store) -> Result<(), StoreError> {
    sync_log(&log_of(store.documents_path())).map_err(|e| StoreError::io(e, StoreError::SyncLog))
}

/// The thread copying the log, as the import sees it.
pub(crate) struct Checkpoints {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    /// The log's limit in the documents file's pages.
    limit_pages: i64,
    log: PathBuf,
    /// Without the thread: the commits announced, and the last one known on disk.
    inline: Cell<(u64, u64)>,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// Commits the import announced, the number of the last one copied after, and of the last one known on disk.
    asked: u64,
    copied: u64,
    synced: u64,
    stop: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held leaves counters only; they stay usable.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits for a change, or a tenth of a second at most: every wait is in a loop that checks what it waits
    /// for, and the import's also whether the copying thread is still there (one that ended wakes no one).
    fn wait<'a>(&self, state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        match self.changed.wait_timeout(state, Duration::from_millis(100)) {
            Ok((state, _)) => state,
            Err(poisoned) => poisoned.into_inner().0,
        }
    }
}

impl Checkpoints {
    fn without_thread(log: PathBuf) -> Checkpoints {
        Checkpoints { shared: Arc::default(), thread: None, limit_pages: 0, log, inline: Cell::default() }
    }

    /// The thread, with a connection of its own; none (SQLite's own checkpoints) when either cannot be had.
    fn start(store: &Store, limit_pages: i64) -> Checkpoints {
        let log = log_of(store.documents_path());
        let conn = match store.conn() {
            Ok(conn) => conn,
            Err(e) => {
                tracing::warn!("the import copies its log itself (no second connection: {e})");
                return Checkpoints::without_thread(log);
            }
        };
        let shared = Arc::new(Shared::default());
        let started = std::thread::Builder::new().name(studio_engine::threads::IMPORT_CHECKPOINTS.into()).spawn({
            let (shared, log) = (shared.clone(), log.clone());
            move || copy_when_asked(&conn, &log, &shared)
        });
        match started {
            Ok(thread) => Checkpoints { shared, thread: Some(thread), limit_pages, log, inline: Cell::default() },
            Err(e) => {
                tracing::warn!("the import copies its log itself (no thread: {e})");
                Checkpoints::without_thread(log)
            }
        }
    }

    /// Announces a commit on the calling thread: the log is copied up to it. When the log is past the limit,
    /// waits for that copy, so that the next write starts the log again from its beginning. Returns the commit's
    /// number (from 1), which [`Checkpoints::stored`] counts.
    pub(crate) fn committed(&self) -> u64 {
        let Some(thread) = &self.thread else {
            // SQLite's own checkpoints: the import syncs the log itself.
            let (asked, stored) = self.inline.get();
            let stored = match sync_log(&self.log) {
                Ok(()) => asked + 1,
                Err(e) => {
                    tracing::warn!("could not sync the documents file's log (the next commit tries again): {e}");
                    stored
                }
            };
            self.inline.set((asked + 1, stored));
            return asked + 1;
        };
        let mut state = self.shared.lock();
        state.asked += 1;
        let mine = state.asked;
        self.shared.changed.notify_all();
        if i64::from(LOG_PAGES.get()) > self.limit_pages {
            while state.copied < mine && !thread.is_finished() {
                state = self.shared.wait(state);
            }
        }
        mine
    }

    /// The number of the last commit known to be on disk (0 for none).
    pub(crate) fn stored(&self) -> u64 {
        match self.thread {
            Some(_) => self.shared.lock().synced,
            None => self.inline.get().1,
        }
    }
}

impl Drop for Checkpoints {
    /// Asks for one more copy and waits for it, then ends the thread. The copy asked for at the last commit
    /// may have run while a reader (a search of another connection) held back its end; this one runs after, so
    /// that the file holds the whole import unless a reader still holds it back.
    fn drop(&mut self) {
        let Some(thread) = self.thread.take() else { return };
        {
            let mut state = self.shared.lock();
            state.asked += 1;
            state.stop = true;
        }
        self.shared.changed.notify_all();
        if thread.join().is_err() {
            tracing::error!("the import's checkpoint thread stopped unexpectedly");
        }
    }
}

/// The thread: one passive checkpoint of the documents file whenever commits were announced since the last.
fn copy_when_asked(conn: &Connection, log: &Path, shared: &Shared) {
    loop {
        let asked = {
            let mut state = shared.lock();
            while state.copied == state.asked && !state.stop {
                state = shared.wait(state);
            }
            if state.copied == state.asked {
                return;
            }
            state.asked
        };
        if let Err(e) = conn.execute_batch("PRAGMA docs.wal_checkpoint(PASSIVE)") {
            tracing::warn!("could not copy the documents file's log into it (the next copy tries again): {e}");
        }
        let synced = sync_log(log);
        if let Err(e) = &synced {
            tracing::warn!("could not sync the documents file's log (the next copy tries again): {e}");
        }
        let mut state = shared.lock();
        state.copied = asked;
        if synced.is_ok() {
            state.synced = asked;
        }
        drop(state);
        shared.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::with_checkpoints;
    use crate::Store;

    fn log_bytes(store: &Store) -> u64 {
        let log = format!("{}-wal", store.documents_path().display());
        std::fs::metadata(log).map_or(0, |m| m.len())
    }

    /// Writes `commits` transactions of 1 MB each into the documents file, with the log kept to `limit` bytes,
    /// and returns the length the log's file reached.
    fn write_with_limit(dir: &Path, commits: usize, limit: i64) -> u64 {
        let store = Store::open_dir(dir).unwrap();
        let mut conn = store.conn().unwrap();
        conn.execute_batch("CREATE TABLE docs.scratch (b BLOB)").unwrap();
        with_checkpoints(&store, &mut conn, limit, |conn, checkpoints| {
            for _ in 0..commits {
                let tx = conn.transaction()?;
                tx.execute("INSERT INTO docs.scratch VALUES (zeroblob(1 << 20))", [])?;
                tx.commit()?;
                checkpoints.committed();
            }
            Ok(())
        })
        .unwrap();
        log_bytes(&store)
    }

    #[test]
    fn a_long_write_keeps_the_log_about_as_long_as_its_limit() {
        let (bounded, unbounded) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let kept = write_with_limit(bounded.path(), 40, 4 << 20);
        let grown = write_with_limit(unbounded.path(), 40, i64::MAX);
        assert!(grown > 30 << 20, "a log never copied whole grows with the write: {grown} bytes");
        assert!(kept < 12 << 20, "the log started again once past its limit: {kept} bytes against {grown}");
    }
}

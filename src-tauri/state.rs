//! What the shell holds while it runs: the backend the UI talks to (switchable between the local store and
//! a remote server at run time), the local store itself for imports, and the long tasks under way with their
//! progress reports (the work they do is `work`'s).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use serde::Serialize;
use studio_local::LocalBackend;
use studio_model::Backend;
use studio_sync::{SyncStore, LOCAL_KEY};
use ts_rs::TS;

/// The backend in use and its key for drafts and history: `local`, the remote server's base URL, or `folder:`
/// and a folder's path.
type Current = (Arc<dyn Backend>, String);

/// The current backend. Commands take a clone of the `Arc` and never hold the lock across an await.
pub struct BackendSlot {
    current: RwLock<Current>,
    local: LocalBackend,
    sync: SyncStore,
    data_dir: PathBuf,
}

impl BackendSlot {
    pub fn new(local: LocalBackend, data_dir: PathBuf) -> Self {
        let sync = SyncStore::new(local.store().clone());
        BackendSlot { current: RwLock::new((Arc::new(local.clone()), LOCAL_KEY.to_owned())), local, sync, data_dir }
    }

    fn current(&self) -> Current {
        match self.current.read() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// The backend commands should use now.
    pub fn get(&self) -> Arc<dyn Backend> {
        self.current().0
    }

    /// The backend with its key (`local` or the remote base URL), read together so they always match.
    pub fn get_keyed(&self) -> Current {
        self.current()
    }

    /// Makes `backend`, the remote server at `url`, the one commands use from now on.
    pub fn set_remote(&self, url: &str, backend: Arc<dyn Backend>) {
        self.put((backend, url.to_owned()));
    }

    /// Makes `backend`, whose key for drafts and history is `key` (a folder's), the one commands use from now on.
    pub fn set(&self, key: &str, backend: Arc<dyn Backend>) {
        self.put((backend, key.to_owned()));
    }

    fn put(&self, next: Current) {
        match self.current.write() {
            Ok(mut guard) => *guard = next,
            Err(poisoned) => *poisoned.into_inner() = next,
        }
    }

    /// Switches back to the local store.
    pub fn use_local(&self) {
        self.put((Arc::new(self.local.clone()), LOCAL_KEY.to_owned()));
    }

    /// Drafts, published versions and pull bookmarks (always in the local store).
    pub fn sync(&self) -> &SyncStore {
        &self.sync
    }

    /// The local store, whatever the current backend is (imports always go there).
    pub fn local(&self) -> &LocalBackend {
        &self.local
    }

    pub fn data_dir(&self) -> &PathBuf {
        &self.data_dir
    }

    /// Waits, at most `limit`, for the work the search engine does on a thread of its own (the store's
    /// upkeep, which holds a connection of its own to the documents file) to end; false when it had not.
    pub fn settle(&self, limit: Duration) -> bool {
        let engine = Arc::clone(self.local.engine());
        let (done, settled) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new().name("studio-settle".into()).spawn(move || {
            engine.settle();
            let _ = done.send(());
        });
        spawned.is_ok() && settled.recv_timeout(limit).is_ok()
    }
}

/// The event a progress bar listens to.
pub const PROGRESS_EVENT: &str = "task-progress";

/// One progress report (the `task-progress` event).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "TaskProgress")]
pub struct Progress {
    #[ts(type = "number")]
    pub task_id: u64,
    pub label: String,
    #[ts(type = "number")]
    pub done: u64,
    #[ts(type = "number | null")]
    pub total: Option<u64>,
    pub finished: bool,
    pub error: Option<String>,
    pub cancelled: bool,
    /// What the task did, once it finished without an error (`imported 2400 documents into news; 1 line
    /// skipped (line 7: ...)`); none before, and for a task that tells its outcome otherwise.
    pub message: Option<String>,
}

/// Where progress reports go (the window's event bus, or a test's list).
pub type ProgressSink = Arc<dyn Fn(Progress) + Send + Sync>;

/// Long tasks (imports, demo loads) under way, each with a flag that asks it to stop. Cheap to clone.
#[derive(Clone)]
pub struct Tasks {
    next: Arc<AtomicU64>,
    running: Arc<Mutex<HashMap<u64, Arc<AtomicBool>>>>,
    /// Notified each time a task ends.
    ended: Arc<Condvar>,
    sink: ProgressSink,
}

impl Tasks {
    pub fn new(sink: ProgressSink) -> Self {
        Tasks { next: Arc::default(), running: Arc::default(), ended: Arc::default(), sink }
    }

    fn running(&self) -> MutexGuard<'_, HashMap<u64, Arc<AtomicBool>>> {
        self.running.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sends one progress report.
    pub fn report(&self, progress: Progress) {
        (self.sink)(progress)
    }

    /// Registers a new task and returns its id and cancel flag.
    pub fn start(&self) -> (u64, Arc<AtomicBool>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let flag = Arc::new(AtomicBool::new(false));
        if let Ok(mut running) = self.running.lock() {
            running.insert(id, flag.clone());
        }
        (id, flag)
    }

    /// Asks task `id` to stop; false when no such task is running.
    pub fn cancel(&self, id: u64) -> bool {
        let running = self.running.lock().ok();
        match running.as_ref().and_then(|r| r.get(&id)) {
            Some(flag) => {
                flag.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    pub fn finish(&self, id: u64) {
        self.running().remove(&id);
        self.ended.notify_all();
    }

    /// Asks every task under way to stop, and waits, at most `limit`, until they have ended (an import stops
    /// between two lines, keeping the batches it wrote); the number still running then.
    pub fn stop_all(&self, limit: Duration) -> usize {
        let deadline = Instant::now() + limit;
        let mut running = self.running();
        for flag in running.values() {
            flag.store(true, Ordering::Relaxed);
        }
        while !running.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            running = self.ended.wait_timeout(running, left).unwrap_or_else(|poisoned| poisoned.into_inner()).0;
        }
        running.len()
    }
}

//! What the shell holds while it runs: the backend the UI talks to (switchable between the local store and
//! a remote server at run time), the local store itself for imports, and the long tasks under way.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use studio_local::LocalBackend;
use studio_model::Backend;
use studio_sync::{SyncStore, LOCAL_KEY};

use crate::work::Progress;

/// The backend in use and its key for drafts and history: `local`, or the remote server's base URL.
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
}

/// Where progress reports go (the window's event bus, or a test's list).
pub type ProgressSink = Arc<dyn Fn(Progress) + Send + Sync>;

/// Long tasks (imports, demo loads) under way, each with a flag that asks it to stop. Cheap to clone.
#[derive(Clone)]
pub struct Tasks {
    next: Arc<AtomicU64>,
    running: Arc<Mutex<HashMap<u64, Arc<AtomicBool>>>>,
    sink: ProgressSink,
}

impl Tasks {
    pub fn new(sink: ProgressSink) -> Self {
        Tasks { next: Arc::default(), running: Arc::default(), sink }
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
        if let Ok(mut running) = self.running.lock() {
            running.remove(&id);
        }
    }
}

//! Memory given back while the process sits idle (the desktop app between a designer's actions): once no
//! connection of any store has been in use for a while, each idle connection of every open store drops the pages
//! it caches (each connection has a cache of its own: .cargo/config.toml) and the C allocator returns the freed
//! memory to the system. The next call reads its pages again from the operating system's file cache
//! (microseconds a page). Off unless the process asks for it ([`release_memory_when_idle`]): a server under
//! steady load keeps its caches.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

/// What the watcher needs to know: how many connections are in use, and since when none has been.
struct State {
    /// How long the process must stay idle; `None` until the process asks for the release.
    after: Option<Duration>,
    in_use: usize,
    /// When the last connection was given back, while nothing has been released since.
    idle_since: Option<Instant>,
}

static STATE: Mutex<State> = Mutex::new(State { after: None, in_use: 0, idle_since: None });
static CHANGED: Condvar = Condvar::new();
static WATCHER: OnceLock<()> = OnceLock::new();

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// From now on, once no store connection has been in use for `after`, the memory their caches hold is given
/// back (once per idle spell). Later calls change `after`.
pub fn release_memory_when_idle(after: Duration) {
    state().after = Some(after);
    WATCHER.get_or_init(|| {
        // Without the thread the process only keeps its caches, as before: nothing to report.
        let _ = std::thread::Builder::new().name("idle-memory".into()).spawn(watch);
    });
    CHANGED.notify_all();
}

/// What caches pages and can drop them: a store's pool of connections.
pub(crate) trait Caches: Send + Sync {
    /// Drops the pages its idle connections cache.
    fn drop_cached_pages(&self);
}

/// The caches of the stores open in the process (a closed and dropped store's entry is gone at the next one).
static CACHES: Mutex<Vec<Weak<dyn Caches>>> = Mutex::new(Vec::new());

/// Has `cache` dropped at each release, for as long as it is held elsewhere.
pub(crate) fn register(cache: Weak<dyn Caches>) {
    let mut caches = CACHES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    caches.retain(|c| c.strong_count() > 0);
    caches.push(cache);
}

/// Held with each connection handed out by a store ([`crate::Store::conn`]).
pub(crate) struct InUse(());

impl InUse {
    pub(crate) fn start() -> InUse {
        state().in_use += 1;
        InUse(())
    }
}

impl Drop for InUse {
    fn drop(&mut self) {
        let mut s = state();
        s.in_use = s.in_use.saturating_sub(1);
        if s.in_use == 0 {
            s.idle_since = Some(Instant::now());
            CHANGED.notify_all();
        }
    }
}

fn watch() {
    let mut s = state();
    loop {
        let due = match (s.after, s.idle_since) {
            (Some(after), Some(since)) if s.in_use == 0 => Some(since + after),
            _ => None,
        };
        s = match due {
            None => CHANGED.wait(s).unwrap_or_else(|poisoned| poisoned.into_inner()),
            Some(due) if Instant::now() >= due => {
                s.idle_since = None;
                drop(s);
                release();
                state()
            }
            Some(due) => {
                let wait = due.saturating_duration_since(Instant::now());
                CHANGED.wait_timeout(s, wait).unwrap_or_else(|poisoned| poisoned.into_inner()).0
            }
        };
    }
}

/// Drops the pages every open store's idle connections cache and has the C allocator give the freed memory back;
/// without the second step the pages' memory would stay with the process, only free for its next allocations.
fn release() {
    let caches: Vec<Arc<dyn Caches>> =
        CACHES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).iter().filter_map(Weak::upgrade).collect();
    for cache in caches {
        cache.drop_cached_pages();
    }
    trim_heap();
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim_heap() {
    extern "C" {
        fn malloc_trim(pad: usize) -> std::os::raw::c_int;
    }
    // SAFETY: glibc's `malloc_trim` takes a byte count and no pointer; it only returns free memory at the ends
    // and in the middle of the allocator's own heaps to the system, under the allocator's locks.
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim_heap() {}

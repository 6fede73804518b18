//! Memory given back while the process sits idle (the desktop app between a designer's actions): once no
//! connection of any store has been in use for a while, SQLite drops the pages its connections cache and the C
//! allocator returns the freed memory to the system. The next call reads its pages again from the operating
//! system's file cache (microseconds a page). Off unless the process asks for it
//! ([`release_memory_when_idle`]): a server under steady load keeps its caches.

use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
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

/// Drops SQLite's cached pages (those of every connection in the process that no statement holds) and has the
/// C allocator give the freed memory back; without the second step the pages' memory would stay with the
/// process, only free for its next allocations.
fn release() {
    // SAFETY: `sqlite3_release_memory` takes no pointer and is safe to call from any thread at any time in
    // SQLite's serialized threading mode, the mode rusqlite's bundled SQLite is built in; it frees only pages
    // no statement is using.
    unsafe {
        rusqlite::ffi::sqlite3_release_memory(i32::MAX);
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

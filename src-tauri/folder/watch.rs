//! Following a folder on disk: the system's file notifications (the `notify` crate: inotify on Linux), gathered
//! until the folder has been quiet for [`QUIET`] (a `git pull` writes many files at once; an editor writes one
//! several times), at most [`MOST`] after the first; then the folder is looked at again and what changed is
//! reported. The app's own writes are no change ([`FolderBackend::rescan`]).

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::backend::FolderBackend;
use super::model::{FolderChange, FolderError};

/// How long the folder must be quiet before it is looked at again.
pub const QUIET: Duration = Duration::from_millis(100);
/// How long after the first notification it is looked at again, however busy it still is.
pub const MOST: Duration = Duration::from_millis(500);

/// Where the changes go (the window's event bus, or a test's list).
pub type ChangeSink = Arc<dyn Fn(FolderChange) + Send + Sync>;

/// A folder being followed; dropping it stops following.
pub struct Following {
    _watcher: RecommendedWatcher,
}

/// Whether a notification may mean that the folder's files changed: every one but the reads (the app's own
/// reads of the folder would otherwise make it look again without end).
fn may_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// Follows the folder of `backend`, reporting each change to `sink` from a thread of its own.
pub fn follow(backend: Arc<FolderBackend>, sink: ChangeSink) -> Result<Following, FolderError> {
    let path = backend.dir().to_owned();
    let failed = |source| FolderError::Watch { path: path.clone(), source };
    let (noticed, notices) = mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.as_ref().map_or(true, |e| may_change(&e.kind)) {
            let _ = noticed.send(());
        }
    })
    .map_err(failed)?;
    watcher.watch(&path, RecursiveMode::NonRecursive).map_err(failed)?;
    let looking = std::thread::Builder::new().name("studio-folder".into()).spawn(move || {
        // Ends when the watcher is dropped: its handler, and the sender with it, go.
        while notices.recv().is_ok() {
            let first = Instant::now();
            loop {
                match notices.recv_timeout(QUIET) {
                    Ok(()) if first.elapsed() < MOST => continue,
                    Ok(()) | Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            match backend.rescan() {
                Ok(Some(change)) => sink(change),
                Ok(None) => {}
                Err(e) => tracing::warn!("{e}"),
            }
        }
    });
    looking.map_err(|e| failed(notify::Error::io(e)))?;
    Ok(Following { _watcher: watcher })
}

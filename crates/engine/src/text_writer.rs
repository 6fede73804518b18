//! This process's writer of the full-text index in a directory (see [`crate::text_index`]), shared by its imports
//! and its upkeep.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use studio_text::{TextError, TextIndex};

use crate::error::EngineError;

/// How long an import waits for another process's writer of the index (an import, a merge) to end.
pub(crate) const WRITER_WAIT: Duration = Duration::from_secs(600);

/// This process's writer of the index in a directory, shared by its imports and its upkeep while any of them
/// holds it; the directory's lock is let go when the last one lets go of it.
pub(crate) struct Writer {
    index: Mutex<TextIndex>,
}

static WRITERS: Mutex<Vec<(PathBuf, Weak<Writer>)>> = Mutex::new(Vec::new());

impl Writer {
    /// The writer of `dir`: this process's if it has one, else opened, waiting up to `wait` for another process's
    /// to close. `None` when `exclusive` and this process already has one (an import or a merge under way).
    pub(crate) fn of(dir: &Path, wait: Duration, exclusive: bool) -> Result<Option<Arc<Writer>>, EngineError> {
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

    pub(crate) fn index(&self) -> std::sync::MutexGuard<'_, TextIndex> {
        self.index.lock().unwrap_or_else(|e| e.into_inner())
    }
}

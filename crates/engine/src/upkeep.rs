//! Work the engine does for the store on a thread of its own, once per state of the store, when an index is
//! about to be built or loaded and when the `text` plugin finds the store changed: the full-text index merged
//! into one segment, beside the index build.
//!
//! An import leaves a segment per builder's budget, and rows it replaced deleted but still in their segments;
//! every full-text query reads each segment, and the `text` plugin's row counts are exact from the dictionaries
//! only once no deleted row is left. The upkeep merges them into one after the import, off its path
//! ([`text_index::merge`]). It is a cache's work: a failure is logged, and searches answer the same meanwhile,
//! only slower.

use std::thread::JoinHandle;

use rusqlite::Connection;

use super::stamp::Stamp;
use super::text_index;

/// The thread keeping the store, and what it was last started for.
#[derive(Default)]
pub(crate) struct Upkeep {
    jobs: Vec<JoinHandle<()>>,
    /// The store's generations the last upkeep was started at: one try per state of the store, so that a store
    /// that cannot take it (read-only, a full disk) is not walked again at every call.
    tried: Option<i64>,
}

impl Upkeep {
    /// Starts the upkeep of the store `conn` opens, whose stamp is `stamp`, on a thread of its own when it was
    /// not kept at its present state, unless an upkeep is under way.
    pub(crate) fn start(&mut self, conn: &Connection, stamp: &Stamp) {
        if self.jobs.iter().any(|j| !j.is_finished()) || self.tried == Some(stamp.generations) {
            return;
        }
        self.tried = Some(stamp.generations);
        let dir = match text_index::dir_of(conn) {
            Ok(dir) => dir,
            Err(e) => {
                tracing::warn!("could not start the upkeep of the store: {e}");
                return;
            }
        };
        self.jobs.clear();
        let merge = std::thread::Builder::new().name(crate::threads::UPKEEP.into()).spawn(move || {
            if let Err(e) = text_index::merge(&dir) {
                tracing::warn!("could not merge the store's full-text index: {e}");
            }
        });
        self.jobs.extend(merge.ok());
    }

    /// The threads under way, if any, for the caller to wait for.
    pub(crate) fn take_jobs(&mut self) -> Vec<JoinHandle<()>> {
        std::mem::take(&mut self.jobs)
    }
}

#[cfg(test)]
mod tests;

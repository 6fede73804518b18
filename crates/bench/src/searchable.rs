//! The last phases of every import the benchmark times (of the corpus, and of what a pull copied): the
//! engine's index and its background work done and everything synced, so that a search after them runs at
//! full speed and no work is left running after the clock stops. It sits below both the benchmark's run
//! (`lib.rs`) and the pull's ([`crate::pull`]), which share it.

use studio_local::{SearchEngine, Store};

use crate::clock::Clock;
use crate::error::BenchError;

/// Makes the documents just written to `space` searchable at full speed, as the phases of `clock` after the
/// import: `index`, the engine's index of the space (facet bitmaps, the all-concepts field, the common-term
/// lists; its snapshot saved); `background`, the work the engine starts once an index is built and every fast
/// answer needs (the packed values of a large space, the full-text index merged into one segment, a large
/// store's terms counted); `sync`, the documents and text files' logs copied into them and synced, so that all of
/// it is on disk.
pub fn make_searchable(clock: &mut Clock, store: &Store, engine: &SearchEngine, space: &str) -> Result<(), BenchError> {
    let mut conn = store.conn()?;
    clock.phase("index", || Ok(engine.index(&mut conn, space)?))?;
    clock.phase("background", || {
        engine.settle();
        Ok(())
    })?;
    clock.phase("sync", || Ok(conn.execute_batch(SYNC_FILES)?))
}

/// Copies the documents and text files' logs into them and syncs both (a checkpoint syncs the log before it
/// copies and the file after).
const SYNC_FILES: &str = "PRAGMA docs.wal_checkpoint(FULL); PRAGMA text.wal_checkpoint(FULL);";

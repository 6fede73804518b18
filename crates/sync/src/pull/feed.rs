//! A pull's pages as the input of one import: the import reads their document lines as the pages arrive, and hears
//! when to stop; after each of its writes on disk it says where the pull stands.

use std::io::{BufRead, Cursor, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use studio_local::{import_concepts, import_fed, Feed, ImportReport, Store, StoreError};
use tokio::runtime::Handle;
use tokio::sync::mpsc::{self, error::TryRecvError};

use crate::error::SyncError;

/// Where a pull stands: saved after each write, so that the next call resumes there.
#[derive(Clone)]
pub(super) struct Position {
    pub(super) local_id: i32,
    pub(super) space: String,
    pub(super) next: i64,
    pub(super) total: i64,
    pub(super) finished: bool,
}

/// Runs store work on a blocking thread of the runtime.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, SyncError> {
    Ok(tokio::task::spawn_blocking(work).await.map_err(|e| SyncError::Task(e.to_string()))??)
}

/// One page fetched, as the import reads it.
pub(super) struct Page {
    /// Concept lines of the answer's facets (the first page only).
    pub(super) concepts: Vec<u8>,
    /// A JSON line per document.
    pub(super) lines: Vec<u8>,
    pub(super) documents: i64,
    pub(super) total: i64,
}

/// Writes the pages `feed` receives (the first one's concepts first) in one import, and returns where the pull
/// stands and what the import skipped; `None` when no page came.
pub(super) async fn write(mut feed: PageFeed) -> Result<Option<(Position, ImportReport)>, SyncError> {
    let Some(mut first) = feed.queue.recv().await else { return Ok(None) };
    let concepts = std::mem::take(&mut first.concepts);
    if !concepts.is_empty() {
        let store = feed.store.clone();
        blocking(move || import_concepts(&store, Cursor::new(concepts), &mut |_| {})).await?;
    }
    feed.hand(first);
    blocking(move || {
        let (store, space) = (feed.store.clone(), feed.at.space.clone());
        let imported = import_fed(&store, &space, &mut feed, &mut |_| {})?;
        Ok(Some((feed.at, imported)))
    })
    .await
}

/// The pages of a pull as the input of one import: a JSON line per document, read as the pages arrive.
pub(super) struct PageFeed {
    queue: mpsc::Receiver<Page>,
    /// The lines of the page being read, and how much of them is read.
    lines: Vec<u8>,
    read: usize,
    /// Documents in the pages taken, and whether the last one was.
    handed: i64,
    last: bool,
    stop: Arc<AtomicBool>,
    store: Store,
    /// The offset this run started from, and where the pull stands.
    start: i64,
    at: Position,
    /// Where the pull stands after each write on disk, to save as the bookmark and show.
    told: mpsc::UnboundedSender<Position>,
}

impl PageFeed {
    /// The feed of the pages `queue` receives for a run from offset `start`, standing `at` there; `stop` ends it
    /// early, and `told` hears where the pull stands after each write on disk.
    pub(super) fn new(
        queue: mpsc::Receiver<Page>,
        stop: Arc<AtomicBool>,
        store: Store,
        start: i64,
        at: Position,
        told: mpsc::UnboundedSender<Position>,
    ) -> PageFeed {
        PageFeed { queue, lines: Vec::new(), read: 0, handed: 0, last: false, stop, store, start, at, told }
    }

    fn hand(&mut self, page: Page) {
        self.lines = page.lines;
        self.read = 0;
        self.handed += page.documents;
        self.at.total = page.total;
        self.last = page.documents == 0 || self.start + self.handed >= self.at.total;
    }

    /// Whether the pages are all read: the last one, or the pull stopping.
    fn over(&self) -> bool {
        self.last || self.stop.load(Ordering::Relaxed)
    }
}

impl Read for PageFeed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for PageFeed {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.read == self.lines.len() && !self.over() {
            let Some(page) = self.queue.blocking_recv() else { break };
            self.hand(page);
        }
        Ok(&self.lines[self.read..])
    }

    fn consume(&mut self, amount: usize) {
        self.read = (self.read + amount).min(self.lines.len());
    }
}

impl Feed for PageFeed {
    fn at_hand(&mut self, wait: Duration) -> bool {
        if self.read < self.lines.len() {
            return true;
        }
        if self.over() {
            return false;
        }
        let next = match self.queue.try_recv() {
            Ok(page) => Some(page),
            Err(TryRecvError::Disconnected) => None,
            Err(TryRecvError::Empty) if wait.is_zero() => None,
            // An import runs on a blocking thread of the runtime, where its handle can wait.
            Err(TryRecvError::Empty) => {
                Handle::current().block_on(tokio::time::timeout(wait, self.queue.recv())).ok().flatten()
            }
        };
        next.map(|page| self.hand(page)).is_some()
    }

    /// Where the pull stands after `lines` documents of this run (a line per document), handed on to be saved as
    /// the bookmark and shown.
    fn stored(&mut self, lines: u64) -> Result<(), StoreError> {
        let documents = lines as i64;
        self.at.next = self.start + documents;
        self.at.finished = self.last && documents == self.handed;
        // Saved and shown while the pull runs; once it returned, no one listens.
        let _ = self.told.send(self.at.clone());
        Ok(())
    }
}

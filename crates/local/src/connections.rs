//! The store's pooled connections, which can be closed for good while clones of the store are still held.
//!
//! SQLite removes a file's `-wal` and `-shm` only when the last connection to it closes, and a pool closes
//! its connections only when its last clone is dropped. At a clean exit the desktop app still holds clones of
//! its store in many places (its backends, the drafts store, background work) until the process ends, so the
//! store is closed through its pool instead: once closed, no connection is opened, the idle ones are closed at
//! once and each one in use is closed as it is given back.
//!
//! Closing must never take a connection from under its user: it waits for each one to be given back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use r2d2::{CustomizeConnection, HandleError, ManageConnection, Pool};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;

/// Why the pool could not open a connection.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("the store is closed")]
    Closed,
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
}

/// Whether the store is closed, and how many of its pooled connections are open; shared by every clone of the
/// store and by its pool.
#[derive(Debug, Default)]
struct State {
    closed: AtomicBool,
    open: Mutex<usize>,
    changed: Condvar,
}

/// The closing side of one store's pool. Cheap to clone.
#[derive(Clone, Debug, Default)]
pub(crate) struct Closing(Arc<State>);

impl Closing {
    /// A pool builder whose connections are counted, and whose failures to connect are logged until the store
    /// is closed (then the pool's attempts to keep a connection ready are refused, as they should be).
    ///
    /// A connection is not tested as it is handed out: a connection to local files does not go stale between
    /// uses, and the pool's default test (SQLite's manager runs `SELECT 1`, its statement prepared anew each time)
    /// cost every store call a statement's preparation and found nothing.
    pub(crate) fn builder(&self) -> r2d2::Builder<Connections> {
        Pool::builder()
            .test_on_check_out(false)
            .error_handler(Box::new(Refusals))
            .connection_customizer(Box::new(Counted(self.clone())))
    }

    /// The manager of the pool: SQLite's, refusing to open once the store is closed.
    pub(crate) fn manager(&self, files: SqliteConnectionManager) -> Connections {
        Connections { files, closing: self.clone() }
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.0.closed.load(Ordering::Acquire)
    }

    /// Closes the pool for good: no connection is opened from now on, and each one is closed when given back.
    pub(crate) fn close(&self) {
        self.0.closed.store(true, Ordering::Release);
    }

    fn open(&self) -> MutexGuard<'_, usize> {
        self.0.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// One connection fewer is open.
    fn closed_one(&self) {
        let mut open = self.open();
        *open = open.saturating_sub(1);
        self.0.changed.notify_all();
    }

    /// Closes the idle connections of `pool` (closed) and waits, at most `limit`, until the ones in use have been
    /// given back and closed too; the connections still open then (0 when all are closed).
    pub(crate) fn wait_closed(&self, pool: &Pool<Connections>, limit: Duration) -> usize {
        let deadline = Instant::now() + limit;
        loop {
            // An idle connection taken here is closed as it is given back. One the pool was opening as the
            // store closed may turn up idle later: hence the short waits below, to look again.
            while let Some(idle) = pool.try_get() {
                drop(idle);
            }
            let open = self.open();
            let left = deadline.saturating_duration_since(Instant::now());
            if *open == 0 || left.is_zero() {
                return *open;
            }
            let (open, _) = self
                .0
                .changed
                .wait_timeout(open, left.min(Duration::from_millis(50)))
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if *open == 0 {
                return 0;
            }
        }
    }
}

impl crate::idle::Caches for Pool<Connections> {
    fn drop_cached_pages(&self) {
        // Every idle connection taken at once, so that none is taken twice; one the pool opens meanwhile for a
        // caller has nothing cached yet.
        let idle: Vec<_> = std::iter::from_fn(|| self.try_get()).take(self.max_size() as usize).collect();
        for conn in &idle {
            // The pages of the files it has attached too. A connection that cannot drop them only keeps them.
            if let Err(e) = conn.execute_batch("PRAGMA shrink_memory") {
                tracing::debug!("an idle connection kept its cached pages: {e}");
            }
        }
    }
}

/// SQLite's connection manager, which opens nothing once the store is closed and closes every connection
/// given back then.
pub struct Connections {
    files: SqliteConnectionManager,
    closing: Closing,
}

impl ManageConnection for Connections {
    type Connection = Connection;
    type Error = ConnectError;

    fn connect(&self) -> Result<Connection, ConnectError> {
        if self.closing.is_closed() {
            return Err(ConnectError::Closed);
        }
        Ok(self.files.connect()?)
    }

    fn is_valid(&self, conn: &mut Connection) -> Result<(), ConnectError> {
        Ok(self.files.is_valid(conn)?)
    }

    fn has_broken(&self, conn: &mut Connection) -> bool {
        self.closing.is_closed() || self.files.has_broken(conn)
    }
}

/// Counts the open connections: one more when the pool has opened one, one less once it has closed it.
#[derive(Debug)]
struct Counted(Closing);

impl CustomizeConnection<Connection, ConnectError> for Counted {
    fn on_acquire(&self, _conn: &mut Connection) -> Result<(), ConnectError> {
        *self.0.open() += 1;
        Ok(())
    }

    fn on_release(&self, conn: Connection) {
        // Closed here, before it is counted out: the last one to close removes the logs.
        drop(conn);
        self.0.closed_one();
    }
}

/// Logs the pool's failures to open a connection, except its refusals once the store is closed.
#[derive(Debug)]
struct Refusals;

impl HandleError<ConnectError> for Refusals {
    fn handle_error(&self, error: ConnectError) {
        if !matches!(error, ConnectError::Closed) {
            tracing::error!("cannot open a connection to the store: {error}");
        }
    }
}

//! Opening the store: three SQLite files, checked before use, with pragmas for every connection, embedded
//! numbered migrations, and a copy taken before any migration touches an existing store.
//!
//! `studio.db` holds what a designer made (configurations, drafts, published versions, history): every
//! commit to it is synced before it returns (`synchronous = FULL` in WAL mode), it is checked at every open
//! and it is what backups copy. `studio-documents.db` holds what an import can rebuild (documents, their
//! full text, concepts, index snapshots), attached as schema `docs` on every connection, synced per import
//! batch (`synchronous = NORMAL`). Their full-text index is the engine's own, in the directory `studio-text`
//! beside them, built from the documents file (`text_index`); `studio-text.db`, attached as schema `text`, holds
//! only how far the index has got (`text_state`). Queries name tables without a schema; SQLite finds each in its
//! file.
//!
//! The migration runner is a few lines on purpose: numbered SQL files applied in one transaction, the
//! schema version in `user_version`, a copy of the file before an existing store is migrated. A migration
//! crate would add its own bookkeeping table to the file a designer's work lives in, and nothing we need.

use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};
use std::time::Duration;

use r2d2::{Pool, PooledConnection};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, OpenFlags};

use crate::connections::{Closing, Connections};
use crate::error::StoreError;
use crate::idle::{self, InUse};

/// The precious file's name inside the data directory.
pub const DB_FILE: &str = "studio.db";

/// The documents file's name inside the data directory.
pub const DOCUMENTS_FILE: &str = "studio-documents.db";

/// The full-text index's state file's name inside the data directory.
pub const TEXT_FILE: &str = "studio-text.db";

/// The full-text index's directory's name inside the data directory.
pub const TEXT_DIR: &str = studio_engine::text_index::TEXT_DIR;

/// Migrations of the precious file in order; migration N brings its schema to `user_version` N. (Up to 5
/// the documents lived in this file too; 6 moves them out.)
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_configurations.sql"),
    include_str!("../migrations/0002_documents.sql"),
    include_str!("../migrations/0003_index_snapshots.sql"),
    include_str!("../migrations/0004_fts_second_pass.sql"),
    include_str!("../migrations/0005_drafts_and_pulls.sql"),
    include_str!("../migrations/0006_documents_apart.sql"),
    include_str!("../migrations/0007_scenarios.sql"),
];

/// The migration that moves the documents out; the file is compacted after it.
const DOCUMENTS_MOVED: usize = 6;

/// The documents file's schema and the full-text index's state file's, which the engine owns (it reads and keeps
/// both).
const DOCUMENTS_SCHEMA: &str = studio_engine::schema::DOCUMENTS;
const DOCUMENTS_UPGRADES: &[&str] = studio_engine::schema::DOCUMENTS_UPGRADES;
const TEXT_SCHEMA: &str = studio_engine::schema::TEXT;
const TEXT_UPGRADES: &[&str] = studio_engine::schema::TEXT_UPGRADES;

/// How long a connection waits for another's write before giving up: the engine's own connections wait as long.
const BUSY_TIMEOUT: Duration = studio_engine::BUSY_TIMEOUT;

/// How long closing the store waits for the connections in use to be given back.
const CLOSE_WAIT: Duration = Duration::from_secs(10);

/// A pool of connections to one store. Cheap to clone; closing one clone closes the store for all.
#[derive(Clone)]
pub struct Store {
    /// Held here only: the pages its connections cache are dropped while the process is idle (crate::idle) for as
    /// long as a clone of the store is.
    pool: Arc<Pool<Connections>>,
    closing: Closing,
    path: PathBuf,
    documents: PathBuf,
    text_dir: PathBuf,
}

/// A connection of the pool, given back when dropped; counted as in use until then (crate::idle).
pub struct Conn {
    // Dropped in this order: the connection goes back to the pool before the store counts as idle.
    conn: PooledConnection<Connections>,
    _in_use: InUse,
}

impl Deref for Conn {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        &self.conn
    }
}

impl DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }
}

impl Store {
    /// Opens (creating if needed) the store in `data_dir` and brings its schema up to date.
    pub fn open_dir(data_dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|source| StoreError::DataDir { path: data_dir.display().to_string(), source })?;
        Store::open(&data_dir.join(DB_FILE))
    }

    /// Opens (creating if needed) the store whose precious file is `path` (the documents file lies beside
    /// it) and brings its schema up to date. A file that is not a database, or a precious file that fails
    /// SQLite's quick check, is refused at once with [`StoreError::Damaged`] naming it; nothing is written
    /// to a damaged file.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let documents = path.with_file_name(DOCUMENTS_FILE);
        let text = path.with_file_name(TEXT_FILE);
        let text_dir = studio_engine::text_index::text_dir(&documents);
        prepare_precious(path).map_err(|e| e.at(path))?;
        prepare_rebuildable(&documents, &DOCUMENTS).map_err(|e| e.at(&documents))?;
        prepare_rebuildable(&text, &TEXT).map_err(|e| e.at(&text))?;
        let (attach_documents, attach_text) = (documents.clone(), text);
        let manager = SqliteConnectionManager::file(path).with_init(move |c| {
            c.busy_timeout(BUSY_TIMEOUT)?;
            c.execute("ATTACH DATABASE ?1 AS docs", [attach_documents.to_string_lossy()])?;
            c.execute("ATTACH DATABASE ?1 AS text", [attach_text.to_string_lossy()])?;
            // The journal mode (WAL) is the files' own, set once when they were prepared.
            c.execute_batch(
                "PRAGMA main.synchronous = FULL; PRAGMA docs.synchronous = NORMAL; PRAGMA text.synchronous = NORMAL;
                 PRAGMA foreign_keys = ON;",
            )
        });
        let closing = Closing::default();
        let pool = closing
            .builder()
            .max_size(8)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(30))
            .build(closing.manager(manager))
            .map_err(|source| StoreError::Open { path: path.display().to_string(), source })?;
        let pool = Arc::new(pool);
        idle::register(Arc::downgrade(&pool) as Weak<dyn idle::Caches>);
        let store = Store { pool, closing, path: path.to_owned(), documents, text_dir };
        store.migrate().map_err(|e| e.at(path))?;
        // A store whose index cannot be built now (a damaged documents file, a full disk) still opens: its
        // configurations are reachable, searches say what is wrong, and the next open tries again.
        if let Err(e) = studio_engine::text_index::settle(&store.text_dir, &mut *store.conn()?) {
            tracing::warn!(
                "the full-text index could not be built from the documents (the next open tries again): {e}"
            );
        }
        Ok(store)
    }

    /// The precious file (configurations, drafts, versions, history).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The documents file (documents, full text, concepts, index snapshots).
    pub fn documents_path(&self) -> &Path {
        &self.documents
    }

    /// The full-text index's directory.
    pub fn text_dir(&self) -> &Path {
        &self.text_dir
    }

    /// A connection from the pool, for one unit of work; [`StoreError::Closed`] once the store is closed.
    pub fn conn(&self) -> Result<Conn, StoreError> {
        if self.closing.is_closed() {
            return Err(StoreError::Closed { path: self.path.display().to_string() });
        }
        Ok(Conn { conn: self.pool.get()?, _in_use: InUse::start() })
    }

    /// Closes the store at a clean exit, for every clone of it: the logs are written into their files and
    /// emptied, no connection is handed out any more, and every pooled connection is closed (the ones in use
    /// when they are given back, waited for up to 10 s), so that nothing but the three files (and the full-text
    /// index's directory, whose files are complete and on disk as each is written) remains, whoever still holds a
    /// clone. Closing a closed store does nothing.
    /// When it fails (a full disk cannot take the log's pages, a connection still in use) nothing is lost:
    /// the logs stay beside the files and are read at the next open.
    pub fn close(self) -> Result<(), StoreError> {
        if self.closing.is_closed() {
            return Ok(());
        }
        let conn = self.conn()?;
        self.closing.close();
        let checkpoint = conn.execute_batch(
            "PRAGMA main.wal_checkpoint(TRUNCATE); PRAGMA docs.wal_checkpoint(TRUNCATE);
             PRAGMA text.wal_checkpoint(TRUNCATE);",
        );
        // Given back to a closed pool: closed.
        drop(conn);
        let open = self.closing.wait_closed(&self.pool, CLOSE_WAIT);
        checkpoint.map_err(|e| StoreError::from(e).at(&self.path))?;
        if open > 0 {
            return Err(StoreError::StillInUse { path: self.path.display().to_string(), open, waited: CLOSE_WAIT });
        }
        Ok(())
    }

    fn migrate(&self) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        let version: i64 = conn.query_row("PRAGMA main.user_version", [], |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::TooNew { path: self.path.display().to_string(), found: version, known });
        }
        if version == known {
            return Ok(());
        }
        if version > 0 {
            self.backup(&conn, version)?;
        }
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql)?;
            tx.pragma_update(Some("main"), "user_version", i as i64 + 1)?;
        }
        tx.commit()?;
        if version > 0 && (version as usize) < DOCUMENTS_MOVED {
            // The documents' pages are free now: give them back to the disk.
            conn.execute_batch("VACUUM main")?;
        }
        Ok(())
    }

    /// Copies the whole store next to itself as `studio.db.v{N}.bak` before migrating from schema N.
    fn backup(&self, conn: &Connection, version: i64) -> Result<(), StoreError> {
        let target = self.path.with_extension(format!("db.v{version}.bak"));
        conn.backup(rusqlite::MAIN_DB, &target, None).map_err(StoreError::Backup)
    }
}

/// Checks the precious file before any pooled connection touches it (SQLite's quick check: every page
/// readable and well formed, without cross-checking indexes; milliseconds on a file of configurations) and
/// puts it in WAL mode.
fn prepare_precious(path: &Path) -> Result<(), StoreError> {
    let conn = open_checked(path)?;
    let verdict: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
    if verdict != "ok" {
        return Err(StoreError::Damaged { path: None, detail: format!("pages are malformed: {verdict}") });
    }
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
    Ok(())
}

/// A rebuildable file's schema: version 1 as it was created, then each later version's additions in order (the
/// file's `user_version` says how many of them it has).
struct Rebuildable {
    first: &'static str,
    upgrades: &'static [&'static str],
    /// A file upgraded from a version below this one is compacted after the upgrade (`VACUUM`): the upgrade freed
    /// most of its pages. 0: never.
    compact_below: i64,
}

const DOCUMENTS: Rebuildable = Rebuildable { first: DOCUMENTS_SCHEMA, upgrades: DOCUMENTS_UPGRADES, compact_below: 0 };
/// Version 2 of the state file drops FTS5's index (1.7 GB at a million documents): its pages go back to the disk.
const TEXT: Rebuildable = Rebuildable { first: TEXT_SCHEMA, upgrades: TEXT_UPGRADES, compact_below: 2 };

/// Makes sure a rebuildable file (the documents file, the full-text index's state file) is a database (their
/// thorough check is `studio check`'s, as they may hold gigabytes), creates its schema when it is new or brings it
/// up to date, and puts it in WAL mode. The full-text index is built from the documents when the store opens
/// (`text_index::settle`).
fn prepare_rebuildable(path: &Path, schema: &Rebuildable) -> Result<(), StoreError> {
    let mut conn = open_checked(path)?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version == 0 {
        // 16 KiB pages for a new file: document rows of a few KB share them better (imports ran about a tenth
        // faster than with 4 KiB).
        conn.execute_batch("PRAGMA page_size = 16384")?;
    }
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
    let known = 1 + schema.upgrades.len() as i64;
    if version > known {
        return Err(StoreError::TooNew { path: path.display().to_string(), found: version, known });
    }
    if version < known {
        // What the file holds can be imported or built again, so it is upgraded in place without a copy.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)?;
        if version == 0 {
            tx.execute_batch(schema.first)?;
        }
        for sql in schema.upgrades.iter().skip(version.max(1) as usize - 1) {
            tx.execute_batch(sql)?;
        }
        tx.pragma_update(None, "user_version", known)?;
        tx.commit()?;
        if version > 0 && version < schema.compact_below {
            conn.execute_batch("VACUUM")?;
        }
    }
    Ok(())
}

/// Opens one store file on its own and reads its header, so that a file that is not a database is named
/// at once rather than by every pooled connection in turn.
fn open_checked(path: &Path) -> Result<Connection, StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))?;
    Ok(conn)
}

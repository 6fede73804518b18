//! Opening the SQLite file: pragmas for every connection, embedded numbered migrations, and a backup copy
//! taken before any migration touches an existing store.

use std::path::{Path, PathBuf};
use std::time::Duration;

use r2d2::{Pool, PooledConnection};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;

use crate::error::StoreError;

/// The store's file name inside the data directory.
pub const DB_FILE: &str = "studio.db";

/// Migrations in order; migration N brings the schema to `user_version` N.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_configurations.sql"),
    include_str!("../migrations/0002_documents.sql"),
    include_str!("../migrations/0003_index_snapshots.sql"),
    include_str!("../migrations/0004_fts_second_pass.sql"),
    include_str!("../migrations/0005_drafts_and_pulls.sql"),
];

/// A pool of connections to one store file. Cheap to clone.
#[derive(Clone)]
pub struct Store {
    pool: Pool<SqliteConnectionManager>,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the store in `data_dir` and brings its schema up to date.
    pub fn open_dir(data_dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|source| StoreError::DataDir { path: data_dir.display().to_string(), source })?;
        Store::open(&data_dir.join(DB_FILE))
    }

    /// Opens (creating if needed) the store file at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let manager = SqliteConnectionManager::file(path).with_init(|c| {
            c.busy_timeout(Duration::from_secs(10))?;
            // 16 KiB pages for a new store (a document row of a few KB, and FTS5's segment pages, share them
            // better: imports run about a tenth faster than with 4 KiB); an existing store keeps its own.
            c.execute_batch(
                "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
                 PRAGMA foreign_keys = ON;",
            )?;
            crate::search::register_functions(c)
        });
        let pool = Pool::builder()
            .max_size(8)
            .connection_timeout(Duration::from_secs(30))
            .build(manager)
            .map_err(|source| StoreError::Open { path: path.display().to_string(), source })?;
        let store = Store { pool, path: path.to_owned() };
        store.migrate()?;
        Ok(store)
    }

    /// The file this store lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A connection from the pool, for one unit of work.
    pub fn conn(&self) -> Result<PooledConnection<SqliteConnectionManager>, StoreError> {
        Ok(self.pool.get()?)
    }

    fn migrate(&self) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
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
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Copies the whole store next to itself as `studio.db.v{N}.bak` before migrating from schema N.
    fn backup(&self, conn: &Connection, version: i64) -> Result<(), StoreError> {
        let target = self.path.with_extension(format!("db.v{version}.bak"));
        conn.backup(rusqlite::MAIN_DB, &target, None).map_err(StoreError::Backup)
    }
}

//! Automatic backups of the precious file (`studio.db`: configurations, drafts, published versions,
//! history): consistent snapshots in `DATA_DIR/backups/`, taken by a background thread at most a minute
//! after a change and once more at a clean exit, pruned by [`Policy`].
//!
//! A snapshot is written under a temporary name, synced, then renamed: a file that has a backup's name is
//! always a whole backup. The thread never runs on a request's path and never panics: a failed backup is
//! logged (and told to [`BackupFailures`], when one watches) and tried again after the next change. The documents file is not backed up (its documents are
//! imported again from their source).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use chrono::{DateTime, NaiveDateTime, Utc};
use rusqlite::{Connection, OpenFlags};

use crate::error::StoreError;
use crate::store::Store;

/// The backups' folder inside the data directory.
pub const BACKUPS_DIR: &str = "backups";

/// How long after a change the background thread takes its snapshot, at most.
pub const INTERVAL: Duration = Duration::from_secs(60);

/// A backup's file name is `studio-` + the UTC time it was taken + `.db`.
const PREFIX: &str = "studio-";
const SUFFIX: &str = ".db";
const TIME_FORMAT: &str = "%Y%m%dT%H%M%S%.3fZ";
/// A snapshot being written; never listed as a backup.
const TEMP_SUFFIX: &str = ".tmp";

/// Which backups are kept: the newest [`Policy::KEEP_LAST`], plus the newest of each of the last
/// [`Policy::DAILY_DAYS`] days (UTC), so that a burst of saves cannot push yesterday's work out.
pub struct Policy;

impl Policy {
    pub const KEEP_LAST: usize = 20;
    pub const DAILY_DAYS: usize = 7;

    /// For each of `taken` (newest first), whether the policy keeps it at `now`.
    pub fn kept(taken: &[DateTime<Utc>], now: DateTime<Utc>) -> Vec<bool> {
        let mut keep: Vec<bool> = (0..taken.len()).map(|i| i < Self::KEEP_LAST).collect();
        let today = now.date_naive();
        let mut days_seen = Vec::new();
        for (i, t) in taken.iter().enumerate() {
            let day = t.date_naive();
            let age = today.signed_duration_since(day).num_days();
            if (0..Self::DAILY_DAYS as i64).contains(&age) && !days_seen.contains(&day) {
                days_seen.push(day);
                keep[i] = true;
            }
        }
        keep
    }
}

/// One backup file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupInfo {
    pub path: PathBuf,
    /// When it was taken, from its name.
    pub taken: DateTime<Utc>,
}

/// The backups of the store in `data_dir`, newest first.
pub fn list(data_dir: &Path) -> Vec<BackupInfo> {
    let Ok(entries) = std::fs::read_dir(data_dir.join(BACKUPS_DIR)) else { return Vec::new() };
    let mut out: Vec<BackupInfo> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            Some(BackupInfo { taken: taken_from_name(&name)?, path: e.path() })
        })
        .collect();
    out.sort_by_key(|b| std::cmp::Reverse(b.taken));
    out
}

/// The newest backup of the store in `data_dir`.
pub fn newest(data_dir: &Path) -> Option<BackupInfo> {
    list(data_dir).into_iter().next()
}

fn taken_from_name(name: &str) -> Option<DateTime<Utc>> {
    let time = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    Some(NaiveDateTime::parse_from_str(time, TIME_FORMAT).ok()?.and_utc())
}

fn name_for(taken: DateTime<Utc>) -> String {
    format!("{PREFIX}{}{SUFFIX}", taken.format(TIME_FORMAT))
}

/// Takes a snapshot of the precious file `db` into its data directory's backups now, and prunes.
pub fn snapshot(db: &Path) -> Result<PathBuf, StoreError> {
    let conn = open_source(db)?;
    let path = snapshot_with(&conn, &backups_dir(db))?;
    prune(&backups_dir(db), Utc::now());
    Ok(path)
}

fn backups_dir(db: &Path) -> PathBuf {
    db.parent().unwrap_or(Path::new(".")).join(BACKUPS_DIR)
}

/// A read-only connection to the precious file: it can snapshot it and see its changes, and never
/// checkpoints or removes its log.
fn open_source(db: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    Ok(conn)
}

/// `VACUUM main INTO` a temporary name in `dir`, sync it, rename it to the backup's name and sync the
/// folder. On failure (a full disk above all) the partial file is removed.
fn snapshot_with(conn: &Connection, dir: &Path) -> Result<PathBuf, StoreError> {
    std::fs::create_dir_all(dir)?;
    let mut taken = Utc::now();
    while dir.join(name_for(taken)).exists() {
        taken += chrono::Duration::milliseconds(1);
    }
    let target = dir.join(name_for(taken));
    let temp = dir.join(format!(".{}{TEMP_SUFFIX}", name_for(taken)));
    let written = (|| -> Result<(), StoreError> {
        let _ = std::fs::remove_file(&temp);
        conn.execute("VACUUM main INTO ?1", [temp.to_string_lossy()]).map_err(|e| disk_error(e, dir))?;
        File::open(&temp)?.sync_all()?;
        std::fs::rename(&temp, &target)?;
        File::open(dir)?.sync_all()?;
        Ok(())
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    Ok(target)
}

/// A full disk as every full disk is said, naming the backups' folder `dir`; other failures keep their own text
/// (a damaged store read for the backup is the store's, not the folder's).
fn disk_error(e: rusqlite::Error, dir: &Path) -> StoreError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DiskFull) => StoreError::DiskFull { path: Some(dir.display().to_string()) },
        _ => StoreError::Sql(e),
    }
}

/// Removes the backups the policy does not keep, and snapshots left half-written by a process that
/// stopped mid-way (older than an hour). Failures are logged: pruning never fails a backup.
fn prune(dir: &Path, now: DateTime<Utc>) {
    let Some(data_dir) = dir.parent() else { return };
    let backups = list(data_dir);
    let taken: Vec<DateTime<Utc>> = backups.iter().map(|b| b.taken).collect();
    for (backup, keep) in backups.iter().zip(Policy::kept(&taken, now)) {
        if !keep {
            if let Err(e) = std::fs::remove_file(&backup.path) {
                tracing::warn!("cannot remove the old backup {}: {e}", backup.path.display());
            }
        }
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let stale = entry.metadata().ok().and_then(|m| m.modified().ok()).and_then(|t| t.elapsed().ok());
        let is_temp = entry.file_name().to_string_lossy().ends_with(TEMP_SUFFIX);
        if is_temp && stale.is_some_and(|age| age > Duration::from_secs(3600)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Told when an automatic backup fails, besides the log line: a server counts them in its metrics. Called
/// on the backups' thread; it must return quickly.
pub trait BackupFailures: Send + Sync {
    /// An automatic backup failed with `error`; it is tried again later.
    fn failed(&self, error: &StoreError);
}

/// The automatic backups of one open store: a background thread, stopped by [`Backups::finish`] (which
/// takes the exit backup) or by dropping it (which does not).
pub struct Backups {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<Watcher>>,
}

impl Backups {
    /// Starts the backups of `store`, a snapshot at most [`INTERVAL`] after a change.
    pub fn start(store: &Store) -> Backups {
        Backups::start_with(store, INTERVAL)
    }

    /// Starts the backups of `store`, a snapshot at most `interval` after a change.
    pub fn start_with(store: &Store, interval: Duration) -> Backups {
        Backups::start_watched(store, interval, None)
    }

    /// Starts the backups of `store`, a snapshot at most `interval` after a change, telling `failures` of
    /// each automatic backup that fails.
    pub fn start_watched(store: &Store, interval: Duration, failures: Option<Arc<dyn BackupFailures>>) -> Backups {
        let mut watcher = Watcher::new(store.path());
        watcher.failures = failures;
        let (stop, stopped) = mpsc::channel::<()>();
        let spawned = std::thread::Builder::new().name(studio_engine::threads::BACKUPS.into()).spawn(move || {
            // Any message, or the sender dropped, stops the thread.
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(interval) {
                watcher.tick();
            }
            watcher
        });
        match spawned {
            Ok(thread) => Backups { stop: Some(stop), thread: Some(thread) },
            Err(e) => {
                tracing::error!("cannot start the automatic backups: {e}");
                Backups { stop: None, thread: None }
            }
        }
    }

    /// Stops the thread and takes the exit backup when the store changed since the last one; its path,
    /// or `None` when there was nothing new to back up.
    pub fn finish(mut self) -> Result<Option<PathBuf>, StoreError> {
        let Some(mut watcher) = self.stop_thread() else { return Ok(None) };
        if !watcher.changed() {
            return Ok(None);
        }
        let path = watcher.take()?;
        Ok(Some(path))
    }

    fn stop_thread(&mut self) -> Option<Watcher> {
        drop(self.stop.take());
        match self.thread.take()?.join() {
            Ok(watcher) => Some(watcher),
            Err(_) => {
                tracing::error!("the automatic backups' thread stopped unexpectedly");
                None
            }
        }
    }
}

impl Drop for Backups {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// The thread's state: its own connection to the precious file, and the `data_version` it last backed up.
struct Watcher {
    db: PathBuf,
    conn: Option<Connection>,
    backed_up: Option<i64>,
    /// The store changed before this thread started and no backup has it yet.
    dirty: bool,
    failures: Option<Arc<dyn BackupFailures>>,
}

impl Watcher {
    fn new(db: &Path) -> Watcher {
        let mut watcher = Watcher { db: db.to_owned(), conn: None, backed_up: None, dirty: false, failures: None };
        watcher.dirty = watcher.unsaved_before_start();
        watcher.backed_up = watcher.version();
        watcher
    }

    /// Whether the store's file or its log was written after the newest backup was taken (or there is
    /// none): changes made while no backups ran (another command, a crash before the exit backup).
    fn unsaved_before_start(&self) -> bool {
        let Some(newest) = self.db.parent().and_then(newest) else { return true };
        let mut wal = self.db.clone().into_os_string();
        wal.push("-wal");
        [self.db.clone(), PathBuf::from(wal)].iter().any(|file| {
            let modified = std::fs::metadata(file).and_then(|m| m.modified()).ok();
            modified.is_some_and(|m| m > SystemTime::from(newest.taken))
        })
    }

    fn connection(&mut self) -> Result<&Connection, StoreError> {
        if self.conn.is_none() {
            self.conn = Some(open_source(&self.db)?);
        }
        self.conn.as_ref().ok_or(StoreError::Task("no connection to back up from".into()))
    }

    /// `PRAGMA data_version`: it changes when another connection commits.
    fn version(&mut self) -> Option<i64> {
        match self.connection().and_then(|c| Ok(c.query_row("PRAGMA main.data_version", [], |r| r.get(0))?)) {
            Ok(v) => Some(v),
            Err(e) => {
                tracing::warn!("cannot see whether the store changed: {e}");
                self.conn = None;
                None
            }
        }
    }

    fn changed(&mut self) -> bool {
        self.dirty || self.version() != self.backed_up
    }

    fn tick(&mut self) {
        if !self.changed() {
            return;
        }
        match self.take() {
            Ok(path) => tracing::info!("backup of the store: {}", path.display()),
            Err(e) => {
                tracing::warn!("the automatic backup failed (it is tried again after the next change): {e}");
                if let Some(failures) = &self.failures {
                    failures.failed(&e);
                }
            }
        }
    }

    /// Takes a snapshot and prunes; remembers what it holds.
    fn take(&mut self) -> Result<PathBuf, StoreError> {
        let version = self.version();
        let dir = backups_dir(&self.db);
        let path = snapshot_with(self.connection()?, &dir)?;
        (self.backed_up, self.dirty) = (version, false);
        prune(&dir, Utc::now());
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, day, hour, minute, 0).unwrap()
    }

    #[test]
    fn names_round_trip_and_others_are_not_backups() {
        let t = at(23, 22, 15) + chrono::Duration::milliseconds(42);
        assert_eq!(name_for(t), "studio-20261123T221500.042Z.db");
        assert_eq!(taken_from_name(&name_for(t)), Some(t));
        assert_eq!(taken_from_name(".studio-20261123T221500.042Z.db.tmp"), None);
        assert_eq!(taken_from_name("studio.db"), None);
    }

    #[test]
    fn the_policy_keeps_the_last_twenty_and_the_newest_of_each_of_seven_days() {
        let now = at(23, 12, 0);
        // 30 backups a minute apart this morning, then one at 10:00 and 20:00 of each of the 10 days before.
        let mut taken: Vec<DateTime<Utc>> = (0..30).map(|m| at(23, 11, 59 - m)).collect();
        for day in (13..23).rev() {
            taken.push(at(day, 20, 0));
            taken.push(at(day, 10, 0));
        }
        let kept: Vec<DateTime<Utc>> =
            taken.iter().zip(Policy::kept(&taken, now)).filter(|(_, k)| *k).map(|(t, _)| *t).collect();
        let mut expected: Vec<DateTime<Utc>> = taken[..20].to_vec();
        // Today's newest is among the last 20; the six days before today keep their evening backup.
        expected.extend((17..23).rev().map(|day| at(day, 20, 0)));
        assert_eq!(kept, expected);
    }

    #[test]
    fn fewer_backups_than_the_policy_keeps_are_all_kept() {
        let taken = vec![at(23, 10, 0), at(1, 10, 0)];
        assert_eq!(Policy::kept(&taken, at(23, 12, 0)), vec![true, true]);
    }
}

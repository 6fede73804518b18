//! `recover`: rebuilds a damaged store (or one that lost its last writes) from what can still be read and
//! the newest backup. Each damaged file is moved aside, never changed or deleted (its new name says
//! "damaged" and when; its log moves with it, so it can still be opened by its new name); new files are
//! made by the store's own migrations and filled with every configuration, draft, list of preview scenarios,
//! published version and history entry found in either source, the newer copy of each configuration (draft,
//! list) winning, and with every document that can be read.
//!
//! A file that is not damaged is never moved, emptied or rewritten: a damaged `studio.db` beside an intact
//! documents file gets a new `studio.db` while the documents, their full-text index and so every search space
//! stay as they are; a damaged full-text index alone is built again from the documents. (The index's directory
//! is the one thing not moved aside: it holds nothing but a copy of the documents' text, so a damaged one is
//! emptied and built again in place.) The search spaces
//! that did lose documents are named with how many were kept and lost and the command that loads them again
//! (`lost.rs`).
//!
//! Run it while no server or app has the store open.

mod documents;
mod lost;
pub(crate) mod merge;
pub(crate) mod salvage;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chrono::Utc;
use rusqlite::types::Value;
use rusqlite::{params, params_from_iter, Connection};
use serde::Serialize;
use ts_rs::TS;

use crate::backup;
use crate::error::StoreError;
use crate::inspect::{inspect, inspect_text_index, open_read_only};
use crate::store::{Store, DB_FILE};
use crate::store::{DOCUMENTS_FILE, TEXT_DIR, TEXT_FILE};
pub use lost::LostDocuments;
use merge::{join_rows, parse, Merged, Precious};

/// What `recover` did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecoverReport {
    /// The damaged files, under their new names.
    pub moved_aside: Vec<String>,
    pub configurations: usize,
    pub drafts: usize,
    pub versions: usize,
    pub history: usize,
    /// Configurations whose copy came from the backup (the store had lost it or its last changes).
    pub from_backup: usize,
    pub documents: usize,
    /// Whether the full-text index was built again from the documents (it or its state file was damaged, or
    /// documents were copied out of a damaged file).
    pub text_rebuilt: bool,
    /// The search spaces that lost documents, each with how to get them back.
    pub lost_documents: Vec<LostDocuments>,
}

/// Recovers the store in `data_dir`. A healthy store is left as it is (the report then only counts).
pub fn recover(data_dir: &Path) -> Result<RecoverReport, StoreError> {
    let precious = data_dir.join(DB_FILE);
    let documents = data_dir.join(DOCUMENTS_FILE);
    let backup = newest_readable_backup(data_dir);
    let rebuild_precious = match precious.exists() {
        false => backup.is_some(),
        true => inspect(&precious).is_some() || lost_rows(&precious, backup.as_ref()),
    };
    let rebuild_documents = documents.exists() && inspect(&documents).is_some();
    // The full-text index holds nothing that is not in the documents: a damaged state file is set aside, and the
    // index built again.
    let text = data_dir.join(TEXT_FILE);
    let rebuild_text = text.exists() && inspect(&text).is_some();
    let damaged_index = inspect_text_index(&data_dir.join(TEXT_DIR)).is_some();
    let stamp = Utc::now().format("%Y%m%dT%H%M%SZ").to_string();
    let mut report = RecoverReport::default();
    let precious_aside = match rebuild_precious && precious.exists() {
        true => Some(move_aside(&precious, &stamp, &mut report.moved_aside)?),
        false => None,
    };
    let documents_aside = match rebuild_documents {
        true => Some(move_aside(&documents, &stamp, &mut report.moved_aside)?),
        false => None,
    };
    if rebuild_text {
        move_aside(&text, &stamp, &mut report.moved_aside)?;
    }
    let store = Store::open_dir(data_dir)?;
    let mut conn = store.conn()?;
    if rebuild_precious {
        let old = precious_aside.as_deref().and_then(|p| open_read_only(p).ok());
        let old = old.as_ref().map(Precious::read).unwrap_or_default();
        write_precious(&mut conn, &old, backup.as_ref(), &mut report)?;
    }
    // Documents are copied from every moved-aside file that has them: the documents file, and a store
    // of one file (older stores kept documents beside the configurations).
    let spaces = search_spaces(&conn);
    let separate_documents = documents_aside.is_some() || documents.exists();
    let mut expected: BTreeMap<String, Option<usize>> = BTreeMap::new();
    let mut add = |space: String, n: Option<usize>| {
        let slot = expected.entry(space).or_insert(n);
        *slot = (*slot).max(n);
    };
    report.text_rebuilt = rebuild_text || damaged_index;
    for file in [&precious_aside, &documents_aside].into_iter().flatten() {
        // Whether the file held documents when its list of tables cannot be read.
        let held_documents = Some(file) == documents_aside.as_ref() || !separate_documents;
        let Ok(source) = open_read_only(file) else {
            if held_documents {
                spaces.iter().for_each(|s| add(s.clone(), None));
            }
            continue;
        };
        let holds_documents = match salvage::table_names(&source) {
            Some(names) => names.iter().any(|n| n == "documents"),
            None => held_documents,
        };
        if holds_documents {
            documents::copy(&source, &mut conn, &spaces)?.expected.into_iter().for_each(|(s, n)| add(s, n));
            report.text_rebuilt = true;
        }
    }
    if report.text_rebuilt {
        // From every document the store now holds; a directory it cannot read is removed and made again.
        studio_engine::text_index::rebuild(store.text_dir(), &mut conn)?;
    }
    count(&conn, &mut report);
    report.lost_documents = lost::lost_documents(&conn, &expected);
    drop(conn);
    drop(store);
    Ok(report)
}

/// The newest backup that opens and passes SQLite's quick check, read.
fn newest_readable_backup(data_dir: &Path) -> Option<Precious> {
    backup::list(data_dir).into_iter().find_map(|b| {
        let conn = open_read_only(&b.path).ok()?;
        let ok: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0)).ok()?;
        (ok == "ok").then(|| Precious::read(&conn))
    })
}

/// Whether rows of the precious file cannot be read, or the backup holds configurations (or changes of
/// them) that the store lost.
fn lost_rows(precious: &Path, backup: Option<&Precious>) -> bool {
    let Ok(conn) = open_read_only(precious) else { return true };
    let store = Precious::read(&conn);
    !store.unreadable().is_empty() || Merged::new(&store, backup).newer_in_backup().next().is_some()
}

/// Renames `file` (and its `-wal` and `-shm`) to `<name>.damaged-<stamp>`; answers the new path.
fn move_aside(file: &Path, stamp: &str, moved: &mut Vec<String>) -> Result<PathBuf, StoreError> {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut target = dir.join(format!("{name}.damaged-{stamp}"));
    let mut n = 2;
    while target.exists() {
        target = dir.join(format!("{name}.damaged-{stamp}-{n}"));
        n += 1;
    }
    std::fs::rename(file, &target)?;
    moved.push(target.display().to_string());
    for suffix in ["-wal", "-shm"] {
        let companion = dir.join(format!("{name}{suffix}"));
        if companion.exists() {
            let to = PathBuf::from(format!("{}{suffix}", target.display()));
            std::fs::rename(&companion, &to)?;
            moved.push(to.display().to_string());
        }
    }
    std::fs::File::open(dir)?.sync_all()?;
    Ok(target)
}

/// Fills the new store's precious tables from the damaged file and the backup, in one transaction.
fn write_precious(
    conn: &mut Connection,
    old: &Precious,
    backup: Option<&Precious>,
    report: &mut RecoverReport,
) -> Result<(), StoreError> {
    let merged = Merged::new(old, backup);
    let tx = conn.transaction()?;
    for (id, (_, envelope)) in &merged.configurations {
        let Some(config) = parse(envelope) else { continue };
        let created = config.created.clone().unwrap_or_else(crate::configs::now);
        tx.execute(
            "INSERT INTO configurations (id, user, created, search_space, envelope) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, config.user, created, config.config.search_space, envelope],
        )?;
    }
    report.from_backup = merged.newer_in_backup().count();
    let active = [Some(old), backup]
        .into_iter()
        .flatten()
        .filter_map(Precious::active)
        .chain(merged.configurations.keys().copied())
        .find(|id| merged.configurations.contains_key(id));
    if let Some(active) = active {
        tx.execute("INSERT INTO active_configuration (singleton, config_id) VALUES (1, ?1)", [active])?;
    }
    for e in &merged.history {
        tx.execute(
            "INSERT INTO configuration_log (config_id, at, user, action, envelope) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![e.config_id, e.at, e.user, e.action, e.envelope],
        )?;
    }
    for table in ["drafts", "published_versions", "pulls", "scenarios"] {
        let (columns, rows) = join_rows(table, old.table(table), backup.and_then(|b| b.table(table)));
        insert_rows(&tx, table, &columns, &rows);
    }
    // Ids are never given out twice, even those of configurations that are gone.
    let highest = [old.sequence, backup.and_then(|b| b.sequence)]
        .into_iter()
        .flatten()
        .chain(merged.history.iter().map(|e| e.config_id))
        .chain(merged.configurations.keys().copied())
        .max();
    if let Some(highest) = highest {
        let updated =
            tx.execute("UPDATE sqlite_sequence SET seq = max(seq, ?1) WHERE name = 'configurations'", [highest])?;
        if updated == 0 {
            tx.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('configurations', ?1)", [highest])?;
        }
    }
    tx.commit()?;
    Ok(())
}

/// Inserts `rows` (of `columns`) into `table`, leaving out `seq` (given anew) and any row the table
/// refuses.
fn insert_rows(conn: &Connection, table: &str, columns: &[String], rows: &[Vec<Value>]) {
    let keep: Vec<usize> = (0..columns.len()).filter(|&i| columns[i] != "seq").collect();
    let names: Vec<String> = keep.iter().map(|&i| format!("\"{}\"", columns[i])).collect();
    let marks = vec!["?"; keep.len()].join(", ");
    let sql = format!("INSERT OR IGNORE INTO \"{table}\" ({}) VALUES ({marks})", names.join(", "));
    for row in rows {
        if let Err(e) = conn.execute(&sql, params_from_iter(keep.iter().map(|&i| &row[i]))) {
            tracing::warn!("a row of {table} could not be kept: {e}");
        }
    }
}

/// The search spaces the store knows of: those its configurations use and those it pulled.
fn search_spaces(conn: &Connection) -> BTreeSet<String> {
    let sql = "SELECT search_space FROM configurations UNION SELECT search_space FROM pulls";
    let Ok(mut stmt) = conn.prepare(sql) else {
        return BTreeSet::new();
    };
    let rows = stmt.query_map([], |r| r.get::<_, String>(0));
    rows.map(|rows| rows.flatten().collect()).unwrap_or_default()
}

/// Counts what the store holds now.
fn count(conn: &Connection, report: &mut RecoverReport) {
    let n = |table: &str| -> usize {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get::<_, i64>(0)).map_or(0, |n| n as usize)
    };
    (report.configurations, report.drafts, report.versions, report.history, report.documents) =
        (n("configurations"), n("drafts"), n("published_versions"), n("configuration_log"), n("documents"));
}

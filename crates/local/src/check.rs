//! `check`: the thorough look at a store that `studio check`, `studio serve`'s start and the desktop's
//! launch use. It opens the files read-only and without the store's pool (a damaged store must be
//! checkable, and checking must never change it), runs `PRAGMA integrity_check` on each file, reads every byte of
//! the full-text index (without its lock: a reader of it changes nothing), reads every configuration row, and
//! compares the configurations with the newest backup to find the last writes the store lost.

use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde::Serialize;
use studio_text::Reader;
use ts_rs::TS;

use crate::backup;
use crate::error::StoreError;
use crate::recover::merge::{parse, Merged, Precious};
use crate::recover::salvage::open_read_only;
use crate::store::{DB_FILE, DOCUMENTS_FILE, TEXT_DIR, TEXT_FILE};

/// Integrity messages kept per file (SQLite can give thousands for one bad page).
const MAX_DETAILS: usize = 5;

/// What `check` found. Healthy when both lists are empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    pub problems: Vec<Problem>,
    pub newer_in_backup: Vec<NewerInBackup>,
    /// The backup the configurations were compared with (none when there is no backup).
    pub backup: Option<String>,
}

impl CheckReport {
    pub fn healthy(&self) -> bool {
        self.problems.is_empty() && self.newer_in_backup.is_empty()
    }
}

/// One thing wrong with one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// The file (or the full-text index's directory), as a path.
    pub file: String,
    pub kind: ProblemKind,
    /// What SQLite (or the check) says, in its words.
    pub detail: String,
    /// What to do about it, in one sentence.
    pub action: String,
}

/// The kinds of problem a store file can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ProblemKind {
    /// The file is not an SQLite database (its header is damaged).
    NotADatabase,
    /// The file is shorter than its header says.
    Truncated,
    /// Pages of the file are damaged (`integrity_check` fails), or a file of the full-text index does not hold
    /// what it should.
    Damaged,
    /// Rows of a table cannot be read.
    UnreadableRows,
    /// The store's file is missing, though backups of it exist.
    Missing,
    /// The file cannot be opened or read at all (permissions, I/O).
    Unreadable,
}

/// A configuration whose newest backup holds a newer version than the store does: the store lost its
/// last writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NewerInBackup {
    pub id: i32,
    pub title: String,
}

/// The thorough check of the store in `data_dir`.
pub fn check(data_dir: &Path) -> Result<CheckReport, StoreError> {
    let precious = data_dir.join(DB_FILE);
    let newest = backup::newest(data_dir);
    let mut report =
        CheckReport { backup: newest.as_ref().map(|b| b.path.display().to_string()), ..Default::default() };
    if !precious.exists() {
        if newest.is_some() {
            report.problems.push(problem(&precious, ProblemKind::Missing, "the file does not exist".into()));
        }
        return Ok(report);
    }
    for file in [precious.clone(), data_dir.join(DOCUMENTS_FILE), data_dir.join(TEXT_FILE)] {
        if file.exists() {
            report.problems.extend(inspect(&file));
        }
    }
    report.problems.extend(inspect_text_index(&data_dir.join(TEXT_DIR)));
    let store = open_read_only(&precious).map(|c| Precious::read(&c)).unwrap_or_default();
    if report.problems.is_empty() {
        let unreadable = store.unreadable();
        if !unreadable.is_empty() {
            report.problems.push(problem(&precious, ProblemKind::UnreadableRows, unreadable.join("; ")));
        }
    }
    report.newer_in_backup = newer_in_backup(&store, newest.map(|b| b.path).as_deref());
    Ok(report)
}

/// Only the comparison with the newest backup (no integrity check): what `studio serve` looks at when
/// it starts, cheap even beside a large documents file.
pub fn compare_with_backup(data_dir: &Path) -> Result<Vec<NewerInBackup>, StoreError> {
    let store = Precious::read(&open_read_only(&data_dir.join(DB_FILE))?);
    Ok(newer_in_backup(&store, backup::newest(data_dir).map(|b| b.path).as_deref()))
}

fn newer_in_backup(store: &Precious, backup: Option<&Path>) -> Vec<NewerInBackup> {
    let Some(backup) = backup.and_then(|b| open_read_only(b).ok()).map(|c| Precious::read(&c)) else {
        return Vec::new();
    };
    Merged::new(store, Some(&backup))
        .newer_in_backup()
        .map(|(id, envelope)| NewerInBackup {
            id: id as i32,
            title: parse(envelope).map(|c| c.config.title).unwrap_or_default(),
        })
        .collect()
}

/// The problems of one file: not a database, shorter than its header says, or failing `integrity_check`.
pub(crate) fn inspect(file: &Path) -> Option<Problem> {
    if let Some(p) = truncated(file) {
        return Some(p);
    }
    let checked = open_read_only(file).and_then(|conn| integrity(&conn));
    match checked {
        Ok(details) if details.is_empty() => None,
        Ok(details) => Some(problem(file, ProblemKind::Damaged, details.join("; "))),
        Err(e) => Some(problem(file, kind_of(&e), e.to_string())),
    }
}

/// The problem of the full-text index in `dir`, read whole and checked: a file that does not hold what it should,
/// or one that cannot be read. None when there is no index yet (the store builds it when it opens).
pub(crate) fn inspect_text_index(dir: &Path) -> Option<Problem> {
    if !dir.exists() {
        return None;
    }
    let e = Reader::new(dir).snapshot().and_then(|snapshot| snapshot.verify()).err()?;
    let kind = if e.needs_rebuild() { ProblemKind::Damaged } else { ProblemKind::Unreadable };
    Some(problem(dir, kind, e.to_string()))
}

fn integrity(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("PRAGMA integrity_check({MAX_DETAILS})"))?;
    let lines = stmt.query_map([], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
    Ok(lines.into_iter().filter(|l| l != "ok").collect())
}

fn kind_of(e: &rusqlite::Error) -> ProblemKind {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => ProblemKind::NotADatabase,
        Some(rusqlite::ErrorCode::DatabaseCorrupt) => ProblemKind::Damaged,
        _ => ProblemKind::Unreadable,
    }
}

/// A file shorter than the page count its header gives (bytes 16–17: page size, 28–31: pages, valid when
/// bytes 92–95 match the change counter at 24–27), or one without SQLite's header at all.
fn truncated(file: &Path) -> Option<Problem> {
    let mut header = [0u8; 100];
    let mut f = std::fs::File::open(file).ok()?;
    let len = f.metadata().ok()?.len();
    if len == 0 {
        return None;
    }
    if len < 100 || f.read_exact(&mut header).is_err() || !header.starts_with(b"SQLite format 3\0") {
        return Some(problem(file, ProblemKind::NotADatabase, "the file does not start with SQLite's header".into()));
    }
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65536,
        n => u64::from(n),
    };
    let pages = u64::from(u32::from_be_bytes([header[28], header[29], header[30], header[31]]));
    let valid = header[24..28] == header[92..96];
    let expected = page_size * pages;
    (valid && expected > len).then(|| {
        let detail = format!("the file holds {len} bytes, its header says {expected}");
        problem(file, ProblemKind::Truncated, detail)
    })
}

fn problem(file: &Path, kind: ProblemKind, detail: String) -> Problem {
    let name = file.file_name();
    let action = if name.is_some_and(|n| n == DOCUMENTS_FILE) {
        "run `studio recover`: it keeps the documents it can read and names each search space that lost some, with \
         the command that loads them again"
    } else if name.is_some_and(|n| n == TEXT_FILE) {
        "run `studio recover`: it builds the full-text index again from the documents"
    } else if name.is_some_and(|n| n == TEXT_DIR) {
        "nothing is lost (the full-text index is built from the documents): run `studio recover` to build it again \
         now; the store also builds it again when it opens and cannot read it"
    } else {
        "run `studio recover`: it rebuilds the store from what can be read and the newest backup"
    };
    Problem { file: file.display().to_string(), kind, detail, action: action.into() }
}

/// The documents file of the store in `data_dir`.
pub fn documents_path(data_dir: &Path) -> PathBuf {
    data_dir.join(DOCUMENTS_FILE)
}

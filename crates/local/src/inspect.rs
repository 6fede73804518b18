//! A look at one file of the store: whether it is a database, as long as its header says, and passes SQLite's
//! integrity check, or, for the full-text index's directory, whether every byte of it reads back as written. What
//! `check` reports and `recover` decides by; it opens each file read-only and changes nothing.

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;
use studio_text::Reader;
use ts_rs::TS;

use crate::store::{DOCUMENTS_FILE, TEXT_DIR, TEXT_FILE};

/// Integrity messages kept per file (SQLite can give thousands for one bad page).
const MAX_DETAILS: usize = 5;

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

/// Opens `path` read-only, with SQLite's extra checks of each page's cells on.
pub(crate) fn open_read_only(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.execute_batch("PRAGMA cell_size_check = ON;")?;
    Ok(conn)
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

pub(crate) fn problem(file: &Path, kind: ProblemKind, detail: String) -> Problem {
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

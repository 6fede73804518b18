//! Reading what can still be read from a damaged SQLite file, row by row: a damaged page costs the rows
//! on it, never the rest of the table. The file is opened read-only, so reading never changes it (no
//! checkpoint, no log removed).
//!
//! A table is walked in rowid order; when a step fails the walk seeks past the failing rowid and goes on.
//! (The bundled SQLite has no `.recover` extension, so this is the portable way.)

use rusqlite::types::Value;
use rusqlite::Connection;

/// Failing seeks after which a walk gives up on the rest of a table (a damaged page can claim any rowid
/// as the last, so a known last rowid is no bound on its own).
const MAX_FAILED_STEPS: usize = 100_000;

/// The rows of one table that could be read, with the names of their columns.
#[derive(Debug, Default)]
pub(crate) struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    /// Rows (or runs of rows) that could not be read, and why the table could not be read at all.
    pub lost: usize,
    pub error: Option<String>,
}

impl Table {
    pub fn index(&self, column: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == column)
    }

    /// Whether everything in the table was read.
    pub fn complete(&self) -> bool {
        self.lost == 0 && self.error.is_none()
    }
}

/// A row's value as text, if it is text.
pub(crate) fn text(row: &[Value], i: Option<usize>) -> Option<&str> {
    match row.get(i?)? {
        Value::Text(s) => Some(s),
        _ => None,
    }
}

/// A row's value as an integer, if it is one.
pub(crate) fn int(row: &[Value], i: Option<usize>) -> Option<i64> {
    match row.get(i?)? {
        Value::Integer(n) => Some(*n),
        _ => None,
    }
}

/// The columns of `table` in the file `conn` reads, or `None` when the table is missing or its schema
/// cannot be read.
pub(crate) fn columns(conn: &Connection, table: &str) -> Option<Vec<String>> {
    let mut stmt = conn.prepare(&format!("SELECT name FROM pragma_table_info('{table}')")).ok()?;
    let names = stmt.query_map([], |r| r.get::<_, String>(0)).ok()?.collect::<Result<Vec<_>, _>>().ok()?;
    (!names.is_empty()).then_some(names)
}

/// The tables of the file, or `None` when its schema cannot be read.
pub(crate) fn table_names(conn: &Connection) -> Option<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").ok()?;
    let names = stmt.query_map([], |r| r.get::<_, String>(0)).ok()?.collect::<Result<Vec<_>, _>>().ok()?;
    Some(names)
}

/// Every row of `table` that can be read, `wanted` columns only (those the file has).
pub(crate) fn read_table(conn: &Connection, table: &str, wanted: Option<&[String]>) -> Table {
    let mut rows = Vec::new();
    let mut out = each_row(conn, table, wanted, |row| rows.push(row));
    out.rows = rows;
    out
}

/// Gives every row of `table` that can be read to `sink`, `wanted` columns only (those the file has); the
/// answer has the columns and what was lost, not the rows.
pub(crate) fn each_row(
    conn: &Connection,
    table: &str,
    wanted: Option<&[String]>,
    mut sink: impl FnMut(Vec<Value>),
) -> Table {
    let Some(mut columns) = columns(conn, table) else {
        return Table { error: Some(format!("the table {table} cannot be read")), ..Table::default() };
    };
    if let Some(wanted) = wanted {
        columns.retain(|c| wanted.contains(c));
    }
    let list: Vec<String> = columns.iter().map(|c| format!("\"{c}\"")).collect();
    let sql = format!("SELECT rowid, {} FROM \"{table}\" WHERE rowid >= ?1 ORDER BY rowid", list.join(", "));
    let mut out = Table { columns, ..Table::default() };
    let last = last_rowid(conn, table);
    let mut next = i64::MIN;
    loop {
        match walk(conn, &sql, out.columns.len(), &mut next, &mut out.lost, &mut sink) {
            Ok(()) => return out,
            Err(Walk::Prepare(e)) => {
                out.error = Some(format!("the table {table} cannot be read: {e}"));
                return out;
            }
            Err(Walk::Step) => {
                out.lost += 1;
                let beyond = last.is_some_and(|last| next >= last) || out.lost > MAX_FAILED_STEPS;
                if beyond || next == i64::MAX {
                    return out;
                }
                // Seek to the rowid after the one that failed (its page is damaged).
                next += 1;
            }
        }
    }
}

enum Walk {
    Prepare(rusqlite::Error),
    Step,
}

/// Reads rows from rowid `next` on until the end or the first failure, moving `next` past each row read.
fn walk(
    conn: &Connection,
    sql: &str,
    width: usize,
    next: &mut i64,
    lost: &mut usize,
    sink: &mut impl FnMut(Vec<Value>),
) -> Result<(), Walk> {
    let mut stmt = conn.prepare_cached(sql).map_err(Walk::Prepare)?;
    let mut cursor = stmt.query([*next]).map_err(|_| Walk::Step)?;
    loop {
        let row = match cursor.next() {
            Ok(Some(row)) => row,
            Ok(None) => return Ok(()),
            Err(_) => return Err(Walk::Step),
        };
        let Ok(rowid) = row.get::<_, i64>(0) else { return Err(Walk::Step) };
        if rowid < *next {
            // A damaged page can give rows out of order; never walk backwards.
            continue;
        }
        let values: Result<Vec<Value>, _> = (1..=width).map(|i| row.get::<_, Value>(i)).collect();
        match values {
            Ok(values) => sink(values),
            // A value that is not what its type says (text that is not UTF-8): the row is lost.
            Err(_) => *lost += 1,
        }
        if rowid == i64::MAX {
            return Ok(());
        }
        *next = rowid + 1;
    }
}

/// The largest rowid of `table` that can be found: the bound of a walk that steps over damaged pages.
fn last_rowid(conn: &Connection, table: &str) -> Option<i64> {
    let max = conn.query_row(&format!("SELECT max(rowid) FROM \"{table}\""), [], |r| r.get::<_, Option<i64>>(0));
    if let Ok(found) = max {
        return Some(found.unwrap_or(i64::MIN));
    }
    let sequence = conn.query_row("SELECT seq FROM sqlite_sequence WHERE name = ?1", [table], |r| r.get::<_, i64>(0));
    sequence.ok()
}

//! A second connection to the documents file and its full-text index, for the engine's threads that read the
//! full-text index beside a search (the common terms' walks, the store's upkeep).

use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::error::EngineError;

/// How long a connection of the engine waits for another's write before giving up (the store's own wait).
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A connection of its own to the documents file and the full-text index's file `conn` has attached (as `docs`
/// and `text`; here the first as `main`, the second as `text`, tables unqualified as on every connection), with
/// the search engine's functions, for a second thread reading the full-text index; `None` where `conn` has them
/// not attached.
pub fn documents_reader(conn: &Connection) -> Result<Option<Connection>, EngineError> {
    let file = |name: &str| -> Result<Option<String>, EngineError> {
        let file: Option<String> =
            conn.query_row("SELECT file FROM pragma_database_list WHERE name = ?1", [name], |r| r.get(0)).optional()?;
        Ok(file.filter(|f| !f.is_empty()))
    };
    let (Some(documents), Some(text)) = (file("docs")?, file("text")?) else { return Ok(None) };
    let reader =
        Connection::open_with_flags(documents, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    reader.busy_timeout(BUSY_TIMEOUT)?;
    reader.execute("ATTACH DATABASE ?1 AS text", [text])?;
    crate::fts_functions::register_functions(&reader)?;
    Ok(Some(reader))
}

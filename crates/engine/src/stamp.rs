//! What the scores of a full-text query depend on beyond a search space's own documents: the store's state
//! ([`Stamp`]: every scope's generation and FTS5's averages record) and FTS5's store-wide totals ([`Totals`]).

use rusqlite::Connection;

use super::varint::sqlite_varint;
use crate::error::EngineError;

/// What the scores of a full-text query depend on beyond the search space's own documents.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// The sum of every scope's generation: each import bumps its own in the transaction that writes the
    /// text index, and generations only grow.
    pub generations: i64,
    /// FTS5's averages record: the row count and the token totals per column.
    pub averages: Vec<u8>,
}

impl Stamp {
    pub(crate) fn read(conn: &Connection) -> Result<Stamp, EngineError> {
        Ok(conn
            .prepare_cached(
                "SELECT (SELECT coalesce(sum(generation), 0) FROM generations),
                    (SELECT block FROM documents_fts_data WHERE id = 1)",
            )?
            .query_row([], |r| {
                Ok(Stamp { generations: r.get(0)?, averages: r.get::<_, Option<Vec<u8>>>(1)?.unwrap_or_default() })
            })?)
    }
}

/// FTS5's store-wide totals, from its averages record: rows, and tokens over every column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Totals {
    pub rows: f64,
    pub tokens: f64,
}

impl Totals {
    /// The totals of FTS5's averages record (a varint row count, then one varint token count per column).
    pub(crate) fn of_record(record: &[u8]) -> Option<Totals> {
        let (rows, mut at) = sqlite_varint(record)?;
        let mut tokens = 0u64;
        while at < record.len() {
            let (column, used) = sqlite_varint(&record[at..])?;
            tokens = tokens.saturating_add(column);
            at += used;
        }
        Some(Totals { rows: rows.max(1) as f64, tokens: tokens as f64 })
    }
}

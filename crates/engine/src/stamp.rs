//! What the scores of a full-text query depend on beyond a search space's own documents: the store's state
//! ([`Stamp`]: every scope's generation and the full-text index's live rows and tokens) and the index's
//! store-wide totals ([`Totals`]).

use rusqlite::Connection;
use studio_text::{Snapshot, Statistics};

use super::text_index;
use crate::error::EngineError;

/// What the scores of a full-text query depend on beyond the search space's own documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// The sum of every scope's generation: each import bumps its own, and generations only grow.
    pub generations: i64,
    /// The full-text index's live rows and their tokens per field.
    pub statistics: Statistics,
}

impl Stamp {
    /// The store's stamp, with the full-text index it was read from.
    pub(crate) fn read(conn: &Connection) -> Result<(Stamp, Snapshot), EngineError> {
        let generations =
            conn.prepare_cached("SELECT coalesce(sum(generation), 0) FROM generations")?.query_row([], |r| r.get(0))?;
        let text = text_index::snapshot(conn)?;
        Ok((Stamp { generations, statistics: text.statistics() }, text))
    }

    /// The index's totals.
    pub(crate) fn totals(&self) -> Totals {
        Totals { rows: self.statistics.rows.max(1) as f64, tokens: self.statistics.tokens.iter().sum::<u64>() as f64 }
    }
}

/// The full-text index's store-wide totals: rows (at least one), and tokens over every field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Totals {
    pub rows: f64,
    pub tokens: f64,
}

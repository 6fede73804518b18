//! The rows of the documents table an index holds: per row number, the document's dense number and text size.

use std::collections::HashMap;

/// What the index knows of one row of the documents table: its dense number, and the size of its text as
/// the full-text index counts it (kept here, in row order, because full-text matches arrive in row order).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DocRow {
    pub dense: u32,
    pub tokens: u32,
}

/// Row number → [`DocRow`]: a plain array over row numbers (they are dense in practice: documents are numbered
/// upwards by SQLite), or a hash map when they are too sparse for that.
#[derive(Debug)]
pub(crate) enum RowidMap {
    Array(Vec<DocRow>),
    Hash(HashMap<i64, DocRow>),
}

impl RowidMap {
    /// The map of `rowids` (dense number → row number), with `tokens` per dense number (0 where it is short).
    pub(crate) fn new(rowids: &[i64], tokens: &[u32]) -> RowidMap {
        let max = rowids.iter().copied().max().unwrap_or(0);
        let min = rowids.iter().copied().min().unwrap_or(0);
        let row = |i: usize| DocRow { dense: i as u32, tokens: tokens.get(i).copied().unwrap_or(0) };
        if min >= 0 && (max as u64) < 4 * rowids.len() as u64 + 1_000_000 {
            let mut array = vec![DocRow { dense: u32::MAX, tokens: 0 }; max as usize + 1];
            for (i, &r) in rowids.iter().enumerate() {
                array[r as usize] = row(i);
            }
            RowidMap::Array(array)
        } else {
            RowidMap::Hash(rowids.iter().enumerate().map(|(i, &r)| (r, row(i))).collect())
        }
    }

    #[inline]
    pub(crate) fn get(&self, rowid: i64) -> Option<DocRow> {
        match self {
            RowidMap::Array(a) => {
                usize::try_from(rowid).ok().and_then(|r| a.get(r)).copied().filter(|r| r.dense != u32::MAX)
            }
            RowidMap::Hash(h) => h.get(&rowid).copied(),
        }
    }
}

//! Collecting full-text matches through FTS5, and scoring only those a search can show.
//!
//! A search needs every document the text matches (the facet counts are counted over them) but the scores of only
//! those that pass the facet filters. Reading every match as a result row, with FTS5's own `bm25()` per row, cost
//! about a microsecond a match (the row's size is a statement on FTS5's `docsize` table, and every row crosses the
//! SQL API). Instead, one statement, `SELECT 1 FROM documents_fts WHERE documents_fts MATCH ? AND
//! studio_collect(documents_fts)`, runs `studio_collect`, an FTS5 auxiliary function of ours, on every matching row
//! and returns no row: the function marks the row's document in a bit set and scores it only when the search can
//! show it, into the collector of the running [`matches`] call, with the row's size from the in-memory index.
//! Scores use the formula ([`super::score`]) of `bm25(documents_fts, 5.0, 2.0, 1.0)` (the same numbers for a query
//! of several phrases; for one phrase the same order, its inverse document frequency, a common factor, being left
//! out). `studio_rank(documents_fts)` is the same score as a plain function, for any query. The same walk, for a
//! single word, collects what the index keeps of the most common terms ([`term_list`], see [`super::common_terms`]).
//! `studio_postings` walks one phrase's list inside a single call, for the `text` similarity plugin ([`postings`],
//! see [`super::text_similar`]). The functions themselves, FTS5's side of this, are in [`super::fts_functions`]:
//! they reach the running call's collector through [`COLLECTOR`]; this module never calls them but by SQL.

use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::ptr;

use roaring::RoaringBitmap;
use rusqlite::{Connection, OptionalExtension};

use super::index::SpaceIndex;
use super::matches::Matches;
use crate::error::EngineError;

/// Where `studio_collect` puts what it sees, for one run of [`matches`] or [`term_list`].
pub(crate) struct Collector<'a> {
    pub index: &'a SpaceIndex,
    pub wanted: Option<&'a RoaringBitmap>,
    /// One bit per dense number, least significant bit first.
    pub bits: Vec<u8>,
    pub scored: Vec<(u32, f64)>,
    /// For [`term_list`]: what is collected of the query's one phrase (instead of scores).
    pub term: Option<&'a mut TermCollect>,
    /// For [`postings`]: the documents of the search space the query matches, with the first phrase's weighted
    /// frequency (instead of scores).
    pub postings: Option<&'a mut Vec<Posting>>,
    /// Per phrase of the query, the rows of the whole store having it, where the caller knows them (bm25's
    /// statistics then need no walk of the phrase's list).
    pub known_rows: &'a [Option<u64>],
}

thread_local! {
    /// The collector of the query this thread is running: set by [`matches`] for exactly as long as it runs.
    pub(crate) static COLLECTOR: Cell<*mut c_void> = const { Cell::new(ptr::null_mut()) };
}

/// Clears the collector when [`matches`] returns, whichever way.
struct CollectorGuard;

impl Drop for CollectorGuard {
    fn drop(&mut self) {
        COLLECTOR.with(|c| c.set(ptr::null_mut()));
    }
}

/// The documents of `index` matching an FTS5 expression, with the scores of those in `wanted` (of all of
/// them without `wanted`). `known_rows` may give, per phrase, the rows of the whole store having it.
pub(crate) fn matches(
    conn: &Connection,
    index: &SpaceIndex,
    expression: &str,
    wanted: Option<&RoaringBitmap>,
    known_rows: &[Option<u64>],
) -> Result<Matches, EngineError> {
    let mut collector = Collector {
        index,
        wanted,
        bits: vec![0; index.rowids.len().div_ceil(8)],
        scored: Vec::new(),
        term: None,
        postings: None,
        known_rows,
    };
    collect(conn, expression, &mut collector)?;
    Ok(Matches { all: RoaringBitmap::from_lsb0_bytes(0, &collector.bits), scored: collector.scored })
}

/// Runs an FTS5 expression with `studio_collect` putting every matching row into `collector`.
fn collect(conn: &Connection, expression: &str, collector: &mut Collector) -> Result<(), EngineError> {
    // `studio_collect` answers NULL, so the statement returns no row: one step runs the whole query.
    let sql = "SELECT 1 FROM documents_fts WHERE documents_fts MATCH ?1 AND studio_collect(documents_fts)";
    step_with(conn, sql, expression, collector)
}

/// Takes one step of the statement `sql` on the FTS5 expression `expression`, with `collector` as the one the
/// statement's auxiliary functions of ours put what they see into.
fn step_with(conn: &Connection, sql: &str, expression: &str, collector: &mut Collector) -> Result<(), EngineError> {
    COLLECTOR.with(|c| c.set((collector as *mut Collector).cast()));
    let guard = CollectorGuard;
    conn.prepare_cached(sql)?.query([expression])?.next()?;
    drop(guard);
    Ok(())
}

/// What [`term_list`] collects of one term (or phrase).
pub(crate) struct TermCollect {
    /// The documents of the search space having the term: one bit per dense number, least significant first.
    pub bits: Vec<u8>,
    /// Per dense number, the term's weighted frequency in the document (title 5, description 2, body 1 per
    /// occurrence, as bm25 weighs them) up to [`u8::MAX`], which says it is in `large`; entries of documents
    /// without the term are left as they were. One byte each, so that the collections of a walk stay in the
    /// processor's cache while rows arrive in an order other than the documents'.
    pub frequencies: Vec<u8>,
    /// Weighted frequencies from [`u8::MAX`] on, by dense number.
    pub large: HashMap<u32, u32>,
    /// Rows of the whole store having the term.
    pub rows: u64,
}

impl TermCollect {
    /// A collection for `index`, reusing the frequencies' memory of an earlier one.
    pub(crate) fn new(index: &SpaceIndex, mut frequencies: Vec<u8>) -> TermCollect {
        frequencies.resize(index.rowids.len(), 0);
        TermCollect { bits: vec![0; index.rowids.len().div_ceil(8)], frequencies, large: HashMap::new(), rows: 0 }
    }
}

/// Collects the documents of an FTS5 expression of one phrase (a word, a phrase, a prefix) into `into`,
/// walking its list in FTS5 once.
pub(crate) fn term_list(
    conn: &Connection,
    index: &SpaceIndex,
    phrase: &str,
    into: &mut TermCollect,
) -> Result<(), EngineError> {
    let mut collector = Collector {
        index,
        wanted: None,
        bits: Vec::new(),
        scored: Vec::new(),
        term: Some(into),
        postings: None,
        known_rows: &[],
    };
    collect(conn, phrase, &mut collector)
}

/// A document matching a query, with what bm25 reads of it for the query's first phrase.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Posting {
    pub dense: u32,
    /// The document's size in tokens.
    pub tokens: u32,
    /// The first phrase's weighted frequency in the document (title 5, description 2, body 1 per occurrence).
    pub frequency: u32,
}

/// Appends to `into` the documents of `index` having `phrase` (an FTS5 expression of one phrase), in the order
/// of their rows, each with the phrase's weighted frequency; with `wanted`, only those of its documents. The
/// phrase's list is walked inside one call of `studio_postings` (no statement step per row), reading the
/// positions of the wanted rows only.
pub(crate) fn postings(
    conn: &Connection,
    index: &SpaceIndex,
    phrase: &str,
    wanted: Option<&RoaringBitmap>,
    into: &mut Vec<Posting>,
) -> Result<(), EngineError> {
    let mut collector = Collector {
        index,
        wanted,
        bits: Vec::new(),
        scored: Vec::new(),
        term: None,
        postings: Some(into),
        known_rows: &[],
    };
    let sql = "SELECT studio_postings(documents_fts) FROM documents_fts WHERE documents_fts MATCH ?1 LIMIT 1";
    step_with(conn, sql, phrase, &mut collector)
}

/// The rows of the whole store having `phrase` (an FTS5 expression of one phrase), counted up to `most`.
pub(crate) fn rows_having(conn: &Connection, phrase: &str, most: u64) -> Result<u64, EngineError> {
    let most = i64::try_from(most).unwrap_or(i64::MAX);
    let rows: Option<i64> = conn
        .prepare_cached(
            "SELECT studio_rows(documents_fts, ?2) FROM documents_fts WHERE documents_fts MATCH ?1 LIMIT 1",
        )?
        .query_row(rusqlite::params![phrase, most], |r| r.get(0))
        .optional()?;
    Ok(rows.unwrap_or(0).max(0) as u64)
}

#[cfg(test)]
mod tests;

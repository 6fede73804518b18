//! Collecting full-text matches, and scoring only those a search can show.
//!
//! A search needs every document the text matches (the facet counts are counted over them) but the scores of
//! only those that pass the facet filters. Reading every match as a result row, with FTS5's own `bm25()`
//! per row, cost about a microsecond a match (the row's size is a statement on FTS5's `docsize` table, and
//! every row crosses the SQL API). Instead, one statement,
//! `SELECT 1 FROM documents_fts WHERE documents_fts MATCH ? AND studio_collect(documents_fts)`, runs
//! `studio_collect`, an FTS5 auxiliary function of ours, on every matching row and returns no row: the function
//! marks the row's document in a bit set and scores it only when the search can show it, into the collector of
//! the running [`matches`] call, with the row's size from the in-memory index. Scores use the formula of
//! `bm25(documents_fts, 5.0, 2.0, 1.0)` (the same numbers for a query of several phrases; for one phrase the
//! same order, its inverse document frequency, a common factor, being left out). `studio_rank(documents_fts)`
//! is the same score as a plain function, for any query.

use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ffi::{c_int, c_void};
use std::ptr;

use roaring::RoaringBitmap;
use rusqlite::{ffi, Connection};

use super::index::{DocRow, SpaceIndex};
use crate::error::StoreError;

/// Column weights over (title, description, body).
const WEIGHTS: [f64; 3] = [5.0, 2.0, 1.0];
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// What a full-text query found in one search space.
#[derive(Debug)]
pub(crate) struct Matches {
    /// Every matching document (dense numbers).
    pub all: RoaringBitmap,
    /// The matching documents that were wanted, each with its score (lower is better, as FTS5's bm25), in no
    /// particular order.
    pub scored: Vec<(u32, f64)>,
}

/// The documents ranked `start..start + count` among `scored`: lower scores first, equal scores by dense
/// number (result order). Keeps only the best `start + count` while reading, so a page of a million matches
/// costs one comparison for most of them.
pub(crate) fn page(scored: impl Iterator<Item = (u32, f64)>, start: usize, count: usize) -> Vec<u32> {
    let keep = start.saturating_add(count);
    if keep == 0 {
        return Vec::new();
    }
    let mut best: BinaryHeap<Ranked> = BinaryHeap::new();
    for (doc, score) in scored {
        let ranked = Ranked { score, doc };
        if best.len() < keep {
            best.push(ranked);
        } else if best.peek().is_some_and(|worst| ranked < *worst) {
            best.pop();
            best.push(ranked);
        }
    }
    best.into_sorted_vec().into_iter().skip(start).map(|r| r.doc).collect()
}

/// A scored document, ordered as results are: by score, then by dense number.
#[derive(Debug, Clone, Copy)]
struct Ranked {
    score: f64,
    doc: u32,
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score.total_cmp(&other.score).then(self.doc.cmp(&other.doc))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

/// Where `studio_collect` puts what it sees, for one run of [`matches`].
struct Collector<'a> {
    index: &'a SpaceIndex,
    wanted: Option<&'a RoaringBitmap>,
    /// One bit per dense number, least significant bit first.
    bits: Vec<u8>,
    scored: Vec<(u32, f64)>,
}

thread_local! {
    /// The collector of the query this thread is running: set by [`matches`] for exactly as long as it runs.
    static COLLECTOR: Cell<*mut c_void> = const { Cell::new(ptr::null_mut()) };
}

/// Clears the collector when [`matches`] returns, whichever way.
struct CollectorGuard;

impl Drop for CollectorGuard {
    fn drop(&mut self) {
        COLLECTOR.with(|c| c.set(ptr::null_mut()));
    }
}

/// The documents of `index` matching an FTS5 expression, with the scores of those in `wanted` (of all of
/// them without `wanted`).
pub(crate) fn matches(
    conn: &Connection,
    index: &SpaceIndex,
    expression: &str,
    wanted: Option<&RoaringBitmap>,
) -> Result<Matches, StoreError> {
    let mut collector = Collector { index, wanted, bits: vec![0; index.rowids.len().div_ceil(8)], scored: Vec::new() };
    COLLECTOR.with(|c| c.set((&mut collector as *mut Collector).cast()));
    let guard = CollectorGuard;
    // `studio_collect` answers NULL, so the statement returns no row: one step runs the whole query.
    conn.prepare_cached("SELECT 1 FROM documents_fts WHERE documents_fts MATCH ?1 AND studio_collect(documents_fts)")?
        .query([expression])?
        .next()?;
    drop(guard);
    Ok(Matches { all: RoaringBitmap::from_lsb0_bytes(0, &collector.bits), scored: collector.scored })
}

/// Registers `studio_rank` and `studio_collect` on a connection (every connection of the store's pool gets it).
pub(crate) fn register(conn: &Connection) -> rusqlite::Result<()> {
    // SAFETY: the handle is the live connection's; `fts5(?1)` with a bound "fts5_api_ptr" pointer is how
    // SQLite documents obtaining the FTS5 API, and the statement is finalized before returning.
    unsafe {
        let db = conn.handle();
        let mut stmt: *mut ffi::sqlite3_stmt = ptr::null_mut();
        let rc = ffi::sqlite3_prepare_v2(db, c"SELECT fts5(?1)".as_ptr(), -1, &mut stmt, ptr::null_mut());
        if rc != ffi::SQLITE_OK {
            return Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), Some("cannot reach FTS5".into())));
        }
        let mut api: *mut ffi::fts5_api = ptr::null_mut();
        ffi::sqlite3_bind_pointer(
            stmt,
            1,
            (&mut api as *mut *mut ffi::fts5_api).cast(),
            c"fts5_api_ptr".as_ptr(),
            None,
        );
        ffi::sqlite3_step(stmt);
        ffi::sqlite3_finalize(stmt);
        let create = if api.is_null() { None } else { (*api).xCreateFunction };
        let Some(create) = create else {
            return Err(rusqlite::Error::SqliteFailure(
                ffi::Error::new(ffi::SQLITE_ERROR),
                Some("FTS5 is not available".into()),
            ));
        };
        let functions: [(&std::ffi::CStr, ffi::fts5_extension_function); 2] =
            [(c"studio_rank", Some(studio_rank)), (c"studio_collect", Some(studio_collect))];
        for (name, function) in functions {
            let rc = create(api, name.as_ptr(), ptr::null_mut(), function, None);
            if rc != ffi::SQLITE_OK {
                return Err(rusqlite::Error::SqliteFailure(
                    ffi::Error::new(rc),
                    Some(format!("cannot register {}", name.to_string_lossy())),
                ));
            }
        }
    }
    Ok(())
}

/// What bm25 needs once per query: the average row size and each phrase's inverse document frequency.
struct QueryStats {
    avgdl: f64,
    idf: Vec<f64>,
}

unsafe extern "C" fn free_stats(p: *mut c_void) {
    // SAFETY: `p` is the Box<QueryStats> leaked by `query_stats`, handed back once by FTS5.
    drop(unsafe { Box::from_raw(p.cast::<QueryStats>()) });
}

unsafe extern "C" fn count_row(_: *const ffi::Fts5ExtensionApi, _: *mut ffi::Fts5Context, hits: *mut c_void) -> c_int {
    // SAFETY: `hits` is the i64 `query_stats` passes to xQueryPhrase.
    unsafe { *hits.cast::<i64>() += 1 };
    ffi::SQLITE_OK
}

/// The query's statistics, computed on the first scored row and kept by FTS5 until the query ends.
unsafe fn query_stats<'a>(api: &ffi::Fts5ExtensionApi, fts: *mut ffi::Fts5Context) -> Result<&'a QueryStats, c_int> {
    let (Some(get), Some(set), Some(rows), Some(total), Some(phrases), Some(query_phrase)) =
        (api.xGetAuxdata, api.xSetAuxdata, api.xRowCount, api.xColumnTotalSize, api.xPhraseCount, api.xQueryPhrase)
    else {
        return Err(ffi::SQLITE_ERROR);
    };
    // SAFETY: the callbacks are FTS5's own for this cursor; the aux data is only ever a QueryStats.
    unsafe {
        let kept = get(fts, 0).cast::<QueryStats>();
        if !kept.is_null() {
            return Ok(&*kept);
        }
        let (mut n_rows, mut n_tokens) = (0i64, 0i64);
        check(rows(fts, &mut n_rows))?;
        check(total(fts, -1, &mut n_tokens))?;
        let n_rows = n_rows.max(1) as f64;
        let count = phrases(fts);
        let mut idf = Vec::new();
        if count == 1 {
            // One phrase: its idf multiplies every score alike and cannot change the order, so the second walk
            // over all of the phrase's matches that would count them is saved.
            idf.push(1.0);
        } else {
            for phrase in 0..count {
                let mut hits = 0i64;
                check(query_phrase(fts, phrase, (&mut hits as *mut i64).cast(), Some(count_row)))?;
                let value = ((n_rows - hits as f64 + 0.5) / (hits as f64 + 0.5)).ln();
                idf.push(if value <= 0.0 { 1e-6 } else { value });
            }
        }
        let stats = Box::into_raw(Box::new(QueryStats { avgdl: n_tokens as f64 / n_rows, idf }));
        check(set(fts, stats.cast(), Some(free_stats)))?;
        Ok(&*stats)
    }
}

fn check(rc: c_int) -> Result<(), c_int> {
    if rc == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(rc)
    }
}

/// The bm25 score of the current row (FTS5's formula: weighted term frequencies over the whole row's size).
/// `tokens` is the row's size when the caller knows it; otherwise FTS5 looks it up.
unsafe fn score(api: &ffi::Fts5ExtensionApi, fts: *mut ffi::Fts5Context, tokens: Option<u32>) -> Result<f64, c_int> {
    let (Some(inst_count), Some(inst), Some(size)) = (api.xInstCount, api.xInst, api.xColumnSize) else {
        return Err(ffi::SQLITE_ERROR);
    };
    // SAFETY: FTS5's callbacks for the current row of this cursor.
    unsafe {
        let stats = query_stats(api, fts)?;
        // Weighted frequency per phrase: on the stack for the usual few phrases (this runs once per match).
        let mut few = [0.0f64; 8];
        let mut many = Vec::new();
        let freq: &mut [f64] = if stats.idf.len() <= few.len() {
            &mut few[..stats.idf.len()]
        } else {
            many.resize(stats.idf.len(), 0.0);
            &mut many
        };
        let mut n = 0;
        check(inst_count(fts, &mut n))?;
        for i in 0..n {
            let (mut phrase, mut column, mut offset) = (0, 0, 0);
            check(inst(fts, i, &mut phrase, &mut column, &mut offset))?;
            if let Some(f) = freq.get_mut(phrase as usize) {
                *f += WEIGHTS.get(column as usize).copied().unwrap_or(1.0);
            }
        }
        let tokens = match tokens {
            Some(t) => t as c_int,
            None => {
                let mut t = 0;
                check(size(fts, -1, &mut t))?;
                t
            }
        };
        let norm = K1 * (1.0 - B + B * tokens as f64 / stats.avgdl);
        let sum: f64 = freq.iter().zip(&stats.idf).map(|(f, idf)| idf * (f * (K1 + 1.0)) / (f + norm)).sum();
        Ok(-sum)
    }
}

unsafe extern "C" fn studio_rank(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    _n: c_int,
    _values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 calls this with its API table and the cursor's context, for one row.
    unsafe {
        match score(&*api, fts, None) {
            Ok(s) => ffi::sqlite3_result_double(ctx, s),
            Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
        }
    }
}

unsafe extern "C" fn studio_collect(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    _n: c_int,
    _values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 calls this with its API table and the cursor's context, for one row, on the thread running
    // the statement; a non-null collector is the live one of the `matches` call running that statement.
    unsafe {
        let collector = COLLECTOR.with(Cell::get).cast::<Collector>();
        let (Some(collector), Some(rowid)) = (collector.as_mut(), (*api).xRowid) else {
            return ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
        };
        let Some(DocRow { dense, tokens }) = collector.index.row(rowid(fts)) else { return };
        if let Some(byte) = collector.bits.get_mut(dense as usize / 8) {
            *byte |= 1 << (dense % 8);
        }
        if collector.wanted.is_none_or(|w| w.contains(dense)) {
            match score(&*api, fts, Some(tokens)) {
                Ok(s) => collector.scored.push((dense, s)),
                Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use roaring::RoaringBitmap;

    use super::matches;
    use crate::search::index::SpaceIndex;
    use crate::{demo, Store};

    /// `matches` (the row sizes kept in the index, not looked up) finds every row FTS5 finds, scores exactly
    /// the wanted ones, and each score is FTS5's own bm25.
    #[test]
    fn matches_collect_every_row_and_score_the_wanted_ones() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_dir(dir.path()).unwrap();
        demo::load_demo(&store, &mut |_| {}).unwrap();
        let mut conn = store.conn().unwrap();
        let index = SpaceIndex::build(&mut conn, demo::DEMO_SPACE).unwrap();
        let mut stmt = conn
            .prepare("SELECT rowid, bm25(documents_fts, 5.0, 2.0, 1.0) FROM documents_fts WHERE documents_fts MATCH ?1")
            .unwrap();
        for expression in
            ["\"the\" \"of\"", "\"energy\" OR \"harbour\"", "\"the\" \"wa\"*", "\"city council\" OR \"water\""]
        {
            let bm25: Vec<(u32, f64)> = stmt
                .query_map([expression], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?)))
                .unwrap()
                .map(|r| r.unwrap())
                .map(|(rowid, score)| (index.dense(rowid).expect("a demo document"), score))
                .collect();
            assert!(bm25.len() > 10, "{expression} matches enough rows ({})", bm25.len());
            let every = matches(&conn, &index, expression, None).unwrap();
            assert_eq!(every.all, bm25.iter().map(|p| p.0).collect::<RoaringBitmap>(), "matches of {expression}");
            let mut scored = every.scored.clone();
            scored.sort_by_key(|p| p.0);
            let mut expected = bm25.clone();
            expected.sort_by_key(|p| p.0);
            assert_eq!(scored.len(), expected.len());
            for ((dense, ours), (_, theirs)) in scored.iter().zip(&expected) {
                assert!(
                    (ours - theirs).abs() <= 1e-9 * theirs.abs().max(1.0),
                    "{expression} doc {dense}: {ours} vs {theirs}"
                );
            }
            let wanted: RoaringBitmap = bm25.iter().map(|p| p.0).step_by(3).collect();
            let some = matches(&conn, &index, expression, Some(&wanted)).unwrap();
            assert_eq!(some.all, every.all, "every match is collected whatever is wanted");
            let mut scored_docs: Vec<u32> = some.scored.iter().map(|p| p.0).collect();
            scored_docs.sort_unstable();
            assert_eq!(scored_docs, wanted.iter().collect::<Vec<u32>>(), "only the wanted ones are scored");
        }
    }

    /// Outside a search (no scope) `studio_rank` scores every row: with several phrases each score is FTS5's
    /// own bm25; with one, the rows come in bm25's order.
    #[test]
    fn scores_follow_fts5_bm25() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_dir(dir.path()).unwrap();
        demo::load_demo(&store, &mut |_| {}).unwrap();
        let conn = store.conn().unwrap();
        let mut stmt = conn
            .prepare(
                "SELECT rowid, bm25(documents_fts, 5.0, 2.0, 1.0), studio_rank(documents_fts)
                 FROM documents_fts WHERE documents_fts MATCH ?1",
            )
            .unwrap();
        let mut compared = 0;
        for expression in ["\"river\" \"flood\"", "\"energy\" OR \"harbour\"", "\"the\" \"wa\"*"] {
            let rows: Vec<(i64, f64, Option<f64>)> = stmt
                .query_map([expression], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            for (rowid, bm25, ours) in &rows {
                let ours = ours.unwrap_or_else(|| panic!("row {rowid} of {expression} has no score"));
                assert!(
                    (bm25 - ours).abs() <= 1e-9 * bm25.abs().max(1.0),
                    "{expression} row {rowid}: bm25 {bm25}, ours {ours}"
                );
            }
            compared += rows.len();
        }
        for expression in ["\"the\"", "\"climate policy\"", "\"wa\"*"] {
            let rows: Vec<(i64, f64, Option<f64>)> = stmt
                .query_map([expression], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            // Row ids ordered by one of the two scores (FTS5's, ours), ties by row id.
            let order = |which: usize| {
                let mut sorted: Vec<(f64, i64)> =
                    rows.iter().map(|r| (if which == 0 { r.1 } else { r.2.expect("scored") }, r.0)).collect();
                sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                sorted.into_iter().map(|r| r.1).collect::<Vec<i64>>()
            };
            assert_eq!(order(0), order(1), "order of {expression}");
            compared += rows.len();
        }
        assert!(compared > 100, "the queries matched enough rows to compare ({compared})");
    }
}

//! Scoring full-text matches only where a score can matter.
//!
//! FTS5's own `bm25()` scores every matching row, reading the row's size from its `docsize` table each time;
//! for a frequent word that is most of a search's time, although the facet filters then drop most of those
//! rows. `studio_rank(documents_fts)` is an FTS5 auxiliary function with the formula of
//! `bm25(documents_fts, 5.0, 2.0, 1.0)` (the same numbers for a query of several phrases; for one phrase the
//! same order, its inverse document frequency, a common factor, being left out), which scores a row only when
//! the document is one the search can show (in the index's search space and passing the filters) and answers
//! NULL for the others at the cost of a lookup. The full-text query stays on its own, as before; only what it computes per row
//! changes.

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::ptr;

use roaring::RoaringBitmap;
use rusqlite::{ffi, Connection};

use super::index::SpaceIndex;
use crate::error::StoreError;

/// Column weights over (title, description, body).
const WEIGHTS: [f64; 3] = [5.0, 2.0, 1.0];
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Which rows [`matches`] scores: those of `index` whose dense number is in `wanted` (all of them when
/// `wanted` is `None`).
#[derive(Clone, Copy)]
struct Scope {
    index: *const SpaceIndex,
    wanted: *const RoaringBitmap,
}

thread_local! {
    /// The scope of the query this thread is running; set by [`matches`] for exactly as long as it runs.
    static SCOPE: Cell<Option<Scope>> = const { Cell::new(None) };
}

/// Clears the scope when [`matches`] returns, whichever way.
struct ScopeGuard;

impl Drop for ScopeGuard {
    fn drop(&mut self) {
        SCOPE.with(|s| s.set(None));
    }
}

/// The dense numbers of the documents of `index` matching an FTS5 expression, in dense order, each with its
/// score (lower is better, as FTS5's bm25) when it is in `wanted` (or always, without `wanted`).
pub(crate) fn matches(
    conn: &Connection,
    index: &SpaceIndex,
    expression: &str,
    wanted: Option<&RoaringBitmap>,
) -> Result<Vec<(u32, Option<f64>)>, StoreError> {
    let scope = Scope { index, wanted: wanted.map_or(ptr::null(), |w| w as *const RoaringBitmap) };
    SCOPE.with(|s| s.set(Some(scope)));
    let _guard = ScopeGuard;
    let mut stmt = conn
        .prepare_cached("SELECT rowid, studio_rank(documents_fts) FROM documents_fts WHERE documents_fts MATCH ?1")?;
    let mut rows = stmt.query([expression])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        if let Some(dense) = index.dense(row.get(0)?) {
            out.push((dense, row.get::<_, Option<f64>>(1)?));
        }
    }
    out.sort_unstable_by_key(|p| p.0);
    out.dedup_by_key(|p| p.0);
    Ok(out)
}

/// Registers `studio_rank` on a connection (every connection of the store's pool gets it).
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
        let rc = create(api, c"studio_rank".as_ptr(), ptr::null_mut(), Some(studio_rank), None);
        if rc != ffi::SQLITE_OK {
            return Err(rusqlite::Error::SqliteFailure(
                ffi::Error::new(rc),
                Some("cannot register studio_rank".into()),
            ));
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

/// True when the row is one the running search can show.
fn wanted(rowid: i64) -> bool {
    match SCOPE.with(Cell::get) {
        None => true,
        Some(scope) => {
            // SAFETY: `matches` keeps both alive while the query runs and clears the scope before returning.
            let index = unsafe { &*scope.index };
            match index.dense(rowid) {
                None => false,
                Some(dense) => scope.wanted.is_null() || unsafe { &*scope.wanted }.contains(dense),
            }
        }
    }
}

/// The bm25 score of the current row (FTS5's formula: weighted term frequencies over the whole row's size).
unsafe fn score(api: &ffi::Fts5ExtensionApi, fts: *mut ffi::Fts5Context) -> Result<f64, c_int> {
    let (Some(inst_count), Some(inst), Some(size)) = (api.xInstCount, api.xInst, api.xColumnSize) else {
        return Err(ffi::SQLITE_ERROR);
    };
    // SAFETY: FTS5's callbacks for the current row of this cursor.
    unsafe {
        let stats = query_stats(api, fts)?;
        let mut freq = vec![0.0f64; stats.idf.len()];
        let mut n = 0;
        check(inst_count(fts, &mut n))?;
        for i in 0..n {
            let (mut phrase, mut column, mut offset) = (0, 0, 0);
            check(inst(fts, i, &mut phrase, &mut column, &mut offset))?;
            if let Some(f) = freq.get_mut(phrase as usize) {
                *f += WEIGHTS.get(column as usize).copied().unwrap_or(1.0);
            }
        }
        let mut tokens = 0;
        check(size(fts, -1, &mut tokens))?;
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
        let api = &*api;
        let Some(rowid) = api.xRowid else {
            return ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_ERROR);
        };
        if !wanted(rowid(fts)) {
            return ffi::sqlite3_result_null(ctx);
        }
        match score(api, fts) {
            Ok(s) => ffi::sqlite3_result_double(ctx, s),
            Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{demo, Store};

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
            let rows: Vec<(i64, f64, Option<f64>)> =
                stmt.query_map([expression], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
            for (rowid, bm25, ours) in &rows {
                let ours = ours.unwrap_or_else(|| panic!("row {rowid} of {expression} has no score"));
                assert!((bm25 - ours).abs() <= 1e-9 * bm25.abs().max(1.0), "{expression} row {rowid}: bm25 {bm25}, ours {ours}");
            }
            compared += rows.len();
        }
        for expression in ["\"the\"", "\"climate policy\"", "\"wa\"*"] {
            let rows: Vec<(i64, f64, Option<f64>)> =
                stmt.query_map([expression], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
            let order = |score: &dyn Fn(&(i64, f64, Option<f64>)) -> f64| {
                let mut sorted = rows.clone();
                sorted.sort_by(|a, b| score(a).total_cmp(&score(b)).then(a.0.cmp(&b.0)));
                sorted.into_iter().map(|r| r.0).collect::<Vec<i64>>()
            };
            assert_eq!(order(&|r| r.1), order(&|r| r.2.expect("scored")), "order of {expression}");
            compared += rows.len();
        }
        assert!(compared > 100, "the queries matched enough rows to compare ({compared})");
    }
}

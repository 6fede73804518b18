//! Collecting full-text matches, and scoring only those a search can show.
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
//! single word, collects what the index keeps of the most common terms ([`term_list`], see [`super::common`]).
//! `studio_postings` walks one phrase's list inside a single call, for the `text` similarity plugin ([`postings`],
//! see [`super::text_similar`]).

use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::ptr;

use roaring::RoaringBitmap;
use rusqlite::{ffi, Connection, OptionalExtension};

use super::index::{DocRow, SpaceIndex};
use super::score::{bm25, idf, WEIGHTS};
use crate::error::EngineError;

/// What a full-text query found in one search space.
#[derive(Debug)]
pub(crate) struct Matches {
    /// Every matching document (dense numbers).
    pub all: RoaringBitmap,
    /// The matching documents that were wanted, each with its score (lower is better, as FTS5's bm25), in no
    /// particular order.
    pub scored: Vec<(u32, f64)>,
}

/// Where `studio_collect` puts what it sees, for one run of [`matches`] or [`term_list`].
struct Collector<'a> {
    index: &'a SpaceIndex,
    wanted: Option<&'a RoaringBitmap>,
    /// One bit per dense number, least significant bit first.
    bits: Vec<u8>,
    scored: Vec<(u32, f64)>,
    /// For [`term_list`]: what is collected of the query's one phrase (instead of scores).
    term: Option<&'a mut TermCollect>,
    /// For [`postings`]: the documents of the search space the query matches, with the first phrase's weighted
    /// frequency (instead of scores).
    postings: Option<&'a mut Vec<Posting>>,
    /// Per phrase of the query, the rows of the whole store having it, where the caller knows them (bm25's
    /// statistics then need no walk of the phrase's list).
    known_rows: &'a [Option<u64>],
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

/// Registers the SQL functions the engine's queries use, `studio_rank`, `studio_collect`, `studio_rows` and
/// `studio_postings` (FTS5 auxiliary functions), on a connection (every connection of the store's pool gets them).
pub fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
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
        let functions: [(&std::ffi::CStr, ffi::fts5_extension_function); 4] = [
            (c"studio_rank", Some(studio_rank)),
            (c"studio_collect", Some(studio_collect)),
            (c"studio_rows", Some(studio_rows)),
            (c"studio_postings", Some(studio_postings)),
        ];
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

/// Rows of a phrase counted by xQueryPhrase, which stops once there are `most`.
struct RowCount {
    rows: i64,
    most: i64,
}

unsafe extern "C" fn count_row(_: *const ffi::Fts5ExtensionApi, _: *mut ffi::Fts5Context, count: *mut c_void) -> c_int {
    // SAFETY: `count` is the RowCount the caller of xQueryPhrase passes, alive for the whole call.
    let count = unsafe { &mut *count.cast::<RowCount>() };
    count.rows += 1;
    if count.rows >= count.most {
        // Ends the walk; xQueryPhrase answers SQLITE_OK.
        ffi::SQLITE_DONE
    } else {
        ffi::SQLITE_OK
    }
}

/// Counts the rows of the query's phrase `phrase`, up to `most`, by walking its list in FTS5 (no statement
/// step per row).
unsafe fn phrase_rows(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    phrase: c_int,
    most: i64,
) -> Result<i64, c_int> {
    let Some(query_phrase) = api.xQueryPhrase else { return Err(ffi::SQLITE_ERROR) };
    let mut count = RowCount { rows: 0, most: most.max(1) };
    // SAFETY: FTS5's callback for this cursor; `count` outlives the call.
    check(unsafe { query_phrase(fts, phrase, (&mut count as *mut RowCount).cast(), Some(count_row)) })?;
    Ok(count.rows)
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

/// The query's statistics, computed on the first scored row and kept by FTS5 until the query ends.
/// `known` gives, per phrase, the rows of the whole store having it where the caller knows them.
unsafe fn query_stats<'a>(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    known: &[Option<u64>],
) -> Result<&'a QueryStats, c_int> {
    let (Some(get), Some(set), Some(rows), Some(total), Some(phrases)) =
        (api.xGetAuxdata, api.xSetAuxdata, api.xRowCount, api.xColumnTotalSize, api.xPhraseCount)
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
                let hits = match known.get(phrase as usize).copied().flatten() {
                    Some(rows) => rows as f64,
                    None => phrase_rows(api, fts, phrase, i64::MAX)? as f64,
                };
                idf.push(self::idf(n_rows, hits));
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
/// `tokens` is the row's size when the caller knows it; otherwise FTS5 looks it up. `known` as for [`query_stats`].
unsafe fn score(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    tokens: Option<u32>,
    known: &[Option<u64>],
) -> Result<f64, c_int> {
    let (Some(inst_count), Some(inst), Some(size)) = (api.xInstCount, api.xInst, api.xColumnSize) else {
        return Err(ffi::SQLITE_ERROR);
    };
    // SAFETY: FTS5's callbacks for the current row of this cursor.
    unsafe {
        let stats = query_stats(api, fts, known)?;
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
        Ok(bm25(freq, &stats.idf, tokens as f64, stats.avgdl))
    }
}

/// The weighted frequency of the query's first phrase in the current row: per occurrence, its column's weight.
unsafe fn phrase_frequency(api: &ffi::Fts5ExtensionApi, fts: *mut ffi::Fts5Context) -> Result<u32, c_int> {
    let (Some(first), Some(next)) = (api.xPhraseFirst, api.xPhraseNext) else {
        return Err(ffi::SQLITE_ERROR);
    };
    let mut iter = ffi::Fts5PhraseIter { a: ptr::null(), b: ptr::null() };
    let (mut column, mut offset) = (0, 0);
    let mut frequency = 0u32;
    // SAFETY: FTS5's callbacks for the current row of this cursor; the iterator is FTS5's own, used in between.
    unsafe {
        check(first(fts, 0, &mut iter, &mut column, &mut offset))?;
        while column >= 0 {
            let weight = WEIGHTS.get(column as usize).copied().unwrap_or(1.0) as u32;
            frequency = frequency.saturating_add(weight);
            next(fts, &mut iter, &mut column, &mut offset);
        }
    }
    Ok(frequency)
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
        match score(&*api, fts, None, &[]) {
            Ok(s) => ffi::sqlite3_result_double(ctx, s),
            Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
        }
    }
}

/// `studio_rows(documents_fts, most)`: the rows of the whole store having the query's first phrase, counted up
/// to `most`; on any row of the query, which needs only one ([`rows_having`]).
unsafe extern "C" fn studio_rows(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    n: c_int,
    values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 calls this with its API table, the cursor's context and `n` argument values, for one row.
    unsafe {
        let most = if n >= 1 { ffi::sqlite3_value_int64(*values) } else { i64::MAX };
        match phrase_rows(&*api, fts, 0, most) {
            Ok(rows) => ffi::sqlite3_result_int64(ctx, rows),
            Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
        }
    }
}

/// `studio_postings(documents_fts)`: on any row of a query of one phrase, walks the phrase's whole list into the
/// postings of the running [`postings`] call.
unsafe extern "C" fn studio_postings(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    _n: c_int,
    _values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 calls this with its API table and the cursor's context, on the thread running the statement;
    // a non-null collector is the live one of the `postings` call running that statement, and outlives the walk.
    unsafe {
        let collector = COLLECTOR.with(Cell::get);
        let Some(query_phrase) = (*api).xQueryPhrase.filter(|_| !collector.is_null()) else {
            return ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
        };
        let rc = query_phrase(fts, 0, collector, Some(posting_row));
        if rc != ffi::SQLITE_OK {
            ffi::sqlite3_result_error_code(ctx, rc);
        }
    }
}

/// One row of the walk of [`studio_postings`]: its document, if the search space has it and it is wanted, with
/// the phrase's weighted frequency.
unsafe extern "C" fn posting_row(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    collector: *mut c_void,
) -> c_int {
    // SAFETY: `collector` is the Collector `studio_postings` passed to xQueryPhrase, alive for the whole walk;
    // `api` and `fts` are FTS5's for the walk's current row.
    unsafe {
        let collector = &mut *collector.cast::<Collector>();
        let (Some(rowid), Some(postings)) = ((*api).xRowid, collector.postings.as_deref_mut()) else {
            return ffi::SQLITE_MISUSE;
        };
        let Some(DocRow { dense, tokens }) = collector.index.row(rowid(fts)) else { return ffi::SQLITE_OK };
        if collector.wanted.is_some_and(|w| !w.contains(dense)) {
            return ffi::SQLITE_OK;
        }
        match phrase_frequency(&*api, fts) {
            Ok(frequency) => {
                postings.push(Posting { dense, tokens, frequency });
                ffi::SQLITE_OK
            }
            Err(rc) => rc,
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
        let row = collector.index.row(rowid(fts));
        if let Some(term) = collector.term.as_deref_mut() {
            let f = match phrase_frequency(&*api, fts) {
                Ok(f) => f,
                Err(rc) => return ffi::sqlite3_result_error_code(ctx, rc),
            };
            term.rows += 1;
            if let Some(DocRow { dense, .. }) = row {
                if let Some(byte) = term.bits.get_mut(dense as usize / 8) {
                    *byte |= 1 << (dense % 8);
                }
                if let Some(slot) = term.frequencies.get_mut(dense as usize) {
                    *slot = f.min(u32::from(u8::MAX)) as u8;
                }
                if f >= u32::from(u8::MAX) {
                    term.large.insert(dense, f);
                }
            }
            return;
        }
        let Some(DocRow { dense, tokens }) = row else { return };
        if let Some(byte) = collector.bits.get_mut(dense as usize / 8) {
            *byte |= 1 << (dense % 8);
        }
        if collector.wanted.is_none_or(|w| w.contains(dense)) {
            match score(&*api, fts, Some(tokens), collector.known_rows) {
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
    use crate::index::SpaceIndex;
    use crate::test_documents::{TestFiles, NEWS_SPACE};
    use crate::tuning::Tuned;

    /// `matches` (the row sizes kept in the index, not looked up) finds every row FTS5 finds, scores exactly
    /// the wanted ones, and each score is FTS5's own bm25.
    #[test]
    fn matches_collect_every_row_and_score_the_wanted_ones() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
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
                .map(|(rowid, score)| (index.dense(rowid).expect("a news document"), score))
                .collect();
            assert!(bm25.len() > 10, "{expression} matches enough rows ({})", bm25.len());
            let every = matches(&conn, &index, expression, None, &[]).unwrap();
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
            let some = matches(&conn, &index, expression, Some(&wanted), &[]).unwrap();
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
        let files = TestFiles::news();
        let conn = files.conn();
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

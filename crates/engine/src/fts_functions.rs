//! FTS5's side of the engine's full-text queries: the auxiliary functions `studio_collect`, `studio_rank`,
//! `studio_rows` and `studio_postings`, registered on every connection the engine is handed
//! ([`register_functions`]). They run inside FTS5's walk of a query's matches, one call per row, so they read the
//! row through FTS5's extension API and write into the collector of the running call of [`super::fts`]; all the
//! `unsafe` of the engine's FTS5 glue is here, each block with what makes it sound.

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::ptr;

use rusqlite::{ffi, Connection};

use super::doc_rows::DocRow;
use super::fts::{Collector, Posting, COLLECTOR};
use super::score::{bm25, idf, WEIGHTS};

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

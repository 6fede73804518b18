//! The text query parser: whatever is typed becomes either no condition or an FTS5 expression made only
//! of quoted strings, which SQLite accepts. Must hold: no panic, and FTS5 never reports a syntax error.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use rusqlite::Connection;
use studio_local::search::TextQuery;

thread_local! {
    static FTS: RefCell<Connection> = RefCell::new({
        let conn = Connection::open_in_memory().expect("an in-memory database");
        conn.execute_batch(
            "CREATE VIRTUAL TABLE t USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2');
             INSERT INTO t (body) VALUES ('solar energy in the green deal'), ('e-mail covid-19 café');",
        )
        .expect("the FTS5 table is made");
        conn
    });
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let query = TextQuery::parse(input);
    let Some(expression) = query.to_fts() else {
        assert!(query.is_empty());
        return;
    };
    assert!(!expression.contains('\0'), "a NUL reached the FTS5 expression");
    FTS.with(|conn| {
        let conn = conn.borrow();
        let result: rusqlite::Result<i64> =
            conn.query_row("SELECT count(*) FROM t WHERE t MATCH ?1", [&expression], |r| r.get(0));
        if let Err(e) = result {
            panic!("input {input:?} became the FTS5 expression {expression:?}, which SQLite refused: {e}");
        }
    });
});

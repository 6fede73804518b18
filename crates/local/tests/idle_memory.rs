//! Memory given back while idle (the desktop app turns it on): once no connection has been in use for a while,
//! the pages SQLite cached are dropped, and the store answers the same afterwards from its files.
//! Turning it on holds for the rest of this test binary, so every other test here also runs with releases between
//! its calls.

use std::time::{Duration, Instant};

use studio_local::{release_memory_when_idle, Store};

/// What SQLite holds of the process's memory, in bytes.
fn sqlite_memory() -> i64 {
    // SAFETY: a read of SQLite's memory counter; no pointer, safe from any thread.
    unsafe { rusqlite::ffi::sqlite3_memory_used() }
}

#[test]
fn an_idle_store_gives_its_cached_pages_back_and_answers_the_same_after() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let total = |store: &Store| -> i64 {
        store.conn().unwrap().query_row("SELECT sum(length(x)) FROM kept", [], |r| r.get(0)).unwrap()
    };
    {
        let conn = store.conn().unwrap();
        // A cache large enough for the whole table: 8 MB of rows read into it.
        conn.execute_batch(
            "PRAGMA main.cache_size = -65536;
             CREATE TABLE kept (x BLOB);
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8000)
             INSERT INTO kept SELECT randomblob(1000) FROM n;",
        )
        .unwrap();
        let read: i64 = conn.query_row("SELECT sum(length(x)) FROM kept", [], |r| r.get(0)).unwrap();
        assert_eq!(read, 8_000_000);
    }
    let filled = sqlite_memory();

    release_memory_when_idle(Duration::from_millis(20));
    // Other tests of this binary use connections meanwhile; the release comes at the first moment none does.
    let deadline = Instant::now() + Duration::from_secs(120);
    while sqlite_memory() > filled - 4_000_000 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        sqlite_memory() <= filled - 4_000_000,
        "SQLite still holds {} bytes, {} with the table read",
        sqlite_memory(),
        filled
    );
    assert_eq!(total(&store), 8_000_000, "the same answer from the files");
}

#[test]
fn sqlite_is_built_with_a_page_cache_per_connection() {
    // One cache shared by every connection of the process (SQLite's memory management) has them wait for each
    // other's every page; the build turns it off (.cargo/config.toml), and the release above works without it.
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let options: Vec<String> = store
        .conn()
        .unwrap()
        .prepare("SELECT compile_options FROM pragma_compile_options")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(options.iter().any(|o| o.starts_with("THREADSAFE=")), "the options are listed: {options:?}");
    assert!(!options.iter().any(|o| o == "ENABLE_MEMORY_MANAGEMENT"), "{options:?}");
}

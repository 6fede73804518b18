//! Closing the store: every clone of it closed at once, connections in use waited for, only its files left.

use studio_local::{LocalBackend, Store, StoreError};
use studio_testkit::io::sqlite_logs as logs;

#[test]
fn closing_one_clone_closes_the_store_for_all_and_leaves_only_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let held = LocalBackend::new(store.clone());
    let other = store.clone();
    studio_local::import_documents(&store, "s", &br#"{"id": "a", "title": "apple"}"#[..], &mut |_| {}).unwrap();
    other.conn().unwrap().execute_batch("PRAGMA user_version").unwrap();
    assert!(!logs(dir.path()).is_empty(), "an open store has its logs");

    store.close().unwrap();
    assert_eq!(logs(dir.path()), Vec::<String>::new(), "left behind");
    assert!(matches!(other.conn(), Err(StoreError::Closed { .. })));
    assert!(matches!(held.store().conn(), Err(StoreError::Closed { .. })));
    other.close().expect("closing a closed store does nothing");

    let again = Store::open_dir(dir.path()).unwrap();
    let count: i64 = again.conn().unwrap().query_row("SELECT count(*) FROM documents", [], |r| r.get(0)).unwrap();
    assert_eq!(count, 1, "what was written is kept");
}

#[test]
fn closing_waits_for_a_connection_in_use_and_closes_it_when_given_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let in_use = store.conn().unwrap();
    in_use.execute_batch("CREATE TABLE kept (x); INSERT INTO kept VALUES (1);").unwrap();
    let closing = {
        let store = store.clone();
        std::thread::spawn(move || store.close())
    };
    // Still usable while the close waits for it.
    in_use.execute_batch("INSERT INTO kept VALUES (2)").unwrap();
    drop(in_use);
    closing.join().unwrap().unwrap();
    assert_eq!(logs(dir.path()), Vec::<String>::new(), "left behind");
    let again = Store::open_dir(dir.path()).unwrap();
    let count: i64 = again.conn().unwrap().query_row("SELECT count(*) FROM kept", [], |r| r.get(0)).unwrap();
    assert_eq!(count, 2);
}

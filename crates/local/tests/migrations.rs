//! Opening a store written by an older Search Studio migrates it, after writing a backup copy of it as it was.

use serde_json::json;
use studio_local::{LocalBackend, Store, DB_FILE};
use studio_model::Backend;

#[tokio::test]
async fn an_older_store_is_backed_up_then_migrated_keeping_its_configurations() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(include_str!("../migrations/0001_configurations.sql")).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        let envelope = json!({"id": 1, "user": "ana", "created": "2025-01-01T00:00:00.000Z",
                              "config": {"title": "From schema 1", "searchSpace": "demo"}});
        conn.execute(
            "INSERT INTO configurations (user, created, search_space, envelope) VALUES ('ana', '2025-01-01T00:00:00.000Z', 'demo', ?1)",
            [envelope.to_string()],
        )
        .unwrap();
    }

    let backend = LocalBackend::new(Store::open(&path).unwrap());
    let list = backend.list_configurations().await.unwrap();
    assert_eq!(list.configurations.len(), 1);
    assert_eq!(list.configurations[0].config.title, "From schema 1");

    let backup = dir.path().join(format!("{DB_FILE}.v1.bak"));
    let copy = rusqlite::Connection::open(&backup).expect("a backup of the schema-1 store was written");
    let version: i64 = copy.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 1, "the backup is the store as it was before migrating");
    let title: String = copy
        .query_row("SELECT json_extract(envelope, '$.config.title') FROM configurations", [], |r| r.get(0))
        .unwrap();
    assert_eq!(title, "From schema 1");

    let migrated: i64 =
        rusqlite::Connection::open(&path).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert!(migrated > 1, "the store itself is at the newest schema ({migrated})");
    // A second open finds nothing to migrate and writes no new backup over the first.
    drop(backend);
    let modified = std::fs::metadata(&backup).unwrap().modified().unwrap();
    Store::open(&path).unwrap();
    assert_eq!(std::fs::metadata(&backup).unwrap().modified().unwrap(), modified);
}

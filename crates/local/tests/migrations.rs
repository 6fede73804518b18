//! Opening a store written by an older Search Studio migrates it, after writing a backup copy of it as it was.

use serde_json::json;
use std::path::Path;

use studio_local::{LocalBackend, Store, DB_FILE, DOCUMENTS_FILE, TEXT_DIR, TEXT_FILE};
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

/// Documents of a few shapes, with an author facet and words to search.
fn documents() -> String {
    (0..40)
        .map(|i| {
            json!({"id": format!("d{i}"), "title": format!("climate report {i}"),
                   "description": if i % 3 == 0 { "policy and water" } else { "energy" },
                   "facetList": [{"field": "dyn_lit_author", "facets": [{"label": format!("author {}", i % 4)}]}]})
            .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn search_body() -> studio_model::SearchRequest {
    serde_json::from_value(json!({"input": "policy"})).unwrap()
}

#[tokio::test]
async fn a_store_of_one_file_moves_its_documents_to_their_own_and_answers_the_same() {
    // The answers of a store made now, for comparison.
    let fresh_dir = tempfile::tempdir().unwrap();
    let fresh = Store::open_dir(fresh_dir.path()).unwrap();
    studio_local::import_documents(&fresh, "demo", std::io::Cursor::new(documents()), &mut |_| {}).unwrap();
    let fresh = LocalBackend::new(fresh);
    let body = json!({"config": {"title": "Reports", "searchSpace": "demo",
                      "filter": {"facetsToShow": [{"uri": "dyn_lit_author", "title": "Author"}]}}});
    let id = fresh.create_configuration(&studio_local::os_caller(), body.clone()).await.unwrap().config.id.unwrap();
    let expected = fresh.search(id, search_body()).await.unwrap();
    assert!(expected.total > 0 && !expected.facets.is_empty(), "the comparison finds something");

    // The same documents and configuration in one file at schema 5, as stores were before.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for sql in [
            include_str!("../migrations/0001_configurations.sql"),
            include_str!("../migrations/0002_documents.sql"),
            include_str!("../migrations/0003_index_snapshots.sql"),
            include_str!("../migrations/0004_fts_second_pass.sql"),
            include_str!("../migrations/0005_drafts_and_pulls.sql"),
        ] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 5).unwrap();
        let source = fresh_dir.path();
        conn.execute("ATTACH DATABASE ?1 AS old", [source.join(DB_FILE).to_string_lossy()]).unwrap();
        conn.execute("ATTACH DATABASE ?1 AS olddocs", [source.join(DOCUMENTS_FILE).to_string_lossy()]).unwrap();
        conn.execute_batch(
            "INSERT INTO main.configurations SELECT * FROM old.configurations;
             INSERT INTO main.configuration_log SELECT * FROM old.configuration_log;
             INSERT INTO main.documents SELECT * FROM olddocs.documents;
             INSERT INTO main.facet_fields SELECT * FROM olddocs.facet_fields;
             INSERT INTO main.generations SELECT * FROM olddocs.generations;
             INSERT INTO main.documents_fts (documents_fts) VALUES ('rebuild');",
        )
        .unwrap();
    }

    let store = Store::open(&path).unwrap();
    let backend = LocalBackend::new(store.clone());
    assert_eq!(backend.get_configuration(id).await.unwrap().config.title, "Reports");
    let answer = backend.search(id, search_body()).await.unwrap();
    assert_eq!(answer.total, expected.total);
    assert_eq!(answer.facets, expected.facets);
    let ids = |r: &studio_model::SearchResponse| r.result.iter().map(|d| d.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&answer), ids(&expected));

    // The documents live in their own file now, and the precious file holds none of their tables.
    let precious = rusqlite::Connection::open(&path).unwrap();
    let tables: i64 = precious
        .query_row("SELECT count(*) FROM sqlite_schema WHERE name IN ('documents', 'documents_fts')", [], |r| r.get(0))
        .unwrap();
    assert_eq!(tables, 0, "the precious file holds no document tables");
    let moved: i64 = rusqlite::Connection::open(dir.path().join(DOCUMENTS_FILE))
        .unwrap()
        .query_row("SELECT count(*) FROM documents", [], |r| r.get(0))
        .unwrap();
    assert_eq!(moved, 40);
}

/// A documents file of version 1 (before the kept term counts, with its full-text index in it, FTS5 merging as it
/// writes) is brought to the newest version in place when the store opens, keeping its documents, and the index
/// is built in its own directory from them: searches answer as before.
#[tokio::test]
async fn a_documents_file_of_version_one_sheds_its_index_and_keeps_its_documents() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    studio_local::import_documents(&store, "demo", std::io::Cursor::new(documents()), &mut |_| {}).unwrap();
    let backend = LocalBackend::new(store.clone());
    let body = json!({"config": {"title": "Reports", "searchSpace": "demo"}});
    let id = backend.create_configuration(&studio_local::os_caller(), body).await.unwrap().config.id.unwrap();
    let expected = backend.search(id, search_body()).await.unwrap();
    assert!(expected.total > 0);
    drop(backend);
    store.close().unwrap();

    // As version 1 wrote it: no term counts, and the full-text index in the documents file, merging as it writes.
    let documents = dir.path().join(DOCUMENTS_FILE);
    {
        let conn = rusqlite::Connection::open(&documents).unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE documents_fts USING fts5 (
                 title, description, body, content = 'documents', content_rowid = 'num',
                 tokenize = 'unicode61 remove_diacritics 2');
             CREATE VIRTUAL TABLE documents_fts_terms USING fts5vocab (documents_fts, row);
             CREATE TRIGGER documents_fts_delete AFTER DELETE ON documents BEGIN
                 INSERT INTO documents_fts (documents_fts, rowid, title, description, body)
                 VALUES ('delete', old.num, old.title, old.description, old.body);
             END;
             INSERT INTO documents_fts (documents_fts) VALUES ('rebuild');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    std::fs::remove_file(dir.path().join(TEXT_FILE)).unwrap();

    let store = Store::open_dir(dir.path()).unwrap();
    let version: i64 =
        rusqlite::Connection::open(&documents).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert!(version > 1, "the documents file is at the newest version ({version})");
    let tables: i64 = rusqlite::Connection::open(&documents)
        .unwrap()
        .query_row("SELECT count(*) FROM sqlite_schema WHERE name IN ('term_counts', 'term_counts_made')", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(tables, 0, "the term counts are read from the index's own dictionaries");
    assert_eq!(fts5_tables(&documents), 0, "the full-text index left the documents file");
    assert_eq!(fts5_tables(&dir.path().join(TEXT_FILE)), 0, "nor is it in the text state file");
    let index = studio_text::Reader::new(&dir.path().join(TEXT_DIR)).snapshot().unwrap();
    assert_eq!(index.statistics().rows, 40, "the index is built in its own directory");
    let backend = LocalBackend::new(store);
    let answer = backend.search(id, search_body()).await.unwrap();
    assert_eq!(answer.total, expected.total);
    assert_eq!(answer.result.len(), expected.result.len());
}

#[test]
fn a_new_studio_db_beside_a_documents_file_leaves_its_documents_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let report = studio_local::import_documents(&store, "news", documents().as_bytes(), &mut |_| {}).unwrap();
    assert!(report.imported > 0);
    store.close().unwrap();
    // studio.db is gone (deleted by hand, or set aside by `studio recover`): a new one is made by every migration.
    for name in [DB_FILE, "studio.db-wal", "studio.db-shm"] {
        let _ = std::fs::remove_file(dir.path().join(name));
    }
    let store = Store::open_dir(dir.path()).unwrap();
    let conn = store.conn().unwrap();
    let kept: i64 =
        conn.query_row("SELECT count(*) FROM documents WHERE search_space = 'news'", [], |r| r.get(0)).unwrap();
    assert_eq!(kept as u64, report.imported, "the documents file was emptied");
}

/// The tables of FTS5's index in the SQLite file `file`.
fn fts5_tables(file: &Path) -> i64 {
    rusqlite::Connection::open(file)
        .unwrap()
        .query_row("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'documents_fts%'", [], |r| r.get(0))
        .unwrap()
}

/// The text state file of version 1 as it was while FTS5 held the full-text index (its own tables and settings,
/// no text of its own), with the index of every document and the state saying so.
const FTS5_TEXT_FILE: &str = "
    CREATE VIRTUAL TABLE documents_fts USING fts5 (
        title, description, body, content = '', tokenize = 'unicode61 remove_diacritics 2');
    INSERT INTO documents_fts (documents_fts, rank) VALUES ('automerge', 0);
    INSERT INTO documents_fts (documents_fts, rank) VALUES ('crisismerge', 64);
    INSERT INTO documents_fts (documents_fts, rank) VALUES ('hashsize', 16777216);
    CREATE VIRTUAL TABLE documents_fts_terms USING fts5vocab (documents_fts, row);
    CREATE TABLE text_state (
        id INTEGER PRIMARY KEY CHECK (id = 1), indexed_to INTEGER NOT NULL, building INTEGER NOT NULL);
    INSERT INTO text_state (id, indexed_to, building) VALUES (1, 0, 0);
    INSERT INTO documents_fts (rowid, title, description, body) SELECT num, title, description, body FROM docs.documents;
    UPDATE text_state SET indexed_to = (SELECT max(num) FROM docs.documents);
    PRAGMA user_version = 1;
";

/// A store of FTS5's days (its full-text index in FTS5's tables of the text file, term counts kept in the
/// documents file, no index directory) opens: FTS5's tables and the term counts are dropped, the text file gives
/// their pages back to the disk, and the index is built in its own directory from the documents, which searches
/// find as before.
#[tokio::test]
async fn a_store_of_fts5_days_drops_its_index_and_builds_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    studio_local::import_documents(&store, "demo", std::io::Cursor::new(documents()), &mut |_| {}).unwrap();
    let backend = LocalBackend::new(store.clone());
    let body = json!({"config": {"title": "Reports", "searchSpace": "demo"}});
    let id = backend.create_configuration(&studio_local::os_caller(), body).await.unwrap().config.id.unwrap();
    let expected = backend.search(id, search_body()).await.unwrap();
    assert!(expected.total > 0);
    backend.engine().settle();
    drop(backend);
    store.close().unwrap();

    let documents = dir.path().join(DOCUMENTS_FILE);
    let text = dir.path().join(TEXT_FILE);
    std::fs::remove_dir_all(dir.path().join(TEXT_DIR)).unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", text.display()));
    }
    let pages = |file: &Path| -> (i64, i64) {
        let conn = rusqlite::Connection::open(file).unwrap();
        let count = conn.query_row("PRAGMA page_count", [], |r| r.get(0)).unwrap();
        (count, conn.query_row("PRAGMA freelist_count", [], |r| r.get(0)).unwrap())
    };
    {
        let conn = rusqlite::Connection::open(&documents).unwrap();
        conn.execute_batch(
            "CREATE TABLE term_counts (term TEXT PRIMARY KEY, rows INTEGER NOT NULL) WITHOUT ROWID;
             CREATE TABLE term_counts_made (id INTEGER PRIMARY KEY CHECK (id = 1), generations INTEGER NOT NULL);
             PRAGMA user_version = 5;",
        )
        .unwrap();
        let conn = rusqlite::Connection::open(&text).unwrap();
        conn.execute("ATTACH DATABASE ?1 AS docs", [documents.to_string_lossy()]).unwrap();
        conn.execute_batch(FTS5_TEXT_FILE).unwrap();
    }
    assert!(fts5_tables(&text) > 0);
    let (old_pages, _) = pages(&text);

    let store = Store::open_dir(dir.path()).unwrap();
    let version = |file: &Path| -> i64 {
        rusqlite::Connection::open(file).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap()
    };
    assert_eq!(version(&text), 1 + studio_local::search::schema::TEXT_UPGRADES.len() as i64);
    assert_eq!(fts5_tables(&text), 0, "FTS5's tables are dropped");
    let (new_pages, free) = pages(&text);
    assert!(new_pages < old_pages && free == 0, "FTS5's pages went back to the disk: {old_pages} -> {new_pages}");
    let counts: i64 = rusqlite::Connection::open(&documents)
        .unwrap()
        .query_row("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'term_counts%'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(counts, 0, "the kept term counts are dropped");
    let index = studio_text::Reader::new(store.text_dir()).snapshot().unwrap();
    assert_eq!(index.statistics().rows, 40, "the index is built in its own directory");

    let backend = LocalBackend::new(store);
    let answer = backend.search(id, search_body()).await.unwrap();
    assert_eq!(answer.total, expected.total);
    let ids = |r: &studio_model::SearchResponse| r.result.iter().map(|d| d.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&answer), ids(&expected));
}

//! The full-text index kept in step with the documents by imports and by the store's opening: replaced
//! documents, imports into two search spaces at once, and an index left unsettled, behind, or still being built.

use rusqlite::Connection;

use studio_local::{import_documents, Store};

fn doc(id: &str, title: &str) -> String {
    format!("{{\"id\": \"{id}\", \"title\": \"{title}\"}}\n")
}

/// The ids of the documents whose text matches `words`.
fn matching(conn: &Connection, words: &str) -> Vec<String> {
    let mut stmt = conn
        .prepare(
            "SELECT d.id FROM documents_fts f JOIN documents d ON d.num = f.rowid
             WHERE documents_fts MATCH ?1 ORDER BY d.id",
        )
        .unwrap();
    stmt.query_map([words], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

/// Rows of the index, and how many of them are documents.
fn rows(conn: &Connection) -> (i64, i64) {
    conn.query_row(
        "SELECT count(*), count(*) FILTER (WHERE id IN (SELECT num FROM documents)) FROM documents_fts_docsize",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

#[test]
fn a_replaced_document_is_found_by_its_new_words_only() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let first = format!("{}{}{}", doc("a", "apple"), doc("b", "banana"), doc("a", "apricot"));
    import_documents(&store, "s", first.as_bytes(), &mut |_| {}).unwrap();
    import_documents(&store, "s", doc("b", "blueberry").as_bytes(), &mut |_| {}).unwrap();
    let conn = store.conn().unwrap();
    assert_eq!(matching(&conn, "apple OR banana"), Vec::<String>::new());
    assert_eq!(matching(&conn, "apricot OR blueberry"), ["a", "b"]);
    assert_eq!(rows(&conn), (2, 2), "the index holds each document once");
    conn.execute("INSERT INTO documents_fts (documents_fts) VALUES ('integrity-check')", []).unwrap();
}

#[test]
fn imports_into_two_spaces_at_once_are_both_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    std::thread::scope(|s| {
        for space in ["left", "right"] {
            let store = store.clone();
            s.spawn(move || {
                let lines: String = (0..300).map(|i| doc(&format!("{space}{i}"), &format!("{space} words"))).collect();
                import_documents(&store, space, lines.as_bytes(), &mut |_| {}).unwrap();
            });
        }
    });
    let conn = store.conn().unwrap();
    assert_eq!(matching(&conn, "left").len(), 300);
    assert_eq!(matching(&conn, "right").len(), 300);
    assert_eq!(rows(&conn), (600, 600));
}

/// An import cut short leaves the index unsettled; the next open builds it again from the documents. So does
/// an index behind the documents.
#[test]
fn an_index_left_unsettled_or_behind_is_built_again_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    import_documents(&store, "s", format!("{}{}", doc("a", "apple"), doc("b", "banana")).as_bytes(), &mut |_| {})
        .unwrap();
    {
        let conn = store.conn().unwrap();
        conn.execute_batch(
            "INSERT INTO documents_fts (documents_fts) VALUES ('delete-all');
             INSERT INTO documents_fts (rowid, title, description, body) VALUES (99, 'stale', '', '');
             UPDATE text_state SET building = 1;",
        )
        .unwrap();
    }
    store.close().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let conn = store.conn().unwrap();
    assert_eq!(matching(&conn, "apple OR banana"), ["a", "b"]);
    assert_eq!(rows(&conn), (2, 2));

    conn.execute_batch(
        "INSERT INTO documents_fts (documents_fts) VALUES ('delete-all');
         UPDATE text_state SET indexed_to = 1;",
    )
    .unwrap();
    drop(conn);
    store.close().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let conn = store.conn().unwrap();
    assert_eq!(matching(&conn, "apple OR banana"), ["a", "b"]);
    let state: (i64, i64) =
        conn.query_row("SELECT indexed_to, building FROM text_state", [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    let last: i64 = conn.query_row("SELECT max(num) FROM documents", [], |r| r.get(0)).unwrap();
    assert_eq!(state, (last, 0), "the index holds every document and no import builds it");
}

/// While an import builds the index, in this process or another (it holds the lock), opening the store leaves
/// the index to it; once no import holds the lock, an index still counted as being built is built again.
#[test]
fn an_index_an_import_is_building_is_left_to_it_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    import_documents(&store, "s", doc("a", "apple").as_bytes(), &mut |_| {}).unwrap();
    store
        .conn()
        .unwrap()
        .execute_batch(
            "INSERT INTO documents_fts (rowid, title, description, body) VALUES (99, 'stale', '', '');
             UPDATE text_state SET building = 1;",
        )
        .unwrap();
    let text = store.text_path().to_owned();
    store.close().unwrap();

    // An import holds the lock file beside the index's file (shared) while it builds the index.
    let mut lock = text.into_os_string();
    lock.push("-building");
    let importing = std::fs::File::options().create(true).truncate(false).write(true).open(lock).unwrap();
    importing.lock_shared().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    assert_eq!(rows(&store.conn().unwrap()), (2, 1), "the index is left as the import has it");
    store.close().unwrap();

    drop(importing);
    let store = Store::open_dir(dir.path()).unwrap();
    let conn = store.conn().unwrap();
    assert_eq!(rows(&conn), (1, 1), "built again once no import holds it");
    assert_eq!(matching(&conn, "apple"), ["a"]);
}

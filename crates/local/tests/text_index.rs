//! The full-text index kept in step with the documents by imports and by the store's opening: replaced
//! documents, imports into two search spaces at once, a failed import, and an index left unsettled, behind,
//! damaged, missing, or held by another writer.

use std::path::Path;

use studio_local::{import_documents, Store};
use studio_text::{Phrase, Reader, TextIndex};

fn doc(id: &str, title: &str) -> String {
    format!("{{\"id\": \"{id}\", \"title\": \"{title}\"}}\n")
}

/// The ids of the documents whose text has `words`, as the full-text index answers (a row of the index that is
/// no document is named as such).
fn matching(store: &Store, words: &str) -> Vec<String> {
    let snapshot = Reader::new(store.text_dir()).snapshot().unwrap();
    let rows = snapshot.phrase(&Phrase::new(words, false)).unwrap().rows;
    let conn = store.conn().unwrap();
    let mut ids: Vec<String> = rows
        .iter()
        .map(|&row| {
            conn.query_row("SELECT id FROM documents WHERE num = ?1", [row as i64], |r| r.get(0))
                .unwrap_or_else(|_| format!("row {row}, no document"))
        })
        .collect();
    ids.sort();
    ids
}

/// Rows of the index, and how many documents it holds.
fn rows(store: &Store) -> (u64, u64) {
    let snapshot = Reader::new(store.text_dir()).snapshot().unwrap();
    let conn = store.conn().unwrap();
    let mut stmt = conn.prepare("SELECT num FROM documents").unwrap();
    let documents: Vec<i64> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    let held = documents.iter().filter(|&&row| snapshot.field_sizes(row as u64).is_some()).count();
    (snapshot.statistics().rows, held as u64)
}

/// The index's state: the last row indexed, and the imports counted as building it.
fn state(store: &Store) -> (i64, i64) {
    let conn = store.conn().unwrap();
    conn.query_row("SELECT indexed_to, building FROM text_state", [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap()
}

/// A store of two documents, `a` (apple) and `b` (banana), closed.
fn two_documents(dir: &Path) {
    let store = Store::open_dir(dir).unwrap();
    import_documents(&store, "s", format!("{}{}", doc("a", "apple"), doc("b", "banana")).as_bytes(), &mut |_| {})
        .unwrap();
    store.close().unwrap();
}

/// The index of [`two_documents`] replaced by as many rows that are no documents, as another writer (an import cut
/// short) could leave it: only the index's state can tell.
fn leave_stale(dir: &Path) {
    let mut index = TextIndex::open(&dir.join(studio_local::TEXT_DIR)).unwrap();
    index.clear().unwrap();
    let mut builder = index.builder();
    builder.add(98, ["stale", "", ""]).unwrap();
    builder.add(99, ["stale", "", ""]).unwrap();
    index.add(builder.finish().unwrap()).unwrap();
}

/// Runs `sql` on the store in `dir`, closed after.
fn execute(dir: &Path, sql: &str) {
    let store = Store::open_dir(dir).unwrap();
    store.conn().unwrap().execute_batch(sql).unwrap();
    store.close().unwrap();
}

/// Reopens the store in `dir` and checks that its index holds exactly its two documents, settled.
fn assert_built_again(dir: &Path, what: &str) {
    let store = Store::open_dir(dir).unwrap();
    assert_eq!(matching(&store, "apple"), ["a"], "{what}");
    assert_eq!(matching(&store, "banana"), ["b"], "{what}");
    assert_eq!(matching(&store, "stale"), Vec::<String>::new(), "{what}");
    assert_eq!(rows(&store), (2, 2), "{what}: the index holds each document once");
    let last: i64 = store.conn().unwrap().query_row("SELECT max(num) FROM documents", [], |r| r.get(0)).unwrap();
    assert_eq!(state(&store), (last, 0), "{what}: the index holds every document and no import builds it");
    Reader::new(store.text_dir()).snapshot().unwrap().verify().unwrap();
    store.close().unwrap();
}

#[test]
fn a_replaced_document_is_found_by_its_new_words_only() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let first = format!("{}{}{}", doc("a", "apple"), doc("b", "banana"), doc("a", "apricot"));
    import_documents(&store, "s", first.as_bytes(), &mut |_| {}).unwrap();
    import_documents(&store, "s", doc("b", "blueberry").as_bytes(), &mut |_| {}).unwrap();
    assert_eq!(matching(&store, "apple"), Vec::<String>::new());
    assert_eq!(matching(&store, "banana"), Vec::<String>::new());
    assert_eq!(matching(&store, "apricot"), ["a"]);
    assert_eq!(matching(&store, "blueberry"), ["b"]);
    assert_eq!(rows(&store), (2, 2), "the index holds each document once");
    Reader::new(store.text_dir()).snapshot().unwrap().verify().unwrap();
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
    assert_eq!(matching(&store, "left").len(), 300);
    assert_eq!(matching(&store, "right").len(), 300);
    assert_eq!(rows(&store), (600, 600));
    assert_eq!(state(&store).1, 0, "both imports counted themselves out");
}

/// An import cut short leaves the index unsettled; the next open builds it again from the documents. So does
/// an index behind the documents.
#[test]
fn an_index_left_unsettled_or_behind_is_built_again_at_open() {
    let dir = tempfile::tempdir().unwrap();
    two_documents(dir.path());
    execute(dir.path(), "UPDATE text_state SET building = 1");
    leave_stale(dir.path());
    assert_eq!(
        Reader::new(&dir.path().join(studio_local::TEXT_DIR)).snapshot().unwrap().statistics().rows,
        2,
        "as many rows as documents: only the state says the index is unsettled"
    );
    assert_built_again(dir.path(), "unsettled");

    execute(dir.path(), "UPDATE text_state SET indexed_to = 1");
    leave_stale(dir.path());
    assert_built_again(dir.path(), "behind");
}

/// An index whose files cannot be read (a damaged segment, its manifest gone) or that is gone altogether is built
/// again from the documents when the store opens.
#[test]
fn an_index_damaged_or_missing_is_built_again_at_open() {
    let dir = tempfile::tempdir().unwrap();
    two_documents(dir.path());
    let index = dir.path().join(studio_local::TEXT_DIR);
    let files = |prefix: &str| -> Vec<std::path::PathBuf> {
        let entries = std::fs::read_dir(&index).unwrap().map(|e| e.unwrap().path());
        entries.filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix)).collect()
    };

    let segments = files("segment-");
    assert!(!segments.is_empty(), "the import wrote a segment");
    for segment in &segments {
        let mut bytes = std::fs::read(segment).unwrap();
        bytes[..4].iter_mut().for_each(|b| *b ^= 0xff);
        std::fs::write(segment, bytes).unwrap();
    }
    assert!(Reader::new(&index).snapshot().is_err(), "the damage is seen");
    assert_built_again(dir.path(), "a damaged segment");

    std::fs::remove_file(index.join("manifest")).unwrap();
    assert!(!files("segment-").is_empty(), "segment files without their manifest");
    assert_built_again(dir.path(), "no manifest");

    std::fs::remove_dir_all(&index).unwrap();
    assert_built_again(dir.path(), "no directory");
}

/// While another writer holds the index (an import or a merge, in this process or another), opening the store
/// leaves the index to it; once it let go, an index still counted as being built is built again.
#[test]
fn an_index_another_writer_holds_is_left_to_it_at_open() {
    let dir = tempfile::tempdir().unwrap();
    two_documents(dir.path());
    let store = Store::open_dir(dir.path()).unwrap();
    store.conn().unwrap().execute("UPDATE text_state SET building = 1", []).unwrap();
    store.close().unwrap();

    let mut writer = TextIndex::open(&dir.path().join(studio_local::TEXT_DIR)).unwrap();
    writer.clear().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    assert_eq!(rows(&store), (0, 0), "the index is left as the other writer has it");
    assert_eq!(state(&store).1, 1, "still counted as being built");
    store.close().unwrap();

    drop(writer);
    assert_built_again(dir.path(), "once the other writer let go");
}

/// Input that breaks off: what a cable pulled mid-import gives.
struct BrokenOff;

impl std::io::Read for BrokenOff {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("the input broke off"))
    }
}

/// An import that fails keeps its committed batches, and their words are found at once; what it wrote after its
/// last commit is gone from the documents and from the index, so a document it was replacing then keeps its words.
#[test]
fn a_failed_import_s_committed_batches_are_found_by_their_words_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    import_documents(&store, "s", doc("last", "original").as_bytes(), &mut |_| {}).unwrap();
    let mut lines: String = (0..studio_local::IMPORT_BATCH).map(|i| doc(&format!("d{i}"), "written")).collect();
    // The second batch replaces `last`, then the input breaks off before the batch is committed.
    lines.push_str(&doc("last", "replacement"));
    let input = std::io::BufReader::new(std::io::Read::chain(lines.as_bytes(), BrokenOff));
    assert!(import_documents(&store, "s", input, &mut |_| {}).is_err(), "the import fails");
    let kept: i64 = store.conn().unwrap().query_row("SELECT count(*) FROM documents", [], |r| r.get(0)).unwrap();
    assert_eq!(kept, studio_local::IMPORT_BATCH as i64 + 1, "the first batch is kept, the second is not");
    assert_eq!(matching(&store, "written").len(), studio_local::IMPORT_BATCH, "the committed batch's words");
    assert_eq!(matching(&store, "original"), ["last"], "the document the failed batch was replacing");
    assert!(matching(&store, "replacement").is_empty(), "nothing of the batch that was not committed");
    assert_eq!(rows(&store), (kept as u64, kept as u64));
    assert_eq!(state(&store).1, 0, "no import is counted as building the index");
    let next: i64 = store.conn().unwrap().query_row("SELECT max(num) FROM documents", [], |r| r.get(0)).unwrap();
    assert!(state(&store).0 > next, "the numbers of the dropped batch are not given again");
    store.close().unwrap();

    let store = Store::open_dir(dir.path()).unwrap();
    import_documents(&store, "s", doc("later", "afterwards").as_bytes(), &mut |_| {}).unwrap();
    assert_eq!(matching(&store, "afterwards"), ["later"]);
    assert_eq!(matching(&store, "original"), ["last"]);
}

//! The store's upkeep: the full-text index merged after a build and after an import, without changing an answer.

use studio_model::{Config, SimilarQuery};

use crate::query::TextQuery;
use crate::stamp::Stamp;
use crate::test_documents::{fts5_bm25, TestFiles, NEWS_SPACE};
use crate::text_index::merge;
use crate::SearchEngine;

/// The segments of the store's full-text index.
fn segments(files: &TestFiles) -> usize {
    Stamp::read(&files.conn()).unwrap().1.segments()
}

/// An engine merges the store's full-text index once an index is built, and again at the `text` plugin's
/// next call after an import anywhere changed the store.
#[test]
fn the_engine_keeps_the_store_after_a_build_and_after_an_import() {
    let files = TestFiles::news();
    files.import_lines("elsewhere", "{\"id\": \"w\", \"title\": \"a word\"}\n");
    let mut conn = files.conn();
    assert!(segments(&files) > 1, "the imports left several segments");
    let engine = SearchEngine::new();
    engine.index(&mut conn, NEWS_SPACE).unwrap();
    engine.settle();
    assert_eq!(segments(&files), 1, "merged after the index was built");

    files.import_lines("elsewhere", "{\"id\": \"x\", \"title\": \"more words\"}\n");
    assert!(segments(&files) > 1);
    let config = Config { search_space: NEWS_SPACE.into(), ..Config::default() };
    let source: String = conn
        .query_row("SELECT id FROM documents WHERE search_space = ?1 LIMIT 1 OFFSET 7", [NEWS_SPACE], |r| r.get(0))
        .unwrap();
    let query = SimilarQuery { uri: source, number: Some(3), similarity: Some("text".into()), explain: false };
    assert_eq!(engine.similar(&mut conn, &config, &query).unwrap().len(), 3);
    engine.settle();
    assert_eq!(segments(&files), 1, "merged again after the import");
}

/// A store written by several imports, one of them replacing documents, has several segments and deleted rows;
/// merged, it has one and none, every full-text query matches and scores as FTS5 does over the same documents,
/// and a second merge finds nothing to do.
#[test]
fn merging_leaves_one_segment_and_the_same_answers() {
    let files = TestFiles::news();
    for n in 0..3 {
        let line = format!("{{\"id\": \"more-{n}\", \"title\": \"energy policy {n}\", \"content\": \"solar wind\"}}\n");
        files.import_lines(&format!("space-{n}"), &line);
    }
    files.import_lines("space-0", "{\"id\": \"more-0\", \"title\": \"energy\", \"content\": \"tidal\"}\n");
    assert!(segments(&files) > 1, "{} segments before", segments(&files));
    let fts5 = files.fts5();
    let inputs = ["energy", "solar wind policy", "\"energy policy\"", "climat*"];
    let ranked = |input: &str| {
        let (_, text) = Stamp::read(&files.conn()).unwrap();
        let query = TextQuery::parse(input);
        let phrases: Vec<_> = query.clauses.iter().map(crate::text_search::phrase).collect();
        let found = text.query(&phrases).unwrap();
        let mut rows: Vec<i64> = found.rows.iter().map(|&r| r as i64).collect();
        rows.sort_unstable();
        let mut theirs: Vec<i64> = fts5_bm25(&fts5, &query.to_fts().unwrap()).into_iter().map(|r| r.0).collect();
        theirs.sort_unstable();
        assert_eq!(rows, theirs, "{input}");
        (rows, found.phrase_rows, text.statistics())
    };
    let before: Vec<_> = inputs.iter().map(|q| ranked(q)).collect();
    assert!(before.iter().all(|r| !r.0.is_empty()));
    assert!(Stamp::read(&files.conn()).unwrap().1.deleted() > 0, "the replaced row is deleted, not gone yet");

    assert!(merge(&files.text_dir()).unwrap());
    assert_eq!(segments(&files), 1);
    assert_eq!(Stamp::read(&files.conn()).unwrap().1.deleted(), 0);
    let after: Vec<_> = inputs.iter().map(|q| ranked(q)).collect();
    assert_eq!(before, after);
    assert!(!merge(&files.text_dir()).unwrap(), "nothing left to merge");
}

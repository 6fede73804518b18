//! The store's upkeep: the full-text index merged and a large store's terms counted, without changing an answer.

use rusqlite::Connection;
use studio_model::{Config, SimilarQuery};

use super::merge_full_text;
use crate::stamp::Stamp;
use crate::term_counts::current;
use crate::test_documents::{TestFiles, NEWS_SPACE};
use crate::SearchEngine;

fn segments(conn: &Connection) -> i64 {
    conn.query_row("SELECT count(DISTINCT segid) FROM documents_fts_idx", [], |r| r.get(0)).unwrap()
}

/// FTS5's own ranking of a few words over the whole store.
fn ranking(conn: &Connection, words: &str) -> Vec<(i64, f64)> {
    conn.prepare(
        "SELECT rowid, bm25(documents_fts, 5.0, 2.0, 1.0) FROM documents_fts WHERE documents_fts MATCH ?1
         ORDER BY 2, 1",
    )
    .unwrap()
    .query_map([words], |r| Ok((r.get(0)?, r.get(1)?)))
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// An engine merges the store's full-text index once an index is built, and again at the `text` plugin's
/// next call after an import anywhere changed the store; it counts the terms too when the store is as large
/// as it counts from, and not otherwise.
#[test]
fn the_engine_keeps_the_store_after_a_build_and_after_an_import() {
    let files = TestFiles::news();
    files.import_lines("elsewhere", "{\"id\": \"w\", \"title\": \"a word\"}\n");
    let mut conn = files.conn();
    let reader = crate::reader::documents_reader(&conn).unwrap().expect("a documents file");
    let generations = || Stamp::read(&files.conn()).unwrap().generations;
    assert!(segments(&reader) > 1, "the imports left several segments");
    let small = SearchEngine::new();
    small.index(&mut conn, NEWS_SPACE).unwrap();
    small.settle();
    assert_eq!(segments(&reader), 1, "merged after the index was built");
    assert!(!current(&conn, generations()).unwrap(), "the corpus is below the size counted from");

    files.import_lines("elsewhere", "{\"id\": \"v\", \"title\": \"new words\"}\n");
    let engine = SearchEngine::new();
    engine.upkeep.lock().unwrap().counted_from = 1.0;
    engine.index(&mut conn, NEWS_SPACE).unwrap();
    engine.settle();
    assert!(current(&conn, generations()).unwrap(), "counted after the index was built");
    assert_eq!(segments(&reader), 1, "merged after the index was built");

    files.import_lines("elsewhere", "{\"id\": \"x\", \"title\": \"more words\"}\n");
    assert!(!current(&conn, generations()).unwrap());
    assert!(segments(&reader) > 1);
    let config = Config { search_space: NEWS_SPACE.into(), ..Config::default() };
    let source: String = conn
        .query_row("SELECT id FROM documents WHERE search_space = ?1 LIMIT 1 OFFSET 7", [NEWS_SPACE], |r| r.get(0))
        .unwrap();
    let query = SimilarQuery { uri: source, number: Some(3), similarity: Some("text".into()), explain: false };
    assert_eq!(engine.similar(&mut conn, &config, &query).unwrap().len(), 3);
    engine.settle();
    assert!(current(&conn, generations()).unwrap(), "counted again after the import");
    assert_eq!(segments(&reader), 1, "merged again after the import");
}

/// A store written by several imports has several segments; merged, it has one, and every full-text
/// query matches and scores the same rows; a second merge finds nothing to do.
#[test]
fn merging_leaves_one_segment_and_the_same_answers() {
    let files = TestFiles::news();
    for n in 0..3 {
        let line = format!("{{\"id\": \"more-{n}\", \"title\": \"energy policy {n}\", \"content\": \"solar wind\"}}\n");
        files.import_lines(&format!("space-{n}"), &line);
    }
    let conn = files.conn();
    let reader = crate::reader::documents_reader(&conn).unwrap().expect("a documents file");
    assert!(segments(&reader) > 1, "{} segments before", segments(&reader));
    let queries = ["energy", "solar OR wind OR policy", "\"energy policy\"", "climat*"];
    let before: Vec<_> = queries.iter().map(|q| ranking(&reader, q)).collect();
    assert!(before.iter().all(|r| !r.is_empty()));

    assert!(merge_full_text(&reader).unwrap());
    assert_eq!(segments(&reader), 1);
    let after: Vec<_> = queries.iter().map(|q| ranking(&reader, q)).collect();
    assert_eq!(before, after);
    assert!(!merge_full_text(&reader).unwrap(), "nothing left to merge");
}

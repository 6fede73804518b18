//! The persisted index snapshot is only a cache: a fresh engine answers from it exactly as from a rebuild,
//! and a snapshot that is stale (the store changed) or unreadable is ignored and replaced. And the
//! full-text pass of an import keeps the text index consistent when an id repeats within one batch.

use studio_local::demo::{self, concept_uri, DEMO_SEED, DEMO_SPACE};
use studio_local::{import_concepts, import_documents, SearchEngine, Store};
use studio_model::{Config, SearchRequest, SearchResponse, SelectedFacet};

/// Import lines of the demo documents numbered `range`.
fn corpus_lines(range: std::ops::Range<usize>) -> Vec<u8> {
    let mut out = Vec::new();
    for doc in demo::generate_documents(range.end, DEMO_SEED).skip(range.start) {
        serde_json::to_writer(&mut out, &doc).unwrap();
        out.push(b'\n');
    }
    out
}

fn demo_config() -> Config {
    serde_json::from_value(demo::demo_configuration()["config"].clone()).unwrap()
}

/// Searches with and without words, selecting nothing or a topic, an author or a type of article.
fn requests() -> Vec<SearchRequest> {
    let selections = [
        None,
        Some(SelectedFacet { field: "dyn_uri_topic".into(), label: None, value: Some(concept_uri("topic", "Energy")) }),
        Some(SelectedFacet { field: "dyn_lit_author".into(), label: Some("Ana Lima".into()), value: None }),
        Some(SelectedFacet { field: "dyn_lit_context".into(), label: Some("News".into()), value: None }),
    ];
    let mut out = Vec::new();
    for input in [None, Some("analysts"), Some("million euros")] {
        for selected in &selections {
            out.push(SearchRequest {
                input: input.map(str::to_owned),
                selected_facets: selected.iter().cloned().collect(),
                ..Default::default()
            });
        }
    }
    out
}

fn answers(store: &Store) -> Vec<SearchResponse> {
    let engine = SearchEngine::new();
    let mut conn = store.conn().unwrap();
    let config = demo_config();
    requests().iter().map(|r| engine.search(&mut conn, &config, r).unwrap()).collect()
}

fn snapshot_rows(store: &Store) -> i64 {
    store.conn().unwrap().query_row("SELECT count(*) FROM index_snapshots", [], |r| r.get(0)).unwrap()
}

#[test]
fn a_fresh_engine_answers_from_the_snapshot_as_from_a_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let mut concepts = Vec::new();
    demo::write_concepts(&mut concepts).unwrap();
    import_concepts(&store, concepts.as_slice(), &mut |_| {}).unwrap();
    import_documents(&store, DEMO_SPACE, corpus_lines(0..300).as_slice(), &mut |_| {}).unwrap();

    let built = answers(&store);
    assert!(built.iter().all(|a| a.total > 0), "every search finds documents");
    assert!(snapshot_rows(&store) > 1, "the first build stored a snapshot");
    assert_eq!(answers(&store), built, "loaded from the snapshot");

    // An unreadable snapshot is rebuilt (and rewritten), never an error.
    store.conn().unwrap().execute("UPDATE index_snapshots SET data = x'0102' WHERE part = 1", []).unwrap();
    assert_eq!(answers(&store), built);
    let part: Vec<u8> =
        store.conn().unwrap().query_row("SELECT data FROM index_snapshots WHERE part = 1", [], |r| r.get(0)).unwrap();
    assert!(part.len() > 2, "the damaged part was replaced");

    // After an import the old snapshot is stale: the new documents are counted.
    import_documents(&store, DEMO_SPACE, corpus_lines(300..400).as_slice(), &mut |_| {}).unwrap();
    let engine = SearchEngine::new();
    let all = engine.search(&mut store.conn().unwrap(), &demo_config(), &SearchRequest::default()).unwrap();
    assert_eq!(all.total, 400);
}

#[test]
fn an_id_repeated_within_one_batch_leaves_a_consistent_text_index() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let lines = concat!(
        r#"{"id": "a", "title": "alpha first"}"#,
        "\n",
        r#"{"id": "b", "title": "beta"}"#,
        "\n",
        r#"{"id": "a", "title": "alpha second"}"#,
        "\n",
        r#"{"id": "a", "title": "alpha third"}"#,
        "\n",
    );
    import_documents(&store, "s", lines.as_bytes(), &mut |_| {}).unwrap();
    let index = studio_text::Reader::new(store.text_dir()).snapshot().unwrap();
    index.verify().unwrap();
    assert_eq!(index.statistics().rows, 2, "the index holds the two documents, each once");
    let engine = SearchEngine::new();
    let mut conn = store.conn().unwrap();
    let config = Config { search_space: "s".into(), ..Default::default() };
    let find = |conn: &mut rusqlite::Connection, q: &str| {
        engine.search(conn, &config, &SearchRequest { input: Some(q.into()), ..Default::default() }).unwrap().total
    };
    assert_eq!(find(&mut conn, "alpha"), 1);
    assert_eq!(find(&mut conn, "first"), 0);
    assert_eq!(find(&mut conn, "second"), 0);
    assert_eq!(find(&mut conn, "third"), 1);
    assert_eq!(find(&mut conn, "beta"), 1);
}

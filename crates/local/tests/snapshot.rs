//! The persisted index snapshot is only a cache: a fresh engine answers from it exactly as from a rebuild,
//! and a snapshot that is stale (the store changed) or unreadable is ignored and replaced. And the
//! full-text pass of an import keeps the text index consistent when an id repeats within one batch.

use studio_local::bench::{bench_config, Answer, SynthCorpus, Workload, BENCH_SPACE};
use studio_local::{import_concepts, import_documents, SearchEngine, Store};
use studio_model::SearchRequest;

fn corpus_lines(corpus: &SynthCorpus, range: std::ops::Range<usize>) -> Vec<u8> {
    let mut out = Vec::new();
    for i in range {
        serde_json::to_writer(&mut out, &corpus.doc(i).to_json(corpus)).unwrap();
        out.push(b'\n');
    }
    out
}

fn answers(store: &Store, workload: &Workload) -> Vec<Answer> {
    let engine = SearchEngine::new();
    let mut conn = store.conn().unwrap();
    let config = bench_config();
    workload
        .searches
        .iter()
        .chain(&workload.facet_only)
        .map(|q| Answer::of_response(&engine.search(&mut conn, &config, &q.request()).unwrap()))
        .collect()
}

fn snapshot_rows(store: &Store) -> i64 {
    store.conn().unwrap().query_row("SELECT count(*) FROM index_snapshots", [], |r| r.get(0)).unwrap()
}

#[test]
fn a_fresh_engine_answers_from_the_snapshot_as_from_a_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let corpus = SynthCorpus::new(3);
    let mut concepts = Vec::new();
    for line in corpus.concept_lines() {
        serde_json::to_writer(&mut concepts, &line).unwrap();
        concepts.push(b'\n');
    }
    import_concepts(&store, concepts.as_slice(), &mut |_| {}).unwrap();
    import_documents(&store, BENCH_SPACE, corpus_lines(&corpus, 0..300).as_slice(), &mut |_| {}).unwrap();
    let workload = Workload::new(&corpus, 300, 15);

    let built = answers(&store, &workload);
    assert!(snapshot_rows(&store) > 1, "the first build stored a snapshot");
    assert_eq!(answers(&store, &workload), built, "loaded from the snapshot");

    // An unreadable snapshot is rebuilt (and rewritten), never an error.
    store.conn().unwrap().execute("UPDATE index_snapshots SET data = x'0102' WHERE part = 1", []).unwrap();
    assert_eq!(answers(&store, &workload), built);
    let part: Vec<u8> = store.conn().unwrap().query_row("SELECT data FROM index_snapshots WHERE part = 1", [], |r| r.get(0)).unwrap();
    assert!(part.len() > 2, "the damaged part was replaced");

    // After an import the old snapshot is stale: the new documents are counted.
    import_documents(&store, BENCH_SPACE, corpus_lines(&corpus, 300..400).as_slice(), &mut |_| {}).unwrap();
    let engine = SearchEngine::new();
    let all = engine.search(&mut store.conn().unwrap(), &bench_config(), &SearchRequest::default()).unwrap();
    assert_eq!(all.total, 400);
}

#[test]
fn an_id_repeated_within_one_batch_leaves_a_consistent_text_index() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let lines = concat!(
        r#"{"id": "a", "title": "alpha first"}"#, "\n",
        r#"{"id": "b", "title": "beta"}"#, "\n",
        r#"{"id": "a", "title": "alpha second"}"#, "\n",
        r#"{"id": "a", "title": "alpha third"}"#, "\n",
    );
    import_documents(&store, "s", lines.as_bytes(), &mut |_| {}).unwrap();
    let conn = store.conn().unwrap();
    conn.execute("INSERT INTO documents_fts (documents_fts) VALUES ('integrity-check')", []).unwrap();
    let engine = SearchEngine::new();
    let mut conn = store.conn().unwrap();
    let mut config = bench_config();
    config.search_space = "s".into();
    let find = |conn: &mut rusqlite::Connection, q: &str| {
        engine.search(conn, &config, &SearchRequest { input: Some(q.into()), ..Default::default() }).unwrap().total
    };
    assert_eq!(find(&mut conn, "alpha"), 1);
    assert_eq!(find(&mut conn, "first"), 0);
    assert_eq!(find(&mut conn, "second"), 0);
    assert_eq!(find(&mut conn, "third"), 1);
    assert_eq!(find(&mut conn, "beta"), 1);
}

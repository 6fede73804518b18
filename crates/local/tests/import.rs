//! Importing documents and concepts: bad lines are reported with their numbers and skipped, the rest is
//! imported, and re-importing an id replaces the document everywhere (text, facets, counts).

use studio_local::{import_concepts, import_documents, search_spaces, SearchEngine, Store};
use studio_model::{Config, FacetSetting, SearchRequest};

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    (dir, store)
}

fn config(space: &str) -> Config {
    let mut config = Config { search_space: space.into(), ..Default::default() };
    config.filter.facets_to_show.push(FacetSetting {
        uri: "dyn_lit_author".into(),
        title: "Author".into(),
        ..Default::default()
    });
    config
}

fn search(store: &Store, engine: &SearchEngine, space: &str, input: &str) -> studio_model::SearchResponse {
    let mut conn = store.conn().unwrap();
    engine
        .search(&mut conn, &config(space), &SearchRequest { input: Some(input.into()), ..Default::default() })
        .unwrap()
}

#[test]
fn bad_lines_are_reported_with_their_numbers_and_skipped() {
    let (_dir, store) = store();
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(br#"{"id": "a", "title": "first"}"#);
    input.extend_from_slice(b"\n{not json\n");
    input.extend_from_slice(b"{\"title\": \"no id\"}\n");
    input.extend_from_slice(b"{\"id\": \"  \"}\n");
    input.extend_from_slice(b"\n");
    input.extend_from_slice(b"{\"id\": \"b\", \"title\": \"bad \xff bytes\"}\n");
    input.extend_from_slice(b"[1, 2, 3]\n");
    input.extend_from_slice(b"{\"id\": \"c\", \"date\": \"yesterday\"}\n");
    input.extend_from_slice(b"{\"id\": \"d\", \"title\": \"second\", \"facetList\": [{\"field\": \"dyn_lit_author\", \"facets\": [{\"label\": \"Ana\"}]}]}\r\n");
    input.extend_from_slice(br#"{"id": "e", "title": "last line without a line break"}"#);
    let mut progress = Vec::new();
    let report = import_documents(&store, "s", input.as_slice(), &mut |n| progress.push(n)).unwrap();
    assert_eq!(report.imported, 3);
    assert_eq!(report.skipped, 6);
    let lines: Vec<u64> = report.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [2, 3, 4, 6, 7, 8]);
    assert!(report.errors.iter().all(|e| !e.message.is_empty()));
    assert!(report.errors[0].message.contains("not a document"), "{}", report.errors[0].message);
    assert_eq!(progress.last(), Some(&10));

    let engine = SearchEngine::new();
    assert_eq!(search(&store, &engine, "s", "").total, 3);
    assert_eq!(search(&store, &engine, "s", "second").result[0].id, "d");
}

#[test]
fn an_empty_search_space_id_is_refused() {
    let (_dir, store) = store();
    assert!(import_documents(&store, "", &b"{\"id\":\"a\"}\n"[..], &mut |_| {}).is_err());
}

#[test]
fn reimporting_an_id_replaces_the_document() {
    let (_dir, store) = store();
    let line = |title: &str, author: &str| {
        format!(
            r#"{{"id": "x", "title": "{title}", "facetList": [{{"field": "dyn_lit_author", "label": "Author", "facets": [{{"label": "{author}"}}]}}]}}"#
        )
    };
    import_documents(&store, "s", format!("{}\n", line("orange", "Ana")).as_bytes(), &mut |_| {}).unwrap();
    import_documents(&store, "other", format!("{}\n", line("orange", "Ana")).as_bytes(), &mut |_| {}).unwrap();
    let engine = SearchEngine::new();
    assert_eq!(search(&store, &engine, "s", "orange").total, 1);
    let report = import_documents(
        &store,
        "s",
        format!("{}\n{}\n", line("lemon", "Ben"), line("lime", "Cem")).as_bytes(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(report.imported, 2);

    assert_eq!(search(&store, &engine, "s", "orange").total, 0, "old text is gone");
    assert_eq!(search(&store, &engine, "s", "lemon").total, 0, "replaced within the same file");
    let now = search(&store, &engine, "s", "lime");
    assert_eq!(now.total, 1);
    let authors: Vec<(&str, i64)> = now.facets[0].facets.iter().map(|r| (r.label.as_str(), r.count)).collect();
    assert_eq!(authors, [("Cem", 1)], "old facet values are gone");
    assert_eq!(search(&store, &engine, "other", "orange").total, 1, "the same id in another search space is untouched");
    let spaces = search_spaces(&store.conn().unwrap()).unwrap();
    let counts: Vec<(&str, i64)> = spaces.iter().map(|s| (s.id.as_str(), s.documents)).collect();
    assert_eq!(counts, [("other", 1), ("s", 1)]);
}

#[test]
fn an_import_into_an_empty_space_replaces_an_id_met_again_its_own_or_another_imports() {
    // Into a space that holds no document an import writes each document at once; an id met again must still
    // replace the row before it, whether this import wrote it or another one writing to the space meanwhile.
    let (dir, store) = store();
    let lines = |word: &str, ids: std::ops::Range<u32>| -> String {
        ids.map(|i| format!("{{\"id\": \"d{i}\", \"title\": \"{word} {i}\"}}\n")).collect()
    };
    let own = format!("{}{}", lines("first", 0..10), lines("again", 5..10));
    assert_eq!(import_documents(&store, "s", own.as_bytes(), &mut |_| {}).unwrap().imported, 15);
    let engine = SearchEngine::new();
    assert_eq!(search(&store, &engine, "s", "").total, 10);
    assert_eq!((search(&store, &engine, "s", "first").total, search(&store, &engine, "s", "again").total), (5, 5));

    // Two imports at once into another empty space, their ids overlapping, in batches that interleave.
    let other = Store::open_dir(dir.path()).unwrap();
    let (a, b) = (lines("alpha", 0..12_000), lines("beta", 6_000..18_000));
    let (ra, rb) = std::thread::scope(|s| {
        let ra = s.spawn(|| import_documents(&store, "t", a.as_bytes(), &mut |_| {}));
        let rb = s.spawn(|| import_documents(&other, "t", b.as_bytes(), &mut |_| {}));
        (ra.join().unwrap().unwrap(), rb.join().unwrap().unwrap())
    });
    assert_eq!((ra.imported, rb.imported), (12_000, 12_000));
    let (total, alpha, beta) = (
        search(&store, &engine, "t", "").total,
        search(&store, &engine, "t", "alpha").total,
        search(&store, &engine, "t", "beta").total,
    );
    assert_eq!(total, 18_000, "each id once");
    assert_eq!(alpha + beta, total, "no replaced document's text is left: {alpha} alpha, {beta} beta");
    assert!(alpha >= 6_000 && beta >= 6_000, "{alpha} alpha, {beta} beta");
}

#[test]
fn concept_lines_load_labels_and_hierarchy_and_bad_ones_are_skipped() {
    let (_dir, store) = store();
    let concepts = "{\"uri\": \"urn:a\", \"label\": \"Animals\"}\n{\"uri\": \"urn:b\", \"label\": \"Birds\", \"broader\": [\"urn:a\"]}\n{\"label\": \"no uri\"}\nnope\n";
    let report = import_concepts(&store, concepts.as_bytes(), &mut |_| {}).unwrap();
    assert_eq!(report.imported, 2);
    assert_eq!(report.errors.iter().map(|e| e.line).collect::<Vec<_>>(), [3, 4]);
    let doc = r#"{"id": "d", "facetList": [{"field": "dyn_uri_kind", "label": "Kind", "facets": [{"label": "b", "value": "urn:b"}]}]}"#;
    import_documents(&store, "s", doc.as_bytes(), &mut |_| {}).unwrap();
    let mut config = Config { search_space: "s".into(), ..Default::default() };
    config.filter.facets_to_show.push(FacetSetting {
        uri: "urn:searchstudio:field:dyn_uri_kind".into(),
        title: "Kind".into(),
        facet_mode: "hierarchical".into(),
        ..Default::default()
    });
    let engine = SearchEngine::new();
    let got = engine.search(&mut store.conn().unwrap(), &config, &SearchRequest::default()).unwrap();
    let top = &got.facets[0].facets;
    assert_eq!(top.len(), 1);
    assert_eq!((top[0].label.as_str(), top[0].value.as_deref(), top[0].count), ("Animals", Some("urn:a"), 1));
    let child = &top[0].children.as_ref().unwrap()[0];
    assert_eq!((child.label.as_str(), child.count), ("b", 1), "the document's own label wins in its search space");
}

/// Input arriving in chunks with a pause after each, as a pull's pages do; what the import tells it, with the
/// documents the store held at each telling.
struct Chunks {
    chunks: std::collections::VecDeque<Vec<u8>>,
    current: std::io::Cursor<Vec<u8>>,
    store: Store,
    told: Vec<(u64, i64)>,
}

impl std::io::Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::io::BufRead;
        let n = std::io::Read::read(&mut self.fill_buf()?, buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl std::io::BufRead for Chunks {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.current.position() as usize == self.current.get_ref().len() {
            if let Some(next) = self.chunks.pop_front() {
                self.current = std::io::Cursor::new(next);
            }
        }
        self.current.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.current.consume(amount)
    }
}

impl studio_local::Feed for Chunks {
    fn at_hand(&mut self, _: std::time::Duration) -> bool {
        (self.current.position() as usize) < self.current.get_ref().len()
    }

    fn stored(&mut self, lines: u64) -> Result<(), studio_local::StoreError> {
        let held = self.store.conn()?.query_row("SELECT count(*) FROM documents", [], |r| r.get(0))?;
        self.told.push((lines, held));
        Ok(())
    }
}

#[test]
fn input_that_pauses_is_stored_and_told_at_each_pause() {
    let (_dir, store) = store();
    let lines = |from: usize, n: usize| -> Vec<u8> {
        (from..from + n).flat_map(|i| format!("{{\"id\": \"d{i}\", \"title\": \"word {i}\"}}\n").into_bytes()).collect()
    };
    // The third chunk is longer than a batch: its batches are told a commit or so late, its end at the pause.
    let sizes = [100, 100, 12_000, 50];
    let mut chunks = std::collections::VecDeque::new();
    let mut from = 0;
    for n in sizes {
        chunks.push_back(lines(from, n));
        from += n;
    }
    let mut feed = Chunks { chunks, current: std::io::Cursor::new(Vec::new()), store: store.clone(), told: Vec::new() };
    let report = studio_local::import_fed(&store, "space", &mut feed, &mut |_| {}).unwrap();
    assert_eq!(report.imported, 12_250);
    let told: Vec<u64> = feed.told.iter().map(|&(lines, _)| lines).collect();
    assert!(told.windows(2).all(|w| w[0] < w[1]), "told in order, each once: {told:?}");
    for pause in [100, 200, 12_200, 12_250] {
        assert!(told.contains(&pause), "told at the pause after {pause} lines: {told:?}");
    }
    assert!(feed.told.iter().all(|&(lines, held)| held >= lines as i64), "told only what is stored: {:?}", feed.told);
    let engine = SearchEngine::new();
    assert_eq!(search(&store, &engine, "space", "word").total, 12_250);
}

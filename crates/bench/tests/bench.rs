//! `run_bench` produces a complete report on a small corpus, with the naive SQLite approach's answers
//! checked equal to ours (its timings are not asserted: speed belongs to benchmarks, not tests).

use studio_local::bench::corpus::{SynthCorpus, FIELDS};
use studio_local::bench::{chart, run_bench};

#[test]
fn bench_reports_the_issue_keys_and_compares_the_naive_engine() {
    let dir = tempfile::tempdir().unwrap();
    let report = studio_local::bench::run(dir.path(), &{
        let mut o = studio_local::bench::BenchOptions::new(400);
        o.runs = 12;
        o
    }, &mut [])
    .unwrap();
    assert_eq!(report.docs, 400);
    assert!(report.import_docs_per_s > 0.0 && report.open_ready_s > 0.0 && report.rss_mb > 0.0);
    assert!(report.search_p95_ms >= report.search_p50_ms);
    let kinds: Vec<&str> = report.kinds.iter().map(|k| k.kind.as_str()).collect();
    assert_eq!(kinds, ["search", "facets only", "similar (concepts)", "similar (text)", "recommend", "search, no selection"]);
    assert_eq!(report.engines.len(), 1, "the naive engine ran after agreeing with ours");
    assert!(report.naive_search_p50_ms.is_some() && report.search_vs_tantivy.is_none());
    let json = serde_json::to_value(&report).unwrap();
    for key in ["docs", "import_docs_per_s", "search_p50_ms", "search_p95_ms", "facets_only_p95_ms", "similar_p95_ms",
        "recommend_p95_ms", "open_ready_s", "rss_mb", "tantivy_search_p50_ms", "naive_search_p50_ms", "search_vs_tantivy"] {
        assert!(json.get(key).is_some(), "{key} missing from {json}");
    }
    let text = report.to_string();
    assert!(text.contains("documents/s") && text.contains("naive: search"), "{text}");
    let svg = chart::svg(&[report.clone(), report], chart::Metric::Cpu);
    assert!(svg.starts_with("<svg") && svg.contains("naive SQLite") && svg.contains("polyline"), "{svg}");
}

#[test]
fn the_old_entry_point_still_runs() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(run_bench(dir.path(), 200).unwrap().docs, 200);
}

#[test]
fn the_synthetic_corpus_has_the_shape_of_annotated_content() {
    let corpus = SynthCorpus::new(8);
    assert!(corpus.topics.len() + corpus.places.len() >= 5_000);
    assert_eq!(corpus.topics.iter().map(|c| c.path.len()).max(), Some(3), "three levels");
    let docs: Vec<_> = (0..2_000).map(|i| corpus.doc(i)).collect();
    assert_eq!(corpus.doc(17).title, docs[17].title, "a pure function of the seed and the number");
    let authors: std::collections::HashSet<&str> =
        docs.iter().flat_map(|d| d.literals.iter().filter(|(f, _)| *f == 2).map(|(_, v)| v.as_str())).collect();
    assert!(authors.len() > 500, "many distinct authors: {}", authors.len());
    let line = docs[0].to_json(&corpus);
    let fields: Vec<&str> = line["facetList"].as_array().unwrap().iter().map(|g| g["field"].as_str().unwrap()).collect();
    assert_eq!(fields, FIELDS);
    // Zipf: the most frequent word is far more common than the hundredth.
    let count = |w: &str| docs.iter().filter(|d| d.content.split(' ').any(|t| t == w)).count();
    assert!(count(&corpus.words[0]) > 5 * count(&corpus.words[100]).max(1));
}

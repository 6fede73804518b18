//! A first benchmark of the local engine (`studio bench --docs N`): generate a corpus of the demo's shape,
//! import it, then time a fixed mix of searches, facet-only queries, similar documents and
//! recommendations. Speed is measured here, never asserted in tests.

use std::fmt;
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::Path;
use std::time::Instant;

use serde::Serialize;
use studio_model::{Config, RecommendQuery, SearchRequest, SelectedFacet, SimilarQuery};

use crate::demo::{self, DEMO_SPACE};
use crate::error::StoreError;
use crate::import::{import_concepts, import_documents};
use crate::search::SearchEngine;
use crate::store::Store;

/// Calls per kind of operation.
const RUNS: usize = 60;
const QUERIES: &[&str] = &[
    "solar", "bank*", "\"interest rates\"", "berlin energy", "chip*", "vaccines trial*", "madrid", "\"electric vehicles\"",
    "recycling plastics", "inflation", "cybersecurity cloud", "são paulo", "sao paulo", "ports shipping", "record quarter",
];

/// Latency of one kind of operation.
#[derive(Debug, Clone, Serialize)]
pub struct KindStats {
    pub kind: String,
    pub runs: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
}

/// The outcome of a benchmark run.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    pub documents: u64,
    pub import_seconds: f64,
    /// Documents imported per second.
    pub import_rate: f64,
    /// Time to build the in-memory index after the import.
    pub index_build_ms: f64,
    pub kinds: Vec<KindStats>,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "documents     {}", self.documents)?;
        writeln!(f, "import        {:.2} s ({:.0} documents/s)", self.import_seconds, self.import_rate)?;
        writeln!(f, "index build   {:.1} ms", self.index_build_ms)?;
        writeln!(f, "{:<18}{:>6}{:>10}{:>10}", "kind", "runs", "p50 ms", "p95 ms")?;
        for k in &self.kinds {
            writeln!(f, "{:<18}{:>6}{:>10.2}{:>10.2}", k.kind, k.runs, k.p50_ms, k.p95_ms)?;
        }
        Ok(())
    }
}

fn stats(kind: &str, mut ms: Vec<f64>) -> KindStats {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms.get(((ms.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    KindStats { kind: kind.to_owned(), runs: ms.len(), p50_ms: at(0.5), p95_ms: at(0.95) }
}

fn timed<T>(times: &mut Vec<f64>, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = work();
    times.push(started.elapsed().as_secs_f64() * 1000.0);
    out
}

fn facet(field: &str, label: Option<&str>, value: Option<String>) -> SelectedFacet {
    SelectedFacet { field: field.to_owned(), label: label.map(str::to_owned), value }
}

/// Generates `docs` documents into a store in `dir` (created if needed), imports them and times the
/// operation mix. The corpus file `bench.jsonl` is left in `dir`.
pub fn run_bench(dir: &Path, docs: usize) -> Result<BenchReport, StoreError> {
    let store = Store::open_dir(dir)?;
    let corpus = dir.join("bench.jsonl");
    {
        let mut out = BufWriter::new(File::create(&corpus)?);
        demo::write_documents(&mut out, docs, 7)?;
        std::io::Write::flush(&mut out)?;
    }
    let mut concepts = Vec::new();
    demo::write_concepts(&mut concepts)?;
    import_concepts(&store, concepts.as_slice(), &mut |_| {})?;
    let started = Instant::now();
    let report = import_documents(&store, DEMO_SPACE, BufReader::new(File::open(&corpus)?), &mut |_| {})?;
    let import_seconds = started.elapsed().as_secs_f64();

    let config: Config = serde_json::from_value(demo::demo_configuration()["config"].clone())?;
    let engine = SearchEngine::new();
    let mut conn = store.conn()?;
    let started = Instant::now();
    engine.index(&mut conn, DEMO_SPACE)?;
    let index_build_ms = started.elapsed().as_secs_f64() * 1000.0;

    let topic = |i: usize| demo::demo_concepts().get(i % 120).map(|c| c.uri.clone());
    let doc_id = |i: usize| format!("https://demo.searchstudio.dev/doc/{:06}", (i * 7919) % docs.max(1));
    let (mut text, mut facets, mut recommend) = (Vec::new(), Vec::new(), Vec::new());
    let (mut by_concepts, mut by_text) = (Vec::new(), Vec::new());
    for i in 0..RUNS {
        let mut request = SearchRequest { input: Some(QUERIES[i % QUERIES.len()].to_owned()), ..Default::default() };
        if i % 3 == 0 {
            request.selected_facets.push(facet("dyn_uri_topic", None, topic(i * 5)));
        }
        if i % 4 == 1 {
            request.selected_facets.push(facet("dyn_lit_context", Some("News"), None));
        }
        timed(&mut text, || engine.search(&mut conn, &config, &request)).map_err(backend)?;

        let mut request = SearchRequest { start: Some((i % 5) as i32 * 10), ..Default::default() };
        request.selected_facets.push(facet("dyn_uri_topic", None, topic(i * 11)));
        if i % 2 == 0 {
            request.selected_facets.push(facet("dyn_uri_region", None, demo::demo_concepts().get(126 + i % 50).map(|c| c.uri.clone())));
        }
        timed(&mut facets, || engine.search(&mut conn, &config, &request)).map_err(backend)?;

        let query = SimilarQuery {
            uri: doc_id(i),
            number: None,
            similarity: Some(if i % 2 == 0 { "concepts" } else { "text" }.to_owned()),
        };
        let times = if i % 2 == 0 { &mut by_concepts } else { &mut by_text };
        timed(times, || engine.similar(&mut conn, &config, &query)).map_err(backend)?;

        let query = RecommendQuery {
            uri: doc_id(i + 1),
            recommender: if i % 2 == 0 { "related-concepts" } else { "same-author" }.to_owned(),
        };
        timed(&mut recommend, || engine.recommend(&mut conn, &config, &query)).map_err(backend)?;
    }
    Ok(BenchReport {
        documents: report.imported,
        import_seconds,
        import_rate: report.imported as f64 / import_seconds.max(1e-9),
        index_build_ms,
        kinds: vec![
            stats("search", text),
            stats("facets only", facets),
            stats("similar concepts", by_concepts),
            stats("similar text", by_text),
            stats("recommend", recommend),
        ],
    })
}

fn backend(e: studio_model::BackendError) -> StoreError {
    StoreError::Bench(e.to_string())
}

//! The benchmark of docs/performance.md: a seeded synthetic corpus shaped like real annotated content
//! ([`corpus`]), imported through the real import path, then timings of our engine (import, search with
//! text, three selected facets and ten facet groups, facet-only, getSimilar, getRecommendations,
//! open-and-ready, peak RSS), and the same query mix on the naive SQLite approach ([`naive`]) and on
//! tantivy ([`tantivy_engine`]) after checking that their answers agree with ours ([`compare`]).
//!
//! It is its own crate so that neither the desktop app nor the `studio` binary links any of it (nor
//! tantivy): it times crates/local only through its public API (`Store`, `SearchEngine`, the imports).
//! Speed is measured here, never asserted in tests.

pub mod chart;
pub mod clock;
pub mod compare;
pub mod corpus;
pub mod error;
pub mod fts5;
pub mod naive;
pub mod preview;
pub mod pull;
pub mod report;
pub mod saves;
pub mod searchable;
pub mod served;
pub mod tantivy_engine;
pub mod text_build;
pub mod timing;
pub mod workload;

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use studio_local::search::Tuning;
use studio_local::{import_concepts, import_documents, SearchEngine, Store};
use studio_model::{RecommendQuery, SimilarQuery};

pub use clock::{Clock, Phases};
pub use compare::Comparator;
pub use corpus::{SynthCorpus, BENCH_SPACE};
pub use error::BenchError;
pub use report::{BenchReport, EngineFigures};
pub use searchable::make_searchable;
pub use timing::{KindStats, Sample};
pub use workload::{bench_config, Answer, Query, Workload};

use clock::ensure_quiet;
use timing::{load_average, measure, peak_rss_mb, stats};

/// What to run.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Documents in the corpus.
    pub docs: usize,
    /// Seed of the corpus and the query mix.
    pub seed: u64,
    /// Queries of each kind.
    pub runs: usize,
    /// Also run the naive SQLite approach.
    pub naive: bool,
    /// Also serve the store over HTTP and time `studio pull` of it into a fresh store.
    pub pull: bool,
}

impl BenchOptions {
    /// The default run for `docs` documents: 100 queries of each kind, naive comparison and pull included.
    pub fn new(docs: usize) -> Self {
        BenchOptions { docs, seed: 8, runs: 100, naive: true, pull: true }
    }
}

/// Writes `docs` documents of `corpus` as JSON Lines to `file`.
fn write_corpus(corpus: &SynthCorpus, docs: usize, file: &Path) -> std::io::Result<()> {
    let mut out = BufWriter::new(File::create(file)?);
    for i in 0..docs {
        serde_json::to_writer(&mut out, &corpus.doc(i).to_json(corpus))?;
        out.write_all(b"\n")?;
    }
    // On disk before any clock starts: left to the kernel, the file's write-back (3.2 GB at 1M documents) would
    // share the disk with the timed import's own writes and syncs.
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Generates the corpus into `dir/bench.jsonl` (before the clock), then imports it and makes it searchable at
/// full speed, on the clock; returns its phases.
fn import(
    store: &Store,
    engine: &SearchEngine,
    corpus: &SynthCorpus,
    dir: &Path,
    docs: usize,
) -> Result<Phases, BenchError> {
    let mut concepts = Vec::new();
    for line in corpus.concept_lines() {
        concepts.extend(line.to_string().bytes());
        concepts.push(b'\n');
    }
    import_concepts(store, concepts.as_slice(), &mut |_| {})?;
    let file = dir.join("bench.jsonl");
    write_corpus(corpus, docs, &file).map_err(BenchError::file("write", &file))?;
    let input = BufReader::new(File::open(&file).map_err(BenchError::file("read", &file))?);
    let mut clock = Clock::start("our import")?;
    clock.phase("import", || Ok(import_documents(store, BENCH_SPACE, input, &mut |_| {})?))?;
    make_searchable(&mut clock, store, engine, BENCH_SPACE)?;
    let phases = clock.stop()?;
    std::fs::remove_file(&file).map_err(BenchError::file("remove", &file))?;
    Ok(phases)
}

/// How many configuration saves are timed each way (synced and not).
const SAVE_RUNS: usize = 100;

/// Runs the whole benchmark in a store in `dir`: our engine, then the naive approach (when asked) and
/// every `extra` engine (the `studio-bench` program passes tantivy).
pub fn run(dir: &Path, options: &BenchOptions, extra: &mut [&mut dyn Comparator]) -> Result<BenchReport, BenchError> {
    let docs = options.docs;
    let corpus = SynthCorpus::new(options.seed);
    let workload = Workload::new(&corpus, docs, options.runs);
    let config = bench_config();
    let store = Store::open_dir(dir)?;
    let engine = SearchEngine::new();
    let import_phases = import(&store, &engine, &corpus, dir, docs)?;
    let import_seconds = import_phases.total_ms() / 1000.0;

    let mut conn = store.conn()?;
    ensure_quiet("before our searches", false)?;
    let (answers, timed) = time_searches(&engine, &mut conn, &config, &workload)?;
    let rss_mb = peak_rss_mb();
    // The same searches on one thread: what is compared with tantivy on one thread.
    let one_thread = SearchEngine::with_tuning(Tuning { counting_threads: 1, ..Tuning::default() });
    one_thread.index(&mut conn, BENCH_SPACE)?;
    one_thread.settle();
    ensure_quiet("before our searches on one thread", false)?;
    let one_thread = time_on_one_thread(&one_thread, &mut conn, &config, &workload)?;
    drop(conn);
    let (saves_synced, saves_unsynced) = saves::save_latency(&store, SAVE_RUNS)?;
    drop(engine);
    drop(store);

    // Open the existing store afresh (same process: the OS page cache is warm, our caches are not).
    let started = Instant::now();
    let store = Store::open_dir(dir)?;
    let engine = SearchEngine::new();
    let mut conn = store.conn()?;
    let first = workload.searches.first().map(Query::request).unwrap_or_default();
    engine.search(&mut conn, &config, &first)?;
    let open_ready_s = started.elapsed().as_secs_f64();
    drop(conn);
    // What opening started (packing, upkeep) ends before anything else is timed.
    engine.settle();
    drop(engine);

    let kinds = timed.kinds();
    let (config_save_p50_ms, config_save_p95_ms) = (saves_synced.p50_ms, saves_synced.p95_ms);
    let (config_save_unsynced_p50_ms, config_save_unsynced_p95_ms) = (saves_unsynced.p50_ms, saves_unsynced.p95_ms);
    let mut report = BenchReport {
        docs: docs as u64,
        queries_per_kind: workload.distinct(),
        import_docs_per_s: docs as f64 / import_seconds.max(1e-9),
        search_p50_ms: kinds[0].p50_ms,
        search_p95_ms: kinds[0].p95_ms,
        search_p99_ms: kinds[0].p99_ms,
        search_one_thread_p95_ms: one_thread[0].p95_ms,
        facets_only_p95_ms: kinds[1].p95_ms,
        facets_only_one_thread_p95_ms: one_thread[1].p95_ms,
        similar_p95_ms: kinds[2].p95_ms,
        recommend_p95_ms: kinds[4].p95_ms,
        search_no_selection_p95_ms: kinds[5].p95_ms,
        text_similar_p95_ms: kinds[3].p95_ms,
        search_again_p95_ms: kinds[6].p95_ms,
        open_ready_s,
        rss_mb,
        import_seconds,
        index_build_ms: import_phases.get("index").unwrap_or(0.0),
        import_phases_ms: import_phases,
        open_ready_method: "same process: new Store and SearchEngine, OS page cache warm".into(),
        config_save_p50_ms,
        config_save_p95_ms,
        config_save_unsynced_p50_ms,
        config_save_unsynced_p95_ms,
        kinds,
        kinds_one_thread: one_thread,
        ..Default::default()
    };
    if options.pull {
        // A facet-only query's literal selections (author, genre, ...). Words are left out because the API's
        // result documents carry no body text, so the copy's full-text index holds titles and descriptions
        // only; concept selections because a pull copies only the concepts the first answer's facets show
        // (at most 1000 per level), so the copy of a larger hierarchy can miss ancestors.
        let mut check = workload.facet_only.first().map(Query::request).unwrap_or_default();
        check.input = None;
        check.selected_facets.retain(|f| f.value.is_none());
        let pulled = pull::pull(&store, docs, &dir.join("pulled"), &check)?;
        report.pull_docs_per_s = Some(pulled.docs_per_s);
        report.pull_vs_import = Some(pulled.docs_per_s / pulled.import_docs_per_s.max(1e-9));
        report.pull_import_docs_per_s = Some(pulled.import_docs_per_s);
        report.pull_phases_ms = Some(pulled.phases);
        report.pull_import_phases_ms = Some(pulled.import_phases);
    }
    let answers = (answers.0.as_slice(), answers.1.as_slice());
    if options.naive {
        let mut naive = naive::NaiveSqlite::new(store.clone());
        report.engines.push(compare::compare(&mut naive, &corpus, docs, dir, &workload, answers)?);
    }
    for c in extra.iter_mut() {
        report.engines.push(compare::compare(&mut **c, &corpus, docs, dir, &workload, answers)?);
    }
    report.summarise();
    report.load_average = load_average();
    Ok(report)
}

/// Our engine's answers to the searches and to the facet-only queries.
type Answers = (Vec<Answer>, Vec<Answer>);

/// The timed calls of our engine, per kind.
#[derive(Default)]
struct Timed {
    search: Vec<Sample>,
    facets: Vec<Sample>,
    by_concepts: Vec<Sample>,
    by_text: Vec<Sample>,
    recommend: Vec<Sample>,
    unfiltered: Vec<Sample>,
    again: Vec<Sample>,
}

impl Timed {
    /// The statistics of each kind, in the order the report reads them.
    fn kinds(self) -> Vec<KindStats> {
        vec![
            stats("search", self.search),
            stats("facets only", self.facets),
            stats("similar (concepts)", self.by_concepts),
            stats("similar (text)", self.by_text),
            stats("recommend", self.recommend),
            stats("search, no selection", self.unfiltered),
            stats("search, same words again", self.again),
        ]
    }
}

/// Our engine's answers to the workload's searches and facet-only queries (a first, untimed pass, which the
/// other engines' answers are checked against), then every kind of call timed.
fn time_searches(
    engine: &SearchEngine,
    conn: &mut rusqlite::Connection,
    config: &studio_model::Config,
    workload: &Workload,
) -> Result<(Answers, Timed), BenchError> {
    // A first pass records the answers the other engines must give and warms caches; the second is timed.
    let mut answers = (Vec::new(), Vec::new());
    for (queries, out) in [(&workload.searches, &mut answers.0), (&workload.facet_only, &mut answers.1)] {
        for q in queries {
            out.push(Answer::of_response(&engine.search(conn, config, &q.request())?));
        }
    }
    let (search, facets) = time_search_and_facets(engine, conn, config, workload)?;
    // The same words with no facet selected: every match is scored and the counts cover every match.
    let mut unfiltered = Vec::new();
    for q in &workload.searches {
        let request = q.words_alone();
        engine.forget_kept_matches();
        measure(&mut unfiltered, || engine.search(conn, config, &request))?;
    }
    // The same words again with the three facets selected, right after the words alone: a designer clicking
    // refiners in the preview after typing.
    let mut again = Vec::new();
    for q in &workload.searches {
        engine.forget_kept_matches();
        engine.search(conn, config, &q.words_alone())?;
        measure(&mut again, || engine.search(conn, config, &q.request()))?;
    }
    let (mut by_concepts, mut by_text, mut recommend) = (Vec::new(), Vec::new(), Vec::new());
    for (i, uri) in workload.documents.iter().enumerate() {
        for (plugin, times) in [("concepts", &mut by_concepts), ("text", &mut by_text)] {
            let query =
                SimilarQuery { uri: uri.clone(), number: None, similarity: Some(plugin.to_owned()), explain: false };
            measure(times, || engine.similar(conn, config, &query))?;
        }
        let recommender = if i % 2 == 0 { "related-concepts" } else { "same-author" };
        let query = RecommendQuery { uri: uri.clone(), recommender: recommender.to_owned(), explain: false };
        measure(&mut recommend, || engine.recommend(conn, config, &query))?;
    }
    Ok((answers, Timed { search, facets, by_concepts, by_text, recommend, unfiltered, again }))
}

/// The searches and the facet-only queries timed on an engine counting on one thread (after an untimed pass,
/// as for the engine as shipped).
fn time_on_one_thread(
    engine: &SearchEngine,
    conn: &mut rusqlite::Connection,
    config: &studio_model::Config,
    workload: &Workload,
) -> Result<Vec<KindStats>, BenchError> {
    for q in workload.searches.iter().chain(&workload.facet_only) {
        engine.search(conn, config, &q.request())?;
    }
    let (search, facets) = time_search_and_facets(engine, conn, config, workload)?;
    Ok(vec![stats("search", search), stats("facets only", facets)])
}

/// The searches and the facet-only queries, each timed once. Each search is timed as one of words not searched
/// before: the engine keeps the text matches of its last searches (for the preview's next search of the same
/// words), which an earlier pass filled.
fn time_search_and_facets(
    engine: &SearchEngine,
    conn: &mut rusqlite::Connection,
    config: &studio_model::Config,
    workload: &Workload,
) -> Result<(Vec<Sample>, Vec<Sample>), BenchError> {
    let (mut search, mut facets) = (Vec::new(), Vec::new());
    for q in &workload.searches {
        engine.forget_kept_matches();
        measure(&mut search, || engine.search(conn, config, &q.request()))?;
    }
    for q in &workload.facet_only {
        measure(&mut facets, || engine.search(conn, config, &q.request()))?;
    }
    Ok((search, facets))
}

/// The benchmark's calls of our engine timed over a benchmark store of `docs` documents kept in `dir` by an
/// earlier run (`--dir`), without importing it again: what a change of the engine is measured with at sizes
/// whose import takes long.
pub fn run_kept(dir: &Path, docs: usize, runs: usize) -> Result<Vec<KindStats>, BenchError> {
    let corpus = SynthCorpus::new(BenchOptions::new(docs).seed);
    let workload = Workload::new(&corpus, docs, runs);
    // Opening would create a store where there is none.
    if !dir.join(studio_local::DOCUMENTS_FILE).exists() {
        return Err(BenchError::NoBenchSpace(dir.to_owned()));
    }
    let store = Store::open_dir(dir)?;
    let engine = SearchEngine::new();
    let mut conn = store.conn()?;
    let found = engine.index(&mut conn, BENCH_SPACE)?.len();
    engine.settle();
    if found != docs as u64 {
        return Err(BenchError::KeptSize { dir: dir.to_owned(), found, docs });
    }
    let (_, timed) = time_searches(&engine, &mut conn, &bench_config(), &workload)?;
    Ok(timed.kinds())
}

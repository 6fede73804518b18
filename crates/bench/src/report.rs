//! The benchmark's figures: the one JSON object `--json` prints (its first keys are the ones
//! docs/performance.md lists, and they never change name), and the plain-text table printed otherwise.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::clock::Phases;
use crate::timing::KindStats;

/// The figures of one compared engine.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EngineFigures {
    pub engine: String,
    /// Time to build its index from documents made before its clock, to searchable: the sum of `build_phases_ms`.
    pub build_s: f64,
    /// The build's phases, in the order they ran (phase → milliseconds).
    #[serde(default)]
    pub build_phases_ms: Phases,
    /// Searches and facet-only queries on one thread.
    pub search: KindStats,
    pub facets_only: KindStats,
    /// The same on two threads, for an engine that can search on several.
    #[serde(default)]
    pub search_two_threads: Option<KindStats>,
    #[serde(default)]
    pub facets_only_two_threads: Option<KindStats>,
}

/// The outcome of a benchmark run: the headline keys first, then the details.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BenchReport {
    pub docs: u64,
    /// Distinct queries of each kind (the fewest of any kind) every percentile comes from.
    #[serde(default)]
    pub queries_per_kind: usize,
    /// Documents per second from the first document read to searchable at full speed (`import_phases_ms`).
    pub import_docs_per_s: f64,
    /// The import's phases, in the order they ran (phase → milliseconds), summing to `import_seconds`.
    #[serde(default)]
    pub import_phases_ms: Phases,
    /// tantivy's build's phases, summing to its build time.
    #[serde(default)]
    pub tantivy_phases_ms: Option<Phases>,
    /// Our search as shipped (facet counting on up to two threads).
    pub search_p50_ms: f64,
    pub search_p95_ms: f64,
    #[serde(default)]
    pub search_p99_ms: f64,
    /// Our search counting on one thread.
    #[serde(default)]
    pub search_one_thread_p95_ms: f64,
    pub facets_only_p95_ms: f64,
    #[serde(default)]
    pub facets_only_one_thread_p95_ms: f64,
    /// getSimilar with the default plugin (`concepts`).
    pub similar_p95_ms: f64,
    /// getRecommendations, both recommenders alternating.
    pub recommend_p95_ms: f64,
    /// The search's words with no facet selected (what the preview sends while a designer types).
    #[serde(default)]
    pub search_no_selection_p95_ms: f64,
    /// getSimilar with the `text` plugin.
    #[serde(default)]
    pub text_similar_p95_ms: f64,
    /// The search's words and facets right after the same words alone (refiners clicked after typing),
    /// answered from the text matches the engine kept.
    #[serde(default)]
    pub search_again_p95_ms: f64,
    /// Our import rate ÷ tantivy's index build rate over the same corpus in the same run.
    #[serde(default)]
    pub import_vs_tantivy: Option<f64>,
    /// Documents per second of `studio pull` copying the search space from the served store (real server
    /// on loopback, real client) into a fresh store; none when the run left the pull out.
    #[serde(default)]
    pub pull_docs_per_s: Option<f64>,
    /// The pull rate ÷ the rate of an import of the same documents (the lines the pull imports, made before
    /// the clock) in the same run, both to searchable at full speed.
    #[serde(default)]
    pub pull_vs_import: Option<f64>,
    /// That import's rate, documents per second.
    #[serde(default)]
    pub pull_import_docs_per_s: Option<f64>,
    /// The pull's phases and those of the import of the same documents.
    #[serde(default)]
    pub pull_phases_ms: Option<Phases>,
    #[serde(default)]
    pub pull_import_phases_ms: Option<Phases>,
    /// Seconds from opening the existing store to the first answered search (see `open_ready_method`).
    pub open_ready_s: f64,
    /// Peak resident memory (VmHWM) of the process after our engine's part of the run.
    pub rss_mb: f64,
    pub tantivy_search_p50_ms: Option<f64>,
    /// tantivy's search on one thread, and with a two-thread executor.
    #[serde(default)]
    pub tantivy_search_p95_ms: Option<f64>,
    #[serde(default)]
    pub tantivy_two_thread_search_p95_ms: Option<f64>,
    pub naive_search_p50_ms: Option<f64>,
    /// Our search p95 ÷ tantivy's, both on one thread.
    pub search_vs_tantivy: Option<f64>,
    /// Our search p95 as shipped ÷ tantivy's with a two-thread executor.
    #[serde(default)]
    pub search_vs_tantivy_two_threads: Option<f64>,
    /// Our search's CPU p50 ÷ tantivy's, both on one thread: load on the machine skews it less.
    #[serde(default)]
    pub search_vs_tantivy_cpu: Option<f64>,
    pub import_seconds: f64,
    /// The `index` phase of the import: the in-memory index built right after the documents are written.
    pub index_build_ms: f64,
    pub open_ready_method: String,
    /// A configuration save as the store commits it, synced before it returns (what the store does).
    #[serde(default)]
    pub config_save_p50_ms: f64,
    #[serde(default)]
    pub config_save_p95_ms: f64,
    /// The same save without the sync, for the cost of durability.
    #[serde(default)]
    pub config_save_unsynced_p50_ms: f64,
    #[serde(default)]
    pub config_save_unsynced_p95_ms: f64,
    /// Every timed kind of our engine.
    pub kinds: Vec<KindStats>,
    /// The searches and facet-only queries of our engine counting on one thread.
    #[serde(default)]
    pub kinds_one_thread: Vec<KindStats>,
    /// The compared engines.
    pub engines: Vec<EngineFigures>,
    /// Load average when the run ended (`/proc/loadavg`), since other work on the machine skews timings.
    pub load_average: String,
}

impl BenchReport {
    /// Fills the comparison keys from the engines' figures.
    pub(crate) fn summarise(&mut self) {
        let p50 = |name: &str| self.engines.iter().find(|e| e.engine == name).map(|e| e.search.p50_ms);
        self.tantivy_search_p50_ms = p50("tantivy");
        self.naive_search_p50_ms = p50("naive");
        let tantivy = self.engines.iter().find(|e| e.engine == "tantivy");
        self.tantivy_search_p95_ms = tantivy.map(|e| e.search.p95_ms);
        self.tantivy_two_thread_search_p95_ms = tantivy.and_then(|e| e.search_two_threads.as_ref()).map(|k| k.p95_ms);
        self.tantivy_phases_ms = tantivy.map(|e| e.build_phases_ms.clone());
        let ratio = |ours: f64, theirs: Option<f64>| theirs.filter(|t| *t > 0.0).map(|t| ours / t);
        self.search_vs_tantivy = ratio(self.search_one_thread_p95_ms, self.tantivy_search_p95_ms);
        self.search_vs_tantivy_two_threads = ratio(self.search_p95_ms, self.tantivy_two_thread_search_p95_ms);
        let ours_cpu = self.kinds_one_thread.first().map(|k| k.cpu_p50_ms).unwrap_or(0.0);
        self.search_vs_tantivy_cpu = ratio(ours_cpu, tantivy.map(|e| e.search.cpu_p50_ms));
        // Rates, not times: above 1 our import is the faster.
        let their_rate = tantivy.filter(|e| e.build_s > 0.0).map(|e| self.docs as f64 / e.build_s);
        self.import_vs_tantivy = ratio(self.import_docs_per_s, their_rate);
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "documents     {} ({} distinct queries of each kind)", self.docs, self.queries_per_kind)?;
        writeln!(
            f,
            "import        {:.2} s ({:.0} documents/s) to searchable",
            self.import_seconds, self.import_docs_per_s
        )?;
        writeln!(f, "              {}", self.import_phases_ms)?;
        if let Some(phases) = &self.tantivy_phases_ms {
            writeln!(f, "tantivy build {:.2} s: {phases}", phases.total_ms() / 1000.0)?;
        }
        if let (Some(rate), Some(ratio)) = (self.pull_docs_per_s, self.pull_vs_import) {
            writeln!(
                f,
                "pull          {rate:.0} documents/s over HTTP ({ratio:.2} of an import of the same documents)"
            )?;
        }
        for (what, phases) in [("pull", &self.pull_phases_ms), ("same import", &self.pull_import_phases_ms)] {
            if let Some(phases) = phases {
                writeln!(f, "{what:<14}{phases}")?;
            }
        }
        writeln!(f, "open + ready  {:.3} s ({})", self.open_ready_s, self.open_ready_method)?;
        writeln!(f, "peak RSS      {:.0} MB", self.rss_mb)?;
        writeln!(
            f,
            "save          p50 {:.2} / p95 {:.2} ms synced; {:.2} / {:.2} ms without the sync",
            self.config_save_p50_ms,
            self.config_save_p95_ms,
            self.config_save_unsynced_p50_ms,
            self.config_save_unsynced_p95_ms
        )?;
        writeln!(
            f,
            "{:<36}{:>6}{:>10}{:>10}{:>10}{:>10}{:>10}",
            "kind", "runs", "p50 ms", "p95 ms", "p99 ms", "cpu p50", "cpu p95"
        )?;
        let row = |f: &mut fmt::Formatter<'_>, kind: &str, k: &KindStats| {
            writeln!(
                f,
                "{:<36}{:>6}{:>10.2}{:>10.2}{:>10.2}{:>10.2}{:>10.2}",
                kind, k.runs, k.p50_ms, k.p95_ms, k.p99_ms, k.cpu_p50_ms, k.cpu_p95_ms
            )
        };
        for k in &self.kinds {
            row(f, &k.kind, k)?;
        }
        for k in &self.kinds_one_thread {
            row(f, &format!("{}, one thread", k.kind), k)?;
        }
        for e in &self.engines {
            let two = [&e.search_two_threads, &e.facets_only_two_threads];
            for (k, two) in [&e.search, &e.facets_only].into_iter().zip(two) {
                row(f, &format!("{}: {}, one thread", e.engine, k.kind), k)?;
                if let Some(two) = two {
                    row(f, &format!("{}: {}, two threads", e.engine, k.kind), two)?;
                }
            }
            writeln!(f, "{:<36}{:>26.2} s", format!("{}: build", e.engine), e.build_s)?;
        }
        if let (Some(r), Some(c)) = (self.search_vs_tantivy, self.search_vs_tantivy_cpu) {
            writeln!(f, "search vs tantivy, one thread each (p95)  {r:.2} (cpu p50 {c:.2})")?;
        }
        if let Some(r) = self.search_vs_tantivy_two_threads {
            writeln!(f, "search vs tantivy, two threads each (p95) {r:.2}")?;
        }
        if let Some(r) = self.import_vs_tantivy {
            writeln!(f, "import vs tantivy build  {r:.2} (documents/s ÷ documents/s)")?;
        }
        writeln!(f, "load average  {}", self.load_average)
    }
}

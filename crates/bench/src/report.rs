//! The benchmark's figures: the one JSON object `--json` prints (its first keys are the ones
//! docs/performance.md lists, and they never change name), and the plain-text table printed otherwise.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::timing::KindStats;

/// The figures of one compared engine.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EngineFigures {
    pub engine: String,
    /// Time to build its index from the corpus (not comparable with our import: see docs/performance.md).
    pub build_s: f64,
    pub search: KindStats,
    pub facets_only: KindStats,
}

/// The outcome of a benchmark run: the headline keys first, then the details.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BenchReport {
    pub docs: u64,
    pub import_docs_per_s: f64,
    pub search_p50_ms: f64,
    pub search_p95_ms: f64,
    pub facets_only_p95_ms: f64,
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
    /// The pull rate ÷ our local import rate (`import_docs_per_s`) of the same run.
    #[serde(default)]
    pub pull_vs_import: Option<f64>,
    /// Seconds from opening the existing store to the first answered search (see `open_ready_method`).
    pub open_ready_s: f64,
    /// Peak resident memory (VmHWM) of the process after our engine's part of the run.
    pub rss_mb: f64,
    pub tantivy_search_p50_ms: Option<f64>,
    pub naive_search_p50_ms: Option<f64>,
    /// Our search p50 ÷ tantivy's.
    pub search_vs_tantivy: Option<f64>,
    /// The same ratio on CPU time, which load on the machine skews less.
    #[serde(default)]
    pub search_vs_tantivy_cpu: Option<f64>,
    pub import_seconds: f64,
    /// Time to build the in-memory index right after the import.
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
        self.search_vs_tantivy = self.tantivy_search_p50_ms.filter(|t| *t > 0.0).map(|t| self.search_p50_ms / t);
        let ours = self.kinds.first().map(|k| k.cpu_p50_ms).unwrap_or(0.0);
        let tantivy = self.engines.iter().find(|e| e.engine == "tantivy");
        let theirs = tantivy.map(|e| e.search.cpu_p50_ms);
        self.search_vs_tantivy_cpu = theirs.filter(|t| *t > 0.0).map(|t| ours / t);
        // Rates, not times: above 1 our import is the faster.
        let their_rate = tantivy.filter(|e| e.build_s > 0.0).map(|e| self.docs as f64 / e.build_s);
        self.import_vs_tantivy = their_rate.filter(|r| *r > 0.0).map(|r| self.import_docs_per_s / r);
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "documents     {}", self.docs)?;
        writeln!(f, "import        {:.2} s ({:.0} documents/s)", self.import_seconds, self.import_docs_per_s)?;
        if let (Some(rate), Some(ratio)) = (self.pull_docs_per_s, self.pull_vs_import) {
            writeln!(f, "pull          {rate:.0} documents/s over HTTP ({ratio:.2} of the import rate)")?;
        }
        writeln!(f, "index build   {:.1} ms", self.index_build_ms)?;
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
        writeln!(f, "{:<24}{:>6}{:>10}{:>10}{:>10}{:>10}", "kind", "runs", "p50 ms", "p95 ms", "cpu p50", "cpu p95")?;
        let row = |f: &mut fmt::Formatter<'_>, kind: &str, k: &KindStats| {
            writeln!(
                f,
                "{:<24}{:>6}{:>10.2}{:>10.2}{:>10.2}{:>10.2}",
                kind, k.runs, k.p50_ms, k.p95_ms, k.cpu_p50_ms, k.cpu_p95_ms
            )
        };
        for k in &self.kinds {
            row(f, &k.kind, k)?;
        }
        for e in &self.engines {
            for k in [&e.search, &e.facets_only] {
                row(f, &format!("{}: {}", e.engine, k.kind), k)?;
            }
            writeln!(f, "{:<24}{:>26.2} s", format!("{}: build", e.engine), e.build_s)?;
        }
        if let (Some(r), Some(c)) = (self.search_vs_tantivy, self.search_vs_tantivy_cpu) {
            writeln!(f, "search vs tantivy (p50)  {r:.2} (cpu {c:.2})")?;
        }
        if let Some(r) = self.import_vs_tantivy {
            writeln!(f, "import vs tantivy build  {r:.2} (documents/s ÷ documents/s)")?;
        }
        writeln!(f, "load average  {}", self.load_average)
    }
}

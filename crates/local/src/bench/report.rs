//! The benchmark's figures: per-kind latency percentiles, the one JSON object `--json` prints, and the
//! plain-text table printed otherwise.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::compare::EngineFigures;

/// Latency of one kind of operation.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct KindStats {
    pub kind: String,
    pub runs: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
}

/// Percentiles (nearest rank) of a list of milliseconds.
pub fn stats(kind: &str, mut ms: Vec<f64>) -> KindStats {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms.get(((ms.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    KindStats { kind: kind.to_owned(), runs: ms.len(), p50_ms: at(0.5), p95_ms: at(0.95) }
}

/// The outcome of a benchmark run: the keys of issue 8 first, then the details.
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
    /// Seconds from opening the existing store to the first answered search (see `open_ready_method`).
    pub open_ready_s: f64,
    /// Peak resident memory (VmHWM) of the process after our engine's part of the run.
    pub rss_mb: f64,
    pub tantivy_search_p50_ms: Option<f64>,
    pub naive_search_p50_ms: Option<f64>,
    /// Our search p50 ÷ tantivy's.
    pub search_vs_tantivy: Option<f64>,
    pub import_seconds: f64,
    /// Time to build the in-memory index right after the import.
    pub index_build_ms: f64,
    pub open_ready_method: String,
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
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "documents     {}", self.docs)?;
        writeln!(f, "import        {:.2} s ({:.0} documents/s)", self.import_seconds, self.import_docs_per_s)?;
        writeln!(f, "index build   {:.1} ms", self.index_build_ms)?;
        writeln!(f, "open + ready  {:.3} s ({})", self.open_ready_s, self.open_ready_method)?;
        writeln!(f, "peak RSS      {:.0} MB", self.rss_mb)?;
        writeln!(f, "{:<24}{:>6}{:>10}{:>10}", "kind", "runs", "p50 ms", "p95 ms")?;
        for k in &self.kinds {
            writeln!(f, "{:<24}{:>6}{:>10.2}{:>10.2}", k.kind, k.runs, k.p50_ms, k.p95_ms)?;
        }
        for e in &self.engines {
            for k in [&e.search, &e.facets_only] {
                let kind = format!("{}: {}", e.engine, k.kind);
                writeln!(f, "{:<24}{:>6}{:>10.2}{:>10.2}", kind, k.runs, k.p50_ms, k.p95_ms)?;
            }
            writeln!(f, "{:<24}{:>26.2} s", format!("{}: build", e.engine), e.build_s)?;
        }
        if let Some(r) = self.search_vs_tantivy {
            writeln!(f, "search vs tantivy (p50)  {r:.2}")?;
        }
        writeln!(f, "load average  {}", self.load_average)
    }
}

/// Peak resident set size of this process in MB (VmHWM), or 0 where /proc is missing.
pub fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The 1-, 5- and 15-minute load averages, or empty where /proc is missing.
pub fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

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
    /// Wall-clock latency.
    pub p50_ms: f64,
    pub p95_ms: f64,
    /// CPU time of the calling thread (from /proc/thread-self/schedstat; 0 where unavailable): close to
    /// what the wall clock would show on an idle machine, since it leaves out waiting for a busy CPU.
    #[serde(default)]
    pub cpu_p50_ms: f64,
    #[serde(default)]
    pub cpu_p95_ms: f64,
}

/// One timed call: wall-clock and CPU milliseconds.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub wall_ms: f64,
    pub cpu_ms: f64,
}

/// CPU time of the calling thread in milliseconds, or 0 where /proc does not tell it.
pub fn thread_cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()))
        .map_or(0.0, |ns| ns / 1e6)
}

/// Times one call.
pub fn measure<T>(samples: &mut Vec<Sample>, work: impl FnOnce() -> T) -> T {
    let (cpu, started) = (thread_cpu_ms(), std::time::Instant::now());
    let out = work();
    let wall_ms = started.elapsed().as_secs_f64() * 1000.0;
    samples.push(Sample { wall_ms, cpu_ms: thread_cpu_ms() - cpu });
    out
}

fn percentiles(mut ms: Vec<f64>) -> (f64, f64) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms.get(((ms.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    (at(0.5), at(0.95))
}

/// Percentiles (nearest rank) of the samples of one kind.
pub fn stats(kind: &str, samples: Vec<Sample>) -> KindStats {
    let (p50_ms, p95_ms) = percentiles(samples.iter().map(|s| s.wall_ms).collect());
    let (cpu_p50_ms, cpu_p95_ms) = percentiles(samples.iter().map(|s| s.cpu_ms).collect());
    KindStats { kind: kind.to_owned(), runs: samples.len(), p50_ms, p95_ms, cpu_p50_ms, cpu_p95_ms }
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
    /// The same ratio on CPU time, which load on the machine skews less.
    #[serde(default)]
    pub search_vs_tantivy_cpu: Option<f64>,
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
        let ours = self.kinds.first().map(|k| k.cpu_p50_ms).unwrap_or(0.0);
        let theirs = self.engines.iter().find(|e| e.engine == "tantivy").map(|e| e.search.cpu_p50_ms);
        self.search_vs_tantivy_cpu = theirs.filter(|t| *t > 0.0).map(|t| ours / t);
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "documents     {}", self.docs)?;
        writeln!(f, "import        {:.2} s ({:.0} documents/s)", self.import_seconds, self.import_docs_per_s)?;
        writeln!(f, "index build   {:.1} ms", self.index_build_ms)?;
        writeln!(f, "open + ready  {:.3} s ({})", self.open_ready_s, self.open_ready_method)?;
        writeln!(f, "peak RSS      {:.0} MB", self.rss_mb)?;
        writeln!(f, "{:<24}{:>6}{:>10}{:>10}{:>10}{:>10}", "kind", "runs", "p50 ms", "p95 ms", "cpu p50", "cpu p95")?;
        let row = |f: &mut fmt::Formatter<'_>, kind: &str, k: &KindStats| {
            writeln!(f, "{:<24}{:>6}{:>10.2}{:>10.2}{:>10.2}{:>10.2}", kind, k.runs, k.p50_ms, k.p95_ms, k.cpu_p50_ms, k.cpu_p95_ms)
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

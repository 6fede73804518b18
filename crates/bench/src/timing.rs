//! Timing one call, on the wall clock and on the CPU time of the calling thread, and the percentiles of
//! one kind of call; plus what the process and the machine tell about themselves (peak memory, load).
//! Every engine of the comparison is timed with these, so that their figures mean the same.

use serde::{Deserialize, Serialize};

/// Latency of one kind of operation.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct KindStats {
    pub kind: String,
    pub runs: usize,
    /// Wall-clock latency.
    pub p50_ms: f64,
    pub p95_ms: f64,
    #[serde(default)]
    pub p99_ms: f64,
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

/// The median, the 95th and the 99th percentile (nearest rank) of `ms`; zeros for none.
pub fn percentiles(mut ms: Vec<f64>) -> [f64; 3] {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms.get(((ms.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    [at(0.5), at(0.95), at(0.99)]
}

/// Percentiles (nearest rank) of the samples of one kind.
pub fn stats(kind: &str, samples: Vec<Sample>) -> KindStats {
    let [p50_ms, p95_ms, p99_ms] = percentiles(samples.iter().map(|s| s.wall_ms).collect());
    let [cpu_p50_ms, cpu_p95_ms, _] = percentiles(samples.iter().map(|s| s.cpu_ms).collect());
    KindStats { kind: kind.to_owned(), runs: samples.len(), p50_ms, p95_ms, p99_ms, cpu_p50_ms, cpu_p95_ms }
}

/// Peak resident set size of this process in MB (VmHWM), or 0 where /proc is missing.
pub fn peak_rss_mb() -> f64 {
    studio_testkit::io::peak_resident_kib().map_or(0.0, |kb| kb as f64 / 1024.0)
}

/// The 1-, 5- and 15-minute load averages, or empty where /proc is missing.
pub fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

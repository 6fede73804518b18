//! `studio-bench --desktop APP`: the desktop app as a whole, as a user meets it. Each launch spawns the real
//! app binary under X (Xvfb when no DISPLAY is set), on a fresh data directory (so the demo data is loaded as a
//! new user gets it), then once more on the same directory (what a user sees every day), and times each from
//! spawning the process to the preview's first results on screen, which the app marks on its standard output
//! when asked to ([`studio_model::marks`]): no WebDriver session is added to what is timed. A few seconds
//! after the results, the proportional set size of the whole process tree (the app and WebKit's processes)
//! is read from /proc.
//!
//! This module only watches the app from outside; it never changes the app's data other than by running it.

mod memory;

use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde::Serialize;
use studio_bench::BenchError;
use studio_model::marks::{FIRST_RESULTS_LINE, MARK_FIRST_RESULTS};

pub use memory::{tree_memory, ProcessMemory};

/// How a desktop run goes.
#[derive(Debug, Clone)]
pub struct DesktopOptions {
    /// The app binary (a release build: `cargo build --release -p search-studio`).
    pub app: PathBuf,
    /// Launch pairs (first launch, then everyday launch); medians and maxima are over these.
    pub launches: usize,
    /// How long a launch may take to show results before the run fails.
    pub timeout: Duration,
    /// How long after the first results the memory is read, the app being idle.
    pub idle: Duration,
}

impl DesktopOptions {
    pub fn new(app: PathBuf) -> Self {
        DesktopOptions { app, launches: 5, timeout: Duration::from_secs(60), idle: Duration::from_secs(3) }
    }
}

/// The figures of a desktop run: seconds to first results and idle PSS in MB, median and maximum over the
/// launches, for the everyday launch (the `desktop_first_results_s` and `desktop_pss_mb` of docs/performance.md)
/// and for the first launch on a fresh data directory.
#[derive(Debug, Clone, Serialize)]
pub struct DesktopReport {
    pub launches: usize,
    /// The machine's 1-minute load average when the run began (figures taken under load are noisy).
    pub load_average: f64,
    pub desktop_first_results_s: f64,
    pub desktop_first_results_max_s: f64,
    pub desktop_first_launch_results_s: f64,
    pub desktop_first_launch_results_max_s: f64,
    pub desktop_pss_mb: f64,
    pub desktop_pss_max_mb: f64,
    /// The everyday launch's PSS by process name (of the launch with the median total).
    pub desktop_pss_by_process_mb: BTreeMap<String, f64>,
    pub desktop_first_launch_pss_mb: f64,
    pub desktop_first_launch_pss_by_process_mb: BTreeMap<String, f64>,
}

/// One launch: when the results showed, and the process tree's memory once idle.
struct Launch {
    first_results: Duration,
    memory: Vec<ProcessMemory>,
}

/// The X display the app is shown on: DISPLAY, or an Xvfb started here and ended on drop.
struct Display {
    name: String,
    server: Option<Child>,
}

impl Display {
    fn open() -> Result<Display, BenchError> {
        if let Some(name) = std::env::var("DISPLAY").ok().filter(|d| !d.is_empty()) {
            return Ok(Display { name, server: None });
        }
        // -displayfd: Xvfb picks a free display and prints its number, so a stale lock of an earlier run is no
        // obstacle (as scripts/lib.sh starts it for the end-to-end tests).
        let mut server = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(BenchError::NoXvfb)?;
        let mut line = String::new();
        if let Some(out) = server.stdout.take() {
            // Xvfb keeps its standard output open while it runs; it ends it (and so this read) if it fails.
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let number = line.trim();
        if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
            let _ = server.kill();
            let _ = server.wait();
            return Err(BenchError::XvfbFailed);
        }
        Ok(Display { name: format!(":{number}"), server: Some(server) })
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(server) = &mut self.server {
            let _ = server.kill();
            let _ = server.wait();
        }
    }
}

/// The last lines of the app's log, for an error message.
fn log_tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(8)..].join("\n")
}

/// Ends the app as closing its window does (SIGTERM: the exit backup is taken, the store closed), or kills it
/// when it has not ended within 20 s.
fn stop(child: &mut Child) {
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Launches the app on `data`, waits for its first results, then for it to be idle, reads its memory and ends it.
fn launch(options: &DesktopOptions, display: &Display, data: &Path, log: &Path) -> Result<Launch, BenchError> {
    let app = &options.app;
    let log_file = std::fs::File::create(log).map_err(BenchError::file("write", log))?;
    let started = Instant::now();
    let mut child = Command::new(app)
        .env("SEARCH_STUDIO_DATA_DIR", data)
        .env("DISPLAY", &display.name)
        .env(MARK_FIRST_RESULTS, "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log_file)
        .spawn()
        .map_err(|source| BenchError::AppStart { app: app.clone(), source })?;
    let (marks, marked) = mpsc::channel();
    if let Some(out) = child.stdout.take() {
        // Reads (and so drains) the app's output to its end; the moment is taken as the line arrives.
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                match line {
                    Ok(line) if line.trim() == FIRST_RESULTS_LINE => {
                        let _ = marks.send(Instant::now());
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
        });
    }
    let shown = loop {
        match marked.recv_timeout(Duration::from_millis(50)) {
            Ok(at) => break at,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {}
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(BenchError::AppEnded { app: app.clone(), status, log: log_tail(log) });
        }
        if started.elapsed() > options.timeout {
            stop(&mut child);
            return Err(BenchError::NoResults {
                app: app.clone(),
                seconds: options.timeout.as_secs(),
                log: log_tail(log),
            });
        }
    };
    std::thread::sleep(options.idle);
    let memory = tree_memory(child.id());
    stop(&mut child);
    Ok(Launch { first_results: shown.duration_since(started), memory: memory? })
}

/// The median of `values` (the upper one of an even count); 0 for none.
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

fn max(values: &[f64]) -> f64 {
    values.iter().copied().fold(0.0, f64::max)
}

fn mb(kb: u64) -> f64 {
    (kb as f64 / 1024.0 * 10.0).round() / 10.0
}

/// The total PSS in MB of each launch, and the split by process name of the launch with the median total.
fn memory_figures(launches: &[Launch]) -> (Vec<f64>, BTreeMap<String, f64>) {
    let totals: Vec<f64> = launches.iter().map(|l| mb(l.memory.iter().map(|p| p.pss_kb).sum())).collect();
    let middle = median(&totals);
    let mut split = BTreeMap::new();
    if let Some(launch) = launches.iter().zip(&totals).find(|(_, &t)| t == middle).map(|(l, _)| l) {
        let mut kb: BTreeMap<String, u64> = BTreeMap::new();
        for process in &launch.memory {
            *kb.entry(process.name.clone()).or_default() += process.pss_kb;
        }
        split = kb.into_iter().map(|(name, kb)| (name, mb(kb))).collect();
    }
    (totals, split)
}

fn load_average() -> f64 {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().next().and_then(|l| l.parse().ok()).unwrap_or(0.0)
}

/// Runs the launches of `options` and gathers their figures.
pub fn run(options: &DesktopOptions) -> Result<DesktopReport, BenchError> {
    if !options.app.is_file() {
        return Err(BenchError::AppStart {
            app: options.app.clone(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
        });
    }
    let load = load_average();
    let display = Display::open()?;
    let scratch = std::env::temp_dir().join(format!("studio-bench-desktop-{}", std::process::id()));
    let result = launches(options, &display, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    let (first, daily) = result?;
    let seconds = |list: &[Launch]| -> Vec<f64> { list.iter().map(|l| l.first_results.as_secs_f64()).collect() };
    let (first_s, daily_s) = (seconds(&first), seconds(&daily));
    let (first_mb, first_split) = memory_figures(&first);
    let (daily_mb, daily_split) = memory_figures(&daily);
    Ok(DesktopReport {
        launches: daily.len(),
        load_average: load,
        desktop_first_results_s: median(&daily_s),
        desktop_first_results_max_s: max(&daily_s),
        desktop_first_launch_results_s: median(&first_s),
        desktop_first_launch_results_max_s: max(&first_s),
        desktop_pss_mb: median(&daily_mb),
        desktop_pss_max_mb: max(&daily_mb),
        desktop_pss_by_process_mb: daily_split,
        desktop_first_launch_pss_mb: median(&first_mb),
        desktop_first_launch_pss_by_process_mb: first_split,
    })
}

/// The launch pairs: each on a fresh data directory under `scratch`, then again on the same one.
fn launches(
    options: &DesktopOptions,
    display: &Display,
    scratch: &Path,
) -> Result<(Vec<Launch>, Vec<Launch>), BenchError> {
    let (mut first, mut daily) = (Vec::new(), Vec::new());
    for n in 1..=options.launches.max(1) {
        let dir = scratch.join(format!("launch-{n}"));
        let data = dir.join("data");
        std::fs::create_dir_all(&data).map_err(BenchError::file("create", &data))?;
        first.push(launch(options, display, &data, &dir.join("first.log"))?);
        daily.push(launch(options, display, &data, &dir.join("everyday.log"))?);
    }
    Ok((first, daily))
}

impl fmt::Display for DesktopReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "desktop app, {} launch pairs (load average {:.2} at the start)",
            self.launches, self.load_average
        )?;
        writeln!(f, "{:<34} {:>10} {:>10}", "", "median", "max")?;
        let rows = [
            ("first results, everyday launch (s)", self.desktop_first_results_s, self.desktop_first_results_max_s),
            (
                "first results, first launch (s)",
                self.desktop_first_launch_results_s,
                self.desktop_first_launch_results_max_s,
            ),
            ("idle PSS, everyday launch (MB)", self.desktop_pss_mb, self.desktop_pss_max_mb),
        ];
        for (label, median, max) in rows {
            writeln!(f, "{label:<34} {median:>10.3} {max:>10.3}")?;
        }
        writeln!(f, "idle PSS by process (MB)           everyday      first")?;
        let names: std::collections::BTreeSet<&String> =
            self.desktop_pss_by_process_mb.keys().chain(self.desktop_first_launch_pss_by_process_mb.keys()).collect();
        for name in names {
            let daily = self.desktop_pss_by_process_mb.get(name).copied().unwrap_or(0.0);
            let first = self.desktop_first_launch_pss_by_process_mb.get(name).copied().unwrap_or(0.0);
            writeln!(f, "  {name:<32} {daily:>10.1} {first:>10.1}")?;
        }
        writeln!(f, "  {:<32} {:>10.1} {:>10.1}", "total", self.desktop_pss_mb, self.desktop_first_launch_pss_mb)
    }
}

//! `studio-bench --desktop APP`: the desktop app as a whole, as a user meets it, beside an empty Tauri window.
//! Each launch round spawns the real app binary under X (Xvfb when no DISPLAY is set) on a fresh data directory
//! (so the demo data is loaded as a new user gets it), then once more on the same directory (what a user sees
//! every day), then the empty window of crates/bench/fixtures/empty-window (the floor: the same Tauri and
//! WebKit with nothing in them). Each is timed from spawning the process to its first-results mark on its
//! standard output ([`studio_model::marks`]: the app's preview showing results, the empty window's page
//! loaded), so no WebDriver session is added to what is timed. A few seconds after the mark, the proportional
//! set size of the whole process tree (the program and WebKit's processes) is read from /proc.
//!
//! This module only watches the programs from outside; it never changes the app's data other than by running it.

mod display;
mod launch;
mod memory;
pub mod start_order;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use studio_bench::BenchError;
use studio_model::marks::FIRST_RESULTS_LINE;

use display::Display;
use launch::{launch, Launch, Program, Wait};

/// The empty window's binary name (crates/bench/fixtures/empty-window), looked for beside the app's.
pub const FLOOR_BINARY: &str = "studio-empty-window";

/// What the app's idle PSS may exceed the empty window's by (reported, not asserted).
const TARGET_OVER_FLOOR_MB: f64 = 40.0;

/// How soon the everyday launch should show its first results (reported, not asserted).
const TARGET_FIRST_RESULTS_S: f64 = 0.6;

/// How a desktop run goes.
#[derive(Debug, Clone)]
pub struct DesktopOptions {
    /// The app binary (a release build for the benchmark: `bash scripts/desktop-release.sh --bench-hooks`).
    pub app: PathBuf,
    /// The empty window's binary (a release build, made by the same script).
    pub floor: PathBuf,
    /// Launch rounds (first launch, everyday launch, empty window); medians and maxima are over these.
    pub launches: usize,
    pub wait: Wait,
}

impl DesktopOptions {
    /// Options for `app`, with the empty window beside it (`FLOOR_BINARY` in the same directory).
    pub fn new(app: PathBuf) -> Self {
        let floor = app.with_file_name(FLOOR_BINARY);
        DesktopOptions {
            app,
            floor,
            launches: 5,
            wait: Wait { timeout: Duration::from_secs(60), idle: Duration::from_secs(3) },
        }
    }
}

/// The figures of a desktop run: seconds to first results and idle PSS in MB, median and maximum over the
/// launches, for the everyday launch (the `desktop_first_results_s` and `desktop_pss_mb` of docs/performance.md),
/// for the first launch on a fresh data directory, and for the empty window (the floor).
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
    /// Seconds from spawning the empty window to its page loaded and shown.
    pub desktop_floor_shown_s: f64,
    pub desktop_floor_shown_max_s: f64,
    /// The empty window's idle PSS, median and maximum, and by process name (of the launch with the median).
    pub desktop_floor_pss_mb: f64,
    pub desktop_floor_pss_max_mb: f64,
    pub desktop_floor_pss_by_process_mb: BTreeMap<String, f64>,
    /// `desktop_pss_mb` less `desktop_floor_pss_mb`: what the app adds to an empty window.
    pub desktop_pss_over_floor_mb: f64,
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

fn seconds(launches: &[Launch]) -> Vec<f64> {
    launches.iter().map(|l| l.first_results.as_secs_f64()).collect()
}

fn load_average() -> f64 {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().next().and_then(|l| l.parse().ok()).unwrap_or(0.0)
}

/// The launches of one run, by what was launched.
struct Rounds {
    first: Vec<Launch>,
    daily: Vec<Launch>,
    floor: Vec<Launch>,
}

impl Rounds {
    fn report(&self, load_average: f64) -> DesktopReport {
        let (first_s, daily_s, floor_s) = (seconds(&self.first), seconds(&self.daily), seconds(&self.floor));
        let (first_mb, first_split) = memory_figures(&self.first);
        let (daily_mb, daily_split) = memory_figures(&self.daily);
        let (floor_mb, floor_split) = memory_figures(&self.floor);
        let (pss, floor_pss) = (median(&daily_mb), median(&floor_mb));
        DesktopReport {
            launches: self.daily.len(),
            load_average,
            desktop_first_results_s: median(&daily_s),
            desktop_first_results_max_s: max(&daily_s),
            desktop_first_launch_results_s: median(&first_s),
            desktop_first_launch_results_max_s: max(&first_s),
            desktop_pss_mb: pss,
            desktop_pss_max_mb: max(&daily_mb),
            desktop_pss_by_process_mb: daily_split,
            desktop_first_launch_pss_mb: median(&first_mb),
            desktop_first_launch_pss_by_process_mb: first_split,
            desktop_floor_shown_s: median(&floor_s),
            desktop_floor_shown_max_s: max(&floor_s),
            desktop_floor_pss_mb: floor_pss,
            desktop_floor_pss_max_mb: max(&floor_mb),
            desktop_floor_pss_by_process_mb: floor_split,
            desktop_pss_over_floor_mb: ((pss - floor_pss) * 10.0).round() / 10.0,
        }
    }
}

/// A binary that is not there: the error the spawn would give, said before anything is launched.
fn missing(binary: &Path) -> Option<std::io::Error> {
    (!binary.is_file()).then(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
}

/// Whether `binary` is built for the benchmark (the desktop package's `bench-hooks` feature): only such a build
/// prints the mark the launches wait for, so only its binary holds the mark's text.
fn marks_first_results(binary: &Path) -> Result<bool, BenchError> {
    let bytes = std::fs::read(binary).map_err(BenchError::file("read", binary))?;
    let line = FIRST_RESULTS_LINE.as_bytes();
    Ok(bytes.windows(line.len()).any(|w| w == line))
}

/// Runs the launches of `options` and gathers their figures.
pub fn run(options: &DesktopOptions) -> Result<DesktopReport, BenchError> {
    if let Some(source) = missing(&options.app) {
        return Err(BenchError::AppStart { app: options.app.clone(), source });
    }
    if missing(&options.floor).is_some() {
        return Err(BenchError::NoFloor(options.floor.clone()));
    }
    if !marks_first_results(&options.app)? {
        return Err(BenchError::NoHooks(options.app.clone()));
    }
    let load = load_average();
    let display = Display::open()?;
    let scratch = std::env::temp_dir().join(format!("studio-bench-desktop-{}", std::process::id()));
    let result = rounds(options, &display, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(result?.report(load))
}

/// The launch rounds: the app on a fresh data directory under `scratch`, again on the same one, then the empty
/// window, so that the app and its floor alternate under the same load.
fn rounds(options: &DesktopOptions, display: &Display, scratch: &Path) -> Result<Rounds, BenchError> {
    let mut rounds = Rounds { first: Vec::new(), daily: Vec::new(), floor: Vec::new() };
    for n in 1..=options.launches.max(1) {
        let dir = scratch.join(format!("launch-{n}"));
        let data = dir.join("data");
        std::fs::create_dir_all(&data).map_err(BenchError::file("create", &data))?;
        let app = Program { binary: &options.app, env: vec![("SEARCH_STUDIO_DATA_DIR", data.as_os_str())] };
        rounds.first.push(launch(&app, display, options.wait, &dir.join("first.log"))?);
        rounds.daily.push(launch(&app, display, options.wait, &dir.join("everyday.log"))?);
        let floor = Program { binary: &options.floor, env: Vec::<(&str, &OsStr)>::new() };
        rounds.floor.push(launch(&floor, display, options.wait, &dir.join("floor.log"))?);
    }
    Ok(rounds)
}

/// "met" or "missed", for a figure against its target.
fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "missed"
    }
}

impl fmt::Display for DesktopReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "desktop app, {} launch rounds (load average {:.2} at the start)",
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
            ("page shown, empty window (s)", self.desktop_floor_shown_s, self.desktop_floor_shown_max_s),
            ("idle PSS, everyday launch (MB)", self.desktop_pss_mb, self.desktop_pss_max_mb),
            ("idle PSS, empty window (MB)", self.desktop_floor_pss_mb, self.desktop_floor_pss_max_mb),
        ];
        for (label, median, max) in rows {
            writeln!(f, "{label:<34} {median:>10.3} {max:>10.3}")?;
        }
        writeln!(f, "idle PSS by process (MB)           everyday      first      empty")?;
        let splits = [
            &self.desktop_pss_by_process_mb,
            &self.desktop_first_launch_pss_by_process_mb,
            &self.desktop_floor_pss_by_process_mb,
        ];
        let names: std::collections::BTreeSet<&String> = splits.iter().flat_map(|s| s.keys()).collect();
        for name in names {
            let [daily, first, floor] = splits.map(|s| s.get(name).copied().unwrap_or(0.0));
            writeln!(f, "  {name:<32} {daily:>10.1} {first:>10.1} {floor:>10.1}")?;
        }
        writeln!(
            f,
            "  {:<32} {:>10.1} {:>10.1} {:>10.1}",
            "total", self.desktop_pss_mb, self.desktop_first_launch_pss_mb, self.desktop_floor_pss_mb
        )?;
        let over = self.desktop_pss_over_floor_mb;
        writeln!(
            f,
            "the app over the empty window: {over:.1} MB (target at most {TARGET_OVER_FLOOR_MB:.0} MB: {})",
            verdict(over <= TARGET_OVER_FLOOR_MB)
        )?;
        writeln!(
            f,
            "first results, everyday launch: {:.3} s (target at most {TARGET_FIRST_RESULTS_S} s: {})",
            self.desktop_first_results_s,
            verdict(self.desktop_first_results_s <= TARGET_FIRST_RESULTS_S)
        )
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    /// A launch whose memory is read from the real process tree of `shell`, run by sh (given the time to start
    /// its children: what is read is what the figures are checked against, whatever it holds).
    fn measured(shell: &str, seconds: u64) -> Launch {
        let mut child = Command::new("sh").args(["-c", shell]).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let memory = memory::tree_memory(child.id());
        let _ = child.kill();
        let _ = child.wait();
        Launch { first_results: Duration::from_secs(seconds), memory: memory.unwrap() }
    }

    #[test]
    fn the_report_puts_the_app_beside_the_empty_window() {
        let app = || measured("sleep 30 & sleep 30 & wait", 2);
        let rounds =
            Rounds { first: vec![app()], daily: vec![app(), app(), app()], floor: vec![measured("sleep 30; :", 1)] };
        let report = rounds.report(1.5);

        let (daily, _) = memory_figures(&rounds.daily);
        let (floor, _) = memory_figures(&rounds.floor);
        assert_eq!(report.desktop_pss_mb, median(&daily));
        assert_eq!(report.desktop_floor_pss_mb, floor[0]);
        assert!(report.desktop_floor_pss_mb > 0.0, "{report:?}");
        let over = report.desktop_pss_mb - report.desktop_floor_pss_mb;
        assert!((report.desktop_pss_over_floor_mb - over).abs() < 0.051, "{report:?}");
        assert_eq!(report.desktop_floor_shown_s, 1.0);
        assert_eq!(report.desktop_floor_pss_by_process_mb.keys().collect::<Vec<_>>(), ["sh", "sleep"]);
        assert!(report.desktop_pss_by_process_mb.contains_key("sleep"), "{report:?}");

        let json = serde_json::to_value(&report).unwrap();
        for key in ["desktop_pss_mb", "desktop_floor_pss_mb", "desktop_pss_over_floor_mb"] {
            assert!(json[key].is_number(), "{key} in {json}");
        }
        let parts: f64 =
            ["sh", "sleep"].iter().filter_map(|p| json["desktop_floor_pss_by_process_mb"][p].as_f64()).sum();
        assert!((parts - report.desktop_floor_pss_mb).abs() < 0.11, "the parts add up: {json}");
        let table = report.to_string();
        assert!(table.contains("the app over the empty window"), "{table}");
    }
    #[test]
    fn an_app_built_without_the_hooks_is_refused_before_anything_is_launched() {
        let dir = tempfile::tempdir().unwrap();
        let (app, floor) = (dir.path().join("search-studio"), dir.path().join(FLOOR_BINARY));
        std::fs::write(&app, b"\x7fELF an app built without the benchmark's hooks").unwrap();
        std::fs::write(&floor, b"\x7fELF the empty window").unwrap();

        let refused = run(&DesktopOptions::new(app.clone())).unwrap_err();
        assert!(matches!(&refused, BenchError::NoHooks(p) if p == &app), "{refused}");
        assert!(refused.to_string().contains("desktop-release.sh --bench-hooks"), "says how to build it: {refused}");
        assert!(!marks_first_results(&app).unwrap());

        let mut built = b"\x7fELF ...".to_vec();
        built.extend_from_slice(FIRST_RESULTS_LINE.as_bytes());
        built.extend_from_slice(b"... the rest");
        std::fs::write(&app, built).unwrap();
        assert!(marks_first_results(&app).unwrap(), "a build for the benchmark is taken");
    }
}

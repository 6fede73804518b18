//! `studio-bench`: the side-by-side benchmark of docs/performance.md — our engine, tantivy and a naive
//! SQLite approach on the same seeded corpus and query mix — and the SVG charts of latency against corpus
//! size. `studio bench` runs this program when it is installed next to it.

mod desktop;

/// The allocator of the `studio` command, which the engines compared here run with (docs/choices.md, "The
/// allocator"): both sides of every comparison allocate through it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use studio_bench::chart::{self, Metric};
use studio_bench::clock::Clock;
use studio_bench::compare::Found;
use studio_bench::corpus::SynthCorpus;
use studio_bench::preview;
use studio_bench::tantivy_engine::TantivyEngine;
use studio_bench::workload::{Answer, Query};
use studio_bench::{BenchError, BenchOptions, BenchReport, Comparator};

/// Runs the benchmark of docs/performance.md for each --docs size (default 100000) and prints the
/// figures (--json: one JSON object per size, the last line being the last size). --save appends each
/// report to a JSON Lines file; --chart draws FILE.svg (wall clock) and FILE-cpu.svg (CPU time) from
/// this run's reports and those read with --from.
///
/// --desktop APP measures the desktop app as a whole instead (docs/performance.md, The desktop app as a
/// whole): time to the first results shown and the idle memory of its process tree, over --launches launches,
/// each round also launching an empty Tauri window (--floor, by default studio-empty-window beside APP) for the
/// memory's floor. APP must be built for the benchmark; build both with
/// `bash scripts/desktop-release.sh --bench-hooks` (the release build, its start's code placed together as the
/// packaged app's is). --start-order FILE writes the functions APP's start runs to FILE for that script.
///
/// --preview DIR times settings edits in the web UI's preview (headless Chromium) over a store kept with --dir
/// (docs/performance.md, The preview's answer to an edit).
///
/// --text-build times the engine's own full-text index's build beside FTS5's on the same texts, for each
/// --docs size (docs/performance.md, The full-text index's build).
///
/// --kept DIR times only our engine's calls over a benchmark store kept with --dir (DIR/docs-N, for the
/// one --docs size), without importing it again: how changes of the engine are compared at 1M documents.
#[derive(Debug, Parser)]
#[command(name = "studio-bench", verbatim_doc_comment)]
struct Args {
    /// Documents in the corpus; repeat for several sizes (default 100000 unless --from is given)
    #[arg(long = "docs", value_name = "N", value_parser = parse_count)]
    docs: Vec<usize>,
    /// Print one JSON object per size instead of the table
    #[arg(long)]
    json: bool,
    /// Directory for the stores (a docs-N directory per size, kept) [default: a scratch directory, removed]
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Queries of each kind [default: 100]
    #[arg(long, value_name = "N")]
    runs: Option<usize>,
    /// Leave out the naive SQLite approach
    #[arg(long)]
    no_naive: bool,
    /// Leave out tantivy
    #[arg(long)]
    no_tantivy: bool,
    /// Leave out the pull (serving the store over HTTP and taking it offline with `studio pull`)
    #[arg(long)]
    no_pull: bool,
    /// Append each report to this JSON Lines file
    #[arg(long, value_name = "FILE.jsonl")]
    save: Option<PathBuf>,
    /// Read earlier reports from this JSON Lines file for the chart; may be repeated
    #[arg(long, value_name = "FILE.jsonl")]
    from: Vec<PathBuf>,
    /// Draw the charts to this file and its -cpu.svg sibling
    #[arg(long, value_name = "FILE.svg")]
    chart: Option<PathBuf>,
    /// Measure the desktop app binary APP (a release build with the bench-hooks feature) instead of the engines
    #[arg(long, value_name = "APP")]
    desktop: Option<PathBuf>,
    /// With --desktop: launch rounds (first launch on a fresh data directory, everyday launch, empty window)
    /// [default: 5]
    #[arg(long, value_name = "N", requires = "desktop")]
    launches: Option<usize>,
    /// With --desktop: the empty Tauri window measured beside the app (crates/bench/fixtures/empty-window, a
    /// release build) [default: studio-empty-window in APP's directory]
    #[arg(long, value_name = "PATH", requires = "desktop")]
    floor: Option<PathBuf>,
    /// With --desktop: instead of measuring, write to FILE the functions of APP (any build with its symbols) that
    /// its everyday launch runs, profiled under valgrind's callgrind, for the linker to place together
    /// (scripts/desktop-release.sh)
    #[arg(long, value_name = "FILE", requires = "desktop", conflicts_with_all = ["launches", "floor", "json"])]
    start_order: Option<PathBuf>,
    /// Time settings edits in the web UI's preview over the benchmark store in DIR (kept with --dir, e.g.
    /// DIR/docs-1000000) instead of the engines
    #[arg(long, value_name = "DIR", conflicts_with = "desktop")]
    preview: Option<PathBuf>,
    /// Time our engine's calls over the benchmark store in DIR (kept with --dir, e.g. DIR/docs-1000000, of
    /// the --docs size) instead of running the whole benchmark
    #[arg(long, value_name = "DIR", conflicts_with_all = ["desktop", "preview"])]
    kept: Option<PathBuf>,
    /// Time the full-text index's build beside FTS5's (on the same texts, to one segment on disk) instead of the
    /// whole benchmark
    #[arg(long, conflicts_with_all = ["desktop", "preview", "kept"])]
    text_build: bool,
    /// With --preview: timed edits in each state of the preview [default: 40]
    #[arg(long, value_name = "N", requires = "preview")]
    edits: Option<usize>,
}

/// A document count, with `_` allowed between digits (`100_000`).
fn parse_count(text: &str) -> Result<usize, String> {
    text.replace('_', "").parse().map_err(|_| "needs a number".to_owned())
}

/// Runs the benchmark for `docs` documents in its own store directory.
fn run_one(args: &Args, docs: usize) -> Result<BenchReport, BenchError> {
    let (dir, scratch) = match &args.dir {
        Some(d) => (d.join(format!("docs-{docs}")), false),
        None => (std::env::temp_dir().join(format!("studio-bench-{}-{docs}", std::process::id())), true),
    };
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(BenchError::file("clear", &dir))?;
    }
    let mut options = BenchOptions::new(docs);
    options.naive = !args.no_naive;
    options.pull = !args.no_pull;
    if let Some(runs) = args.runs {
        options.runs = runs.max(1);
    }
    let mut tantivy = AsItsUsersRunIt(TantivyEngine::default());
    let mut extra: Vec<&mut dyn Comparator> = Vec::new();
    if !args.no_tantivy {
        extra.push(&mut tantivy);
    }
    let result = studio_bench::run(&dir, &options, &mut extra);
    if scratch {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

/// An engine of another project, made and built with the kernel's own choice of transparent huge pages, as its
/// users run it: `studio`'s choice (docs/choices.md, "The allocator") is ours, and it made tantivy's build slower
/// here (docs/performance-journal.md, "Huge pages cleared again and again"). Nothing of ours runs meanwhile; the
/// searches, on memory made before, run as they are.
struct AsItsUsersRunIt<C>(C);

impl<C: Comparator> AsItsUsersRunIt<C> {
    fn with_system_pages<T>(&mut self, work: impl FnOnce(&mut C) -> T) -> T {
        // A kernel that refuses leaves both sides as they were: the same pages.
        let _ = studio_os::transparent_huge_pages(true);
        let done = work(&mut self.0);
        let _ = studio_os::transparent_huge_pages(false);
        done
    }
}

impl<C: Comparator> Comparator for AsItsUsersRunIt<C> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn prepare(&mut self, corpus: &SynthCorpus, docs: usize, dir: &Path) -> Result<(), BenchError> {
        self.with_system_pages(|c| c.prepare(corpus, docs, dir))
    }
    fn build(&mut self, clock: &mut Clock) -> Result<(), BenchError> {
        self.with_system_pages(|c| c.build(clock))
    }
    fn set_threads(&mut self, threads: usize) -> Result<bool, BenchError> {
        self.0.set_threads(threads)
    }
    fn search(&mut self, query: &Query) -> Result<Found, BenchError> {
        self.0.search(query)
    }
    fn answer(&self, found: Found) -> Result<Answer, BenchError> {
        self.0.answer(found)
    }
}

/// The reports of a JSON Lines file written by --save.
fn read_reports(file: &Path) -> Result<Vec<BenchReport>, BenchError> {
    let text = std::fs::read_to_string(file).map_err(BenchError::file("read", file))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| serde_json::from_str(line).map_err(|source| BenchError::Reports { path: file.to_owned(), source }))
        .collect()
}

/// Draws FILE.svg (wall clock) and FILE-cpu.svg (CPU time) from `reports`, smallest corpus first.
fn draw(path: &Path, reports: &mut [BenchReport]) -> Result<(), BenchError> {
    reports.sort_by_key(|r| r.docs);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let cpu_path = path.with_file_name(format!("{stem}-cpu.svg"));
    for (file, metric) in [(path, Metric::Wall), (cpu_path.as_path(), Metric::Cpu)] {
        std::fs::write(file, chart::svg(reports, metric)?).map_err(BenchError::file("write", file))?;
    }
    Ok(())
}

/// --desktop: the desktop app's figures, as a table or (--json) one JSON object.
fn run_desktop(app: &Path, args: &Args) -> Result<(), BenchError> {
    let mut options = desktop::DesktopOptions::new(app.to_owned());
    if let Some(launches) = args.launches {
        options.launches = launches.max(1);
    }
    if let Some(floor) = &args.floor {
        options.floor = floor.clone();
    }
    let report = desktop::run(&options)?;
    if args.json {
        println!("{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        print!("{report}");
    }
    Ok(())
}

/// --preview: the preview's figures, as a table or (--json) one JSON object.
fn run_preview(dir: &Path, args: &Args) -> Result<(), BenchError> {
    // The web UI of this checkout: ui/ beside crates/.
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("ui");
    let options = preview::PreviewOptions { ui, edits: args.edits.unwrap_or(40).max(1) };
    let report = preview::run(dir, &options)?;
    if args.json {
        println!("{}", serde_json::to_string(&report).unwrap_or_default());
    } else {
        print!("{report}");
    }
    Ok(())
}

/// --kept: our engine's figures per kind over a kept store, as a table or (--json) one JSON array.
fn run_kept(dir: &Path, args: &Args) -> Result<(), BenchError> {
    let [docs] = args.docs[..] else { return Err(BenchError::KeptDocs) };
    let kinds = studio_bench::run_kept(dir, docs, args.runs.unwrap_or(100).max(1))?;
    if args.json {
        println!("{}", serde_json::to_string(&kinds).unwrap_or_default());
    } else {
        for k in &kinds {
            println!(
                "{:<28} p50 {:>8.2} ms  p95 {:>8.2} ms  (CPU p50 {:>8.2}, p95 {:>8.2})",
                k.kind, k.p50_ms, k.p95_ms, k.cpu_p50_ms, k.cpu_p95_ms
            );
        }
    }
    Ok(())
}

/// --text-build: the full-text builds' figures per size, as a table or (--json) one JSON object a size.
fn run_text_build(args: &Args) -> Result<(), BenchError> {
    let sizes = if args.docs.is_empty() { vec![100_000] } else { args.docs.clone() };
    for docs in sizes {
        let (dir, scratch) = match &args.dir {
            Some(d) => (d.join(format!("text-build-{docs}")), false),
            None => (std::env::temp_dir().join(format!("studio-bench-text-{}-{docs}", std::process::id())), true),
        };
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(BenchError::file("clear", &dir))?;
        }
        let report = studio_bench::text_build::run(&dir, docs, BenchOptions::new(docs).seed);
        if scratch {
            let _ = std::fs::remove_dir_all(&dir);
        }
        let report = report?;
        if args.json {
            println!("{}", serde_json::to_string(&report).unwrap_or_default());
        } else {
            print!("{report}");
        }
    }
    Ok(())
}

fn run(mut args: Args) -> Result<(), BenchError> {
    // The engines run as `studio` runs them; the desktop app and the browser of --desktop and --preview are
    // started as a user starts them, which the flag, inherited, would change. An optimisation only: a kernel
    // that refuses it leaves the run as it was.
    if args.desktop.is_none() && args.preview.is_none() {
        let _ = studio_os::transparent_huge_pages(false);
    }
    if args.text_build {
        return run_text_build(&args);
    }
    if let Some(dir) = &args.kept {
        return run_kept(dir, &args);
    }
    if let (Some(app), Some(out)) = (&args.desktop, &args.start_order) {
        let count = desktop::start_order::write(app, out)?;
        println!("{count} functions of {}'s start written to {}", app.display(), out.display());
        return Ok(());
    }
    if let Some(app) = &args.desktop {
        return run_desktop(app, &args);
    }
    if let Some(dir) = &args.preview {
        return run_preview(dir, &args);
    }
    if args.docs.is_empty() && args.from.is_empty() {
        args.docs.push(100_000);
    }
    let mut reports: Vec<BenchReport> = Vec::new();
    for file in &args.from {
        reports.extend(read_reports(file)?);
    }
    for &docs in &args.docs {
        let report = run_one(&args, docs)?;
        let line = serde_json::to_string(&report).unwrap_or_default();
        if let Some(save) = &args.save {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(save)
                .and_then(|mut f| writeln!(f, "{line}"))
                .map_err(BenchError::file("write", save))?;
        }
        if args.json {
            println!("{line}");
        } else {
            print!("{report}");
        }
        reports.push(report);
    }
    if let Some(path) = &args.chart {
        draw(path, &mut reports)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("studio-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

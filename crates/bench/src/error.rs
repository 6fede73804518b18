//! What can stop a benchmark run: the store or one of the engines failing, an engine whose answers do not
//! agree with ours, and the files the `studio-bench` program reads and writes.

use std::path::{Path, PathBuf};

use studio_local::StoreError;
use studio_model::BackendError;

/// Why a benchmark run, or reading and writing its reports and charts, failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The store (opening it, importing, building our index) failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// One of our engine's timed operations failed.
    #[error("our engine failed: {0}")]
    Engine(#[from] BackendError),
    /// The naive SQLite approach's statements failed.
    #[error("the naive SQLite approach failed: {0}")]
    Sql(#[from] rusqlite::Error),
    /// tantivy could not build or search its index.
    #[error("tantivy: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    /// tantivy's query parser refused a query of the workload.
    #[error("tantivy: {0}")]
    TantivyQuery(#[from] tantivy::query::QueryParserError),
    /// A compared engine was asked to search before it was built.
    #[error("{0} was searched before it was built")]
    NotBuilt(&'static str),
    /// A compared engine's answer differs from ours, so its timings would not be comparable.
    #[error("{engine} disagrees on {kind} query {index} ({query}): {difference}")]
    Disagrees { engine: String, kind: &'static str, index: usize, query: String, difference: String },
    /// Taking the search space offline through the server failed.
    #[error("the pull failed: {0}")]
    Pull(#[from] studio_sync::SyncError),
    /// The client of the served store could not be set up.
    #[error("the pull's client: {0}")]
    Client(#[from] studio_remote::RemoteError),
    /// The pulled copy differs from the served store, so its timing would mean nothing.
    #[error("the pulled copy differs from the served store: {0}")]
    PullDiffers(String),
    /// The served store created the benchmark's configuration without an id.
    #[error("the served store gave the benchmark's configuration no id")]
    NoConfigId,
    /// The runtime or the loopback listener of the served store could not be started.
    #[error("cannot {what}: {source}")]
    Serve { what: &'static str, source: std::io::Error },
    /// The engine's own full-text index failed (`--text-build`).
    #[error("the full-text index: {0}")]
    Text(#[from] studio_text::TextError),
    /// A thread building the full-text index stopped unexpectedly.
    #[error("a thread building the full-text index stopped unexpectedly")]
    TextThread,
    /// A file or directory of the run could not be read, written or removed.
    #[error("cannot {what} {}: {source}", path.display())]
    File { what: &'static str, path: PathBuf, source: std::io::Error },
    /// A `--from` file holds something other than reports.
    #[error("{} is not a file of reports: {source}", path.display())]
    Reports { path: PathBuf, source: serde_json::Error },
    /// The chart could not be drawn.
    #[error("cannot draw the chart: {0}")]
    Chart(#[from] plotters::drawing::DrawingAreaErrorKind<std::io::Error>),
    /// `--desktop` without a DISPLAY needs Xvfb, which could not be run.
    #[error("no DISPLAY is set and Xvfb cannot be run (install the xvfb package): {0}")]
    NoXvfb(std::io::Error),
    /// Xvfb ran but named no display.
    #[error("Xvfb did not start (it named no display)")]
    XvfbFailed,
    /// The desktop app's binary could not be run.
    #[error("cannot start the desktop app {}: {source}", app.display())]
    AppStart { app: PathBuf, source: std::io::Error },
    /// The desktop app ended before its preview showed results.
    #[error("the desktop app {} ended ({status}) before showing results; its log ends with:\n{log}", app.display())]
    AppEnded { app: PathBuf, status: std::process::ExitStatus, log: String },
    /// The empty window the desktop app is measured beside is not built.
    #[error("no empty window at {}: build it with `bash scripts/desktop-release.sh --bench-hooks` (it is looked for beside the app), or name it with --floor", .0.display())]
    NoFloor(PathBuf),
    /// The desktop app showed no results in time.
    #[error("the desktop app {} showed no results within {seconds} s; its log ends with:\n{log}", app.display())]
    NoResults { app: PathBuf, seconds: u64, log: String },
    /// The desktop app was built without the benchmark's hooks, so it never says when its results are shown.
    #[error("{} is not built for the benchmark: it never says when its first results are shown. Build it with `bash scripts/desktop-release.sh --bench-hooks` (docs/performance.md, \"The desktop app as a whole\")", .0.display())]
    NoHooks(PathBuf),
    /// `--preview` needs the built web UI.
    #[error("the web UI is not built in {}/dist (run: bash scripts/test-ui.sh build)", .0.display())]
    NoUi(PathBuf),
    /// `--preview` was given a store without the benchmark's documents.
    #[error("{} holds no documents of the benchmark's search space (keep a run's store with --dir)", .0.display())]
    NoBenchSpace(PathBuf),
    /// `--preview` was given a store whose search (or the benchmark query it picked) has too few results for
    /// an edit that shows one result more than a page.
    #[error(
        "{} is too small for --preview: {what} has {total} results, and each timed edit shows {needed} \
         (keep a larger run's store with --dir, e.g. --docs 10000)",
        dir.display()
    )]
    TooFewResults { dir: PathBuf, what: String, total: i64, needed: i64 },
    /// `--preview` drives the web UI with Node.js, which could not be run.
    #[error("cannot run node (install Node.js, then: bash scripts/test-ui.sh build): {0}")]
    NoNode(std::io::Error),
    /// The script driving the web UI failed.
    #[error("timing the preview's edits failed ({status}; its errors are above); its output ends with:\n{log}")]
    PreviewFailed { status: std::process::ExitStatus, log: String },
    /// The script driving the web UI printed no figures.
    #[error("timing the preview's edits printed no figures: {0}")]
    PreviewOutput(String),
    /// `--kept` times the queries of one corpus size, which `--docs` names.
    #[error("--kept needs exactly one --docs: the number of documents of the kept store")]
    KeptDocs,
    /// `--kept` was given a store of another size than `--docs` (the workload's document ids would miss).
    #[error("{} holds {found} documents of the benchmark's search space, not the {docs} of --docs", dir.display())]
    KeptSize { dir: PathBuf, found: u64, docs: usize },
    /// Background work of a store or an engine was running when a clock started or still ran when it stopped:
    /// it would overlap what is timed next, or be work moved off the clock.
    #[error("background work is running {when}: {threads} (it would overlap a timed phase)")]
    Overlap { when: String, threads: String },
    /// `--start-order` profiles the app under valgrind's callgrind, which could not be run.
    #[error("cannot run valgrind's callgrind (install the valgrind package): {0}")]
    NoValgrind(std::io::Error),
    /// `callgrind_control` could not write out the profile of the app's launch.
    #[error("callgrind did not write out its profile of the app's launch: {0}")]
    DumpFailed(String),
    /// A profiled launch kept the processor busy for longer than it may take.
    #[error("{} was still busy after {seconds} s, so its launch never ended; is another program holding it up?", app.display())]
    NeverQuiet { app: PathBuf, seconds: u64 },
    /// The profile names none of the app's functions: its binary has no symbol table.
    #[error("the profile names none of the functions of {}: build it without stripping its symbols", .0.display())]
    NoFunctions(PathBuf),
    /// A process's memory summary has no `Pss:` line.
    #[error("{} has no Pss: line", .0.display())]
    NoPss(PathBuf),
}

impl From<studio_local::search::EngineError> for BenchError {
    /// Our engine's failures, sorted as the store sorts them for every other caller.
    fn from(e: studio_local::search::EngineError) -> Self {
        BenchError::Engine(StoreError::from(e).into())
    }
}

impl BenchError {
    /// For `map_err`: a failed file operation (`what`: "read", "write", ...) on `path`.
    pub fn file(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> BenchError {
        let path = path.to_path_buf();
        move |source| BenchError::File { what, path, source }
    }
}

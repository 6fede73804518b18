//! `studio-bench --preview DIR`: a settings edit in the preview, timed as a designer sees it. The store in DIR (a
//! benchmark store kept with `--dir`) is served as `studio serve` serves it, with the built web UI, and
//! ui/e2e/preview-edits.mjs drives that UI in headless Chromium: each timed edit raises "Results per page" by one
//! and ends on the frame that shows the extra result, so the figure holds the editor's reaction, the search
//! request over HTTP, our engine's search and the preview's rendering. It is timed on the preview as opened (no
//! query: facet counts over every document) and after the most common of the benchmark's first ten queries was
//! searched in it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};
use studio_local::Store;
use studio_model::{Backend, SearchRequest};
use studio_remote::RemoteBackend;

use crate::corpus::SynthCorpus;
use crate::error::BenchError;
use crate::served::{serve_error, Served};
use crate::timing::{load_average, percentiles};
use crate::workload::{bench_config, Workload};

/// How a preview run goes.
#[derive(Debug, Clone)]
pub struct PreviewOptions {
    /// The web UI's directory (`ui/`, with `dist/` built and its packages installed).
    pub ui: PathBuf,
    /// Timed edits in each state of the preview.
    pub edits: usize,
}

/// The figures of a preview run, in ms from the edit to the frame that shows its answer.
#[derive(Debug, Clone, Serialize)]
pub struct PreviewReport {
    /// Documents in the benchmark's search space.
    pub docs: i64,
    pub edits: usize,
    /// The 1-, 5- and 15-minute load averages when the run began.
    pub load_average: String,
    pub preview_edit_shown_p50_ms: f64,
    pub preview_edit_shown_p95_ms: f64,
    /// Of that, the engine's own time of the edit's search (the "took N ms" of its answer), median.
    pub preview_edit_engine_p50_ms: f64,
    /// The query searched in the preview for the second state.
    pub query: String,
    pub preview_edit_query_shown_p50_ms: f64,
    pub preview_edit_query_shown_p95_ms: f64,
    pub preview_edit_query_engine_p50_ms: f64,
}

/// What ui/e2e/preview-edits.mjs prints.
#[derive(Debug, Deserialize)]
struct Timed {
    opened_ms: Vec<f64>,
    opened_engine_ms: Vec<Option<f64>>,
    query_ms: Vec<f64>,
    query_engine_ms: Vec<Option<f64>>,
}

/// Serves the store in `dir` and times `options.edits` edits in each state of the preview.
pub fn run(dir: &Path, options: &PreviewOptions) -> Result<PreviewReport, BenchError> {
    let index = options.ui.join("dist").join("index.html");
    if !index.is_file() {
        return Err(BenchError::NoUi(options.ui.clone()));
    }
    let store = Store::open_dir(dir)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(serve_error("start the runtime"))?;
    runtime.block_on(async {
        let served = Served::start(&store, Some(options.ui.join("dist"))).await?;
        let result = time_edits(&served, dir, options).await;
        served.stop().await;
        result
    })
}

async fn time_edits(served: &Served, dir: &Path, options: &PreviewOptions) -> Result<PreviewReport, BenchError> {
    // The first search builds the index (or loads its snapshot), before anything is timed.
    let client = RemoteBackend::new(&served.base, Some(&served.token))?;
    let docs = client.search(served.config_id, SearchRequest::default()).await?.total;
    if docs == 0 {
        return Err(BenchError::NoBenchSpace(dir.to_owned()));
    }
    // Each timed edit shows one result more than a page of the benchmark's configuration.
    let per_page = bench_config().result.items_per_page;
    let needed = i64::from(per_page) + 1;
    let (query, matched) = common_query(&client, served.config_id, docs as usize).await?;
    for (what, total) in [("the search space".to_owned(), docs), (format!("the query \"{query}\""), matched)] {
        if total < needed {
            return Err(BenchError::TooFewResults { dir: dir.to_owned(), what, total, needed });
        }
    }
    let load_average = load_average();
    let mut command = Command::new("node");
    command.current_dir(&options.ui).args(["e2e/preview-edits.mjs", "--url", &served.base, "--token", &served.token]);
    command.args(["--per-page", &per_page.to_string()]);
    command.args(["--edits", &options.edits.to_string(), "--query", &query]).stderr(Stdio::inherit());
    // The server runs on this runtime's threads while the browser is driven: wait for it off them.
    let output = tokio::task::spawn_blocking(move || command.output())
        .await
        .map_err(|e| BenchError::Serve { what: "wait for node", source: std::io::Error::other(e) })?
        .map_err(BenchError::NoNode)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let lines: Vec<&str> = stdout.lines().collect();
        let log = lines[lines.len().saturating_sub(12)..].join("\n");
        return Err(BenchError::PreviewFailed { status: output.status, log });
    }
    let last = stdout.lines().last().unwrap_or_default();
    let timed: Timed = serde_json::from_str(last).map_err(|e| BenchError::PreviewOutput(format!("{e}: {last:?}")))?;
    let [opened_p50, opened_p95, _] = percentiles(timed.opened_ms);
    let [query_p50, query_p95, _] = percentiles(timed.query_ms);
    let engine_p50 = |ms: Vec<Option<f64>>| percentiles(ms.into_iter().flatten().collect())[0];
    Ok(PreviewReport {
        docs,
        edits: options.edits,
        load_average,
        preview_edit_shown_p50_ms: opened_p50,
        preview_edit_shown_p95_ms: opened_p95,
        preview_edit_engine_p50_ms: engine_p50(timed.opened_engine_ms),
        query,
        preview_edit_query_shown_p50_ms: query_p50,
        preview_edit_query_shown_p95_ms: query_p95,
        preview_edit_query_engine_p50_ms: engine_p50(timed.query_engine_ms),
    })
}

/// Of the first ten queries of the benchmark's workload, the one matching the most documents, with how many it
/// matches: the preview counts every facet over its matches, so a common word is the case a designer waits on
/// longest.
async fn common_query(client: &RemoteBackend, config_id: i32, docs: usize) -> Result<(String, i64), BenchError> {
    let workload = Workload::new(&SynthCorpus::new(8), docs, 10);
    let mut best = (0, String::new());
    for search in &workload.searches {
        let query = search.words.join(" ");
        let request = SearchRequest { input: Some(query.clone()), ..SearchRequest::default() };
        let total = client.search(config_id, request).await?.total;
        if total > best.0 {
            best = (total, query);
        }
    }
    Ok((best.1, best.0))
}

impl fmt::Display for PreviewReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "preview: settings edit → shown, {} documents, {} edits each (load {})",
            self.docs, self.edits, self.load_average
        )?;
        writeln!(
            f,
            "  as opened (no query)   p50 {:>7.1} ms   p95 {:>7.1} ms   (engine p50 {:.0} ms)",
            self.preview_edit_shown_p50_ms, self.preview_edit_shown_p95_ms, self.preview_edit_engine_p50_ms
        )?;
        writeln!(
            f,
            "  after query {:<10} p50 {:>7.1} ms   p95 {:>7.1} ms   (engine p50 {:.0} ms)",
            format!("\"{}\"", self.query),
            self.preview_edit_query_shown_p50_ms,
            self.preview_edit_query_shown_p95_ms,
            self.preview_edit_query_engine_p50_ms
        )
    }
}

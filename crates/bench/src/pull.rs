//! Taking the benchmark's search space offline as `studio pull` does: the real server (studio-server's
//! router with its network limits, as `studio serve` runs it) serves the benchmark's store on a loopback
//! port, and the real pull (`studio_sync::pull::pull`, same page size) copies the search space through
//! the real HTTP client into a fresh store, timed from the first request to the last page stored.
//!
//! A pull that does not give back every document, or whose local search answers differently from the
//! server's, fails the run: a figure of a wrong pull would mean nothing.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use studio_local::{LocalBackend, Store};
use studio_model::{Backend, SearchRequest};
use studio_remote::RemoteBackend;

use crate::error::BenchError;
use crate::served::{caller, serve_error, Served};

/// The figures of one timed pull.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PullFigures {
    /// Documents pulled per second of the whole pull.
    pub docs_per_s: f64,
    pub seconds: f64,
}

/// Serves `store` (which holds `docs` documents in the benchmark's search space) on a loopback port and
/// pulls its search space into a new store in `into`, checking the copy before returning its figures.
/// `check` is a search whose total must be the same on the server and on the copy.
pub fn pull(store: &Store, docs: usize, into: &Path, check: &SearchRequest) -> Result<PullFigures, BenchError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(serve_error("start the runtime"))?;
    runtime.block_on(pull_served(store, docs, into, check))
}

async fn pull_served(
    store: &Store,
    docs: usize,
    into: &Path,
    check: &SearchRequest,
) -> Result<PullFigures, BenchError> {
    let served = Served::start(store, None).await?;
    let result = pull_from(&served.base, &served.token, served.config_id, docs, into, check).await;
    served.stop().await;
    result
}

async fn pull_from(
    base: &str,
    token: &str,
    remote_id: i32,
    docs: usize,
    into: &Path,
    check: &SearchRequest,
) -> Result<PullFigures, BenchError> {
    let client = RemoteBackend::new(base, Some(token))?;
    // A running server has its index built already: the first search builds it before the clock starts.
    let theirs = client.search(remote_id, check.clone()).await?;
    let local = LocalBackend::new(Store::open_dir(into)?);
    let started = Instant::now();
    let report =
        studio_sync::pull::pull(&local, &client, base, remote_id, &caller(), &mut |_, _| {}, &AtomicBool::new(false))
            .await?;
    let seconds = started.elapsed().as_secs_f64();

    let everything = local.search(report.local_id, SearchRequest::default()).await?;
    if report.documents != docs as u64 || everything.total != docs as i64 {
        return Err(BenchError::PullDiffers(format!(
            "{docs} documents served, {} pulled, {} found in the copy",
            report.documents, everything.total
        )));
    }
    let ours = local.search(report.local_id, check.clone()).await?;
    if ours.total != theirs.total {
        return Err(BenchError::PullDiffers(format!(
            "the check search finds {} documents on the server and {} in the copy",
            theirs.total, ours.total
        )));
    }
    Ok(PullFigures { docs_per_s: docs as f64 / seconds.max(1e-9), seconds })
}

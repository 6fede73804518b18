//! Taking the benchmark's search space offline as `studio pull` does: the real server (studio-server's
//! router with its network limits, as `studio serve` runs it) serves the benchmark's store on a loopback
//! port, and the real pull (`studio_sync::pull::pull`, same page size) copies the search space through
//! the real HTTP client into a fresh store, timed from the first request to the copy searchable at full speed.
//! It is compared with an import of the same documents (the lines the pull imports, read from the same server
//! before any clock) into another fresh store, timed to the same point: the same fields, the same bytes.
//!
//! A pull that does not give back every document, or whose local search answers differently from the
//! server's, fails the run: a figure of a wrong pull would mean nothing.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use studio_local::{import_concepts, import_documents, LocalBackend, SearchEngine, Store};
use studio_model::{Backend, SearchRequest};
use studio_remote::RemoteBackend;

use crate::clock::{Clock, Phases};
use crate::error::BenchError;
use crate::searchable::make_searchable;
use crate::served::{caller, serve_error, Served};

/// The figures of one timed pull and of the import of the same documents.
#[derive(Debug, Clone, PartialEq)]
pub struct PullFigures {
    /// Documents pulled per second, to searchable at full speed.
    pub docs_per_s: f64,
    pub phases: Phases,
    /// Documents per second of the import of the same documents, to the same point.
    pub import_docs_per_s: f64,
    pub import_phases: Phases,
}

/// What a pull imports: its search space, concept lines and document lines.
struct Lines {
    space: String,
    concepts: Vec<u8>,
    documents: Vec<u8>,
}

/// Serves `store` (which holds `docs` documents in the benchmark's search space) on a loopback port, pulls its
/// search space into a new store in `into/pull`, checking the copy, then imports the same documents into a new
/// store in `into/import`.
pub fn pull(store: &Store, docs: usize, into: &Path, check: &SearchRequest) -> Result<PullFigures, BenchError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(serve_error("start the runtime"))?;
    let pulled = runtime.block_on(pull_served(store, docs, &into.join("pull"), check));
    // The server's and the client's threads end before the import is timed.
    drop(runtime);
    let (phases, lines) = pulled?;
    let import_phases = import_same(&into.join("import"), docs, &lines)?;
    let rate = |phases: &Phases| docs as f64 / (phases.total_ms() / 1000.0).max(1e-9);
    Ok(PullFigures { docs_per_s: rate(&phases), import_docs_per_s: rate(&import_phases), phases, import_phases })
}

async fn pull_served(
    store: &Store,
    docs: usize,
    into: &Path,
    check: &SearchRequest,
) -> Result<(Phases, Lines), BenchError> {
    let served = Served::start(store, None).await?;
    let result = pull_from(&served, docs, into, check).await;
    served.stop().await;
    result
}

async fn pull_from(
    served: &Served,
    docs: usize,
    into: &Path,
    check: &SearchRequest,
) -> Result<(Phases, Lines), BenchError> {
    let (base, remote_id) = (served.base.as_str(), served.config_id);
    let client = RemoteBackend::new(base, Some(&served.token))?;
    // A running server has its index built already: the first search builds it before the clock starts.
    let theirs = client.search(remote_id, check.clone()).await?;
    let (concepts, documents) = studio_sync::pull::import_lines(&client, remote_id).await?;
    served.settle();
    let local = LocalBackend::new(Store::open_dir(into)?);
    // The server answers on the runtime's workers: part of the pull's work, not background work.
    let mut clock = Clock::start_with("the pull", true)?;
    let report = clock
        .phase_async("pull", async {
            let (progress, cancel) = (&mut |_, _| {}, &AtomicBool::new(false));
            Ok(studio_sync::pull::pull(&local, &client, base, remote_id, &caller(), progress, cancel).await?)
        })
        .await?;
    make_searchable(&mut clock, local.store(), local.engine(), &report.search_space)?;
    let phases = clock.stop()?;

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
    local.engine().settle();
    Ok((phases, Lines { space: report.search_space, concepts, documents }))
}

/// Imports `lines` (written to a file before the clock, as the benchmark's own import reads its corpus) into a
/// new store in `into`, to searchable at full speed; returns its phases.
fn import_same(into: &Path, docs: usize, lines: &Lines) -> Result<Phases, BenchError> {
    let store = Store::open_dir(into)?;
    let engine = SearchEngine::new();
    let file = into.join("pulled.jsonl");
    std::fs::write(&file, &lines.documents).map_err(BenchError::file("write", &file))?;
    let input = BufReader::new(File::open(&file).map_err(BenchError::file("read", &file))?);
    let mut clock = Clock::start("the import of the pulled documents")?;
    let imported = clock.phase("import", || {
        import_concepts(&store, lines.concepts.as_slice(), &mut |_| {})?;
        Ok(import_documents(&store, &lines.space, input, &mut |_| {})?)
    })?;
    make_searchable(&mut clock, &store, &engine, &lines.space)?;
    let phases = clock.stop()?;
    std::fs::remove_file(&file).map_err(BenchError::file("remove", &file))?;
    if imported.imported != docs as u64 {
        return Err(BenchError::PullDiffers(format!(
            "{docs} documents served, {} imported from the pulled lines",
            imported.imported
        )));
    }
    Ok(phases)
}

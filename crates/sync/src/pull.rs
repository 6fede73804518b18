//! Taking a remote search space offline: the remote configuration (unknown fields kept) and every
//! document its search returns, paged through the search operation, go into the local store under the
//! configuration's search space; the concept hierarchy is read from the search answer's facets.
//!
//! After every write the next offset is bookmarked in the store, so a cancelled or broken pull resumes
//! where it stopped. Re-importing a document id replaces it, so a page fetched twice does no harm.

use std::io::Cursor;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use serde_json::{json, Value};
use studio_local::{import_concepts, import_documents, LocalBackend, Store};
use studio_model::{
    Backend, Caller, Configuration, Document, Refiner, SearchRequest, SearchResponse, ALL_CONCEPTS_FIELD,
};
use tokio::sync::mpsc;

use crate::drafts::now;
use crate::error::SyncError;

/// Documents asked for per page (servers that ignore the page-size override send their own page size).
pub const PAGE: i64 = 100;

/// What a pull did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PullReport {
    /// The local copy of the configuration.
    pub local_id: i32,
    pub search_space: String,
    /// Documents fetched in all runs of this pull.
    pub documents: u64,
    /// The remote total.
    pub total: u64,
    /// The offset this run started from (0 for a fresh pull).
    pub resumed_from: u64,
}

struct Bookmark {
    local_id: Option<i32>,
    next_start: i64,
    finished: bool,
}

fn bookmark(store: &Store, source: &str, remote_id: i32) -> Result<Option<Bookmark>, SyncError> {
    Ok(store
        .conn()?
        .query_row(
            "SELECT local_id, next_start, finished FROM pulls WHERE source = ?1 AND remote_id = ?2",
            params![source, remote_id],
            |r| Ok(Bookmark { local_id: r.get(0)?, next_start: r.get(1)?, finished: r.get::<_, i64>(2)? != 0 }),
        )
        .optional()?)
}

/// Where a pull stands after a page: saved so that the next call resumes there.
struct Position<'a> {
    local_id: i32,
    space: &'a str,
    next: i64,
    total: i64,
    finished: bool,
}

fn save_bookmark(store: &Store, source: &str, remote_id: i32, at: &Position) -> Result<(), SyncError> {
    store.conn()?.execute(
        "INSERT INTO pulls (source, remote_id, local_id, search_space, next_start, total, finished, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (source, remote_id) DO UPDATE SET local_id = excluded.local_id, search_space = excluded.search_space,
           next_start = excluded.next_start, total = excluded.total, finished = excluded.finished, updated_at = excluded.updated_at",
        params![source, remote_id, at.local_id, at.space, at.next, at.total, at.finished as i64, now()],
    )?;
    Ok(())
}

/// The search body of one page: the stored settings with a large page. The first page of a run asks for
/// every facet at full depth, so that its answer carries the whole concept hierarchy; the others ask for
/// no facet at all, since counting every facet value over the whole search space is most of a server's
/// work for a page and the pull reads the facets of one answer only.
fn page_request(config: &Configuration, start: i64, with_facets: bool) -> SearchRequest {
    let shown = if with_facets { config.config.filter.facets_to_show.as_slice() } else { &[] };
    let facets: Vec<Value> = shown
        .iter()
        .filter_map(|f| serde_json::to_value(f).ok())
        .map(|mut f| {
            f["show"] = json!(true);
            f["maximumTerms"] = json!(1000);
            f["hierarchicalDepth"] = json!(10);
            f
        })
        .collect();
    SearchRequest {
        input: None,
        selected_facets: Vec::new(),
        start: i32::try_from(start).ok(),
        config: Some(json!({ "result": { "itemsPerPage": PAGE }, "filter": { "facetsToShow": facets } })),
    }
}

/// Concept lines (`{"uri","label","broader"}`) for every concept refiner of the answer's facets.
fn concept_lines(groups: &[studio_model::FacetGroup]) -> Vec<u8> {
    fn walk(refiners: &[Refiner], parent: Option<&str>, out: &mut Vec<u8>) {
        for r in refiners {
            let Some(uri) = r.value.as_deref() else { continue };
            let broader: Vec<&str> = parent.into_iter().collect();
            if let Ok(line) = serde_json::to_vec(&json!({ "uri": uri, "label": r.label, "broader": broader })) {
                out.extend(line);
                out.push(b'\n');
            }
            walk(r.children.as_deref().unwrap_or_default(), Some(uri), out);
        }
    }
    let mut out = Vec::new();
    for g in groups.iter().filter(|g| g.field.starts_with("dyn_uri_") && g.field != ALL_CONCEPTS_FIELD) {
        walk(&g.facets, None, &mut out);
    }
    out
}

fn document_lines(docs: &[Document]) -> Result<Vec<u8>, SyncError> {
    let mut out = Vec::new();
    for d in docs {
        serde_json::to_writer(&mut out, d)?;
        out.push(b'\n');
    }
    Ok(out)
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, studio_local::StoreError> + Send + 'static,
) -> Result<T, SyncError> {
    Ok(tokio::task::spawn_blocking(work).await.map_err(|e| SyncError::Task(e.to_string()))??)
}

/// The local copy of the remote configuration: created on the first pull, updated on a later fresh one.
async fn local_copy(
    local: &LocalBackend,
    caller: &Caller,
    remote: &Configuration,
    previous: Option<i32>,
) -> Result<i32, SyncError> {
    let body = serde_json::to_value(remote)?;
    if let Some(id) = previous {
        if local.get_configuration(id).await.is_ok() {
            local.update_configuration(caller, id, body).await?;
            return Ok(id);
        }
    }
    let created = local.create_configuration(caller, body).await?;
    created.config.id.ok_or_else(|| SyncError::Task("the local store created a configuration without an id".into()))
}

/// Most pages written by one import: two of the import's own transactions, so that the log's copy after the
/// first overlaps the second and the import waits for one copy, before the bookmark, per write
/// (docs/performance.md, run Q). While the store writes, the next pages are fetched; the writer then takes every
/// page that arrived meanwhile, so a slow store gets larger writes and fewer of them, and a slow network single
/// pages.
const MAX_PAGES_PER_WRITE: usize = 2 * studio_local::IMPORT_BATCH / PAGE as usize;
/// Pages fetched ahead of the writer at most.
const PAGES_AHEAD: usize = MAX_PAGES_PER_WRITE;

/// Pulls configuration `remote_id` of `remote` (whose key is `source`, its base URL) and its documents into
/// `local`. `progress` gets (documents fetched, remote total) after each page is stored; `cancel` stops
/// between writes with [`SyncError::Cancelled`], and the next call resumes from the bookmark.
///
/// Pages are fetched while earlier ones are written, and the pages that arrived during a write are written
/// together in one transaction, whose end is bookmarked: a broken pull resumes after the last write.
pub async fn pull(
    local: &LocalBackend,
    remote: &dyn Backend,
    source: &str,
    remote_id: i32,
    caller: &Caller,
    progress: &mut dyn FnMut(u64, u64),
    cancel: &AtomicBool,
) -> Result<PullReport, SyncError> {
    let store = local.store().clone();
    let config = remote.get_configuration(remote_id).await?;
    let space = config.config.search_space.clone();
    let mark = bookmark(&store, source, remote_id)?;
    let resuming = mark.as_ref().filter(|m| !m.finished);
    let (local_id, next) = match resuming {
        Some(Bookmark { local_id: Some(id), next_start, .. }) => (*id, *next_start),
        _ => (local_copy(local, caller, &config, mark.and_then(|m| m.local_id)).await?, 0),
    };
    let resumed_from = next as u64;
    let mut at = Position { local_id, space: &space, next, total: 0, finished: false };
    let run = PullRun { store: &store, remote, source, remote_id, config: &config };
    let (pages, queue) = mpsc::channel(PAGES_AHEAD);
    let (fetched, stored) =
        tokio::join!(run.fetch(next, pages, cancel), run.store_pages(queue, &mut at, progress, cancel));
    stored?;
    fetched?;
    Ok(PullReport {
        local_id,
        search_space: space.clone(),
        documents: at.next as u64,
        total: at.total as u64,
        resumed_from,
    })
}

/// What one pull reads from and writes to.
struct PullRun<'a> {
    store: &'a Store,
    remote: &'a dyn Backend,
    source: &'a str,
    remote_id: i32,
    config: &'a Configuration,
}

impl PullRun<'_> {
    /// Fetches the pages from `start` on into `pages` until the last one, a cancel, or the writer stopping.
    async fn fetch(
        &self,
        mut start: i64,
        pages: mpsc::Sender<SearchResponse>,
        cancel: &AtomicBool,
    ) -> Result<(), SyncError> {
        let mut with_facets = true;
        while !cancel.load(Ordering::Relaxed) {
            let page = self.remote.search(self.remote_id, page_request(self.config, start, with_facets)).await?;
            with_facets = false;
            start += page.result.len() as i64;
            let last = page.result.is_empty() || start >= page.total;
            if pages.send(page).await.is_err() || last {
                break;
            }
        }
        Ok(())
    }

    /// Writes the pages of `queue` (the first one's concepts too), as many as have arrived in one
    /// transaction, bookmarking after each write; `at` follows what is stored.
    async fn store_pages(
        &self,
        mut queue: mpsc::Receiver<SearchResponse>,
        at: &mut Position<'_>,
        progress: &mut dyn FnMut(u64, u64),
        cancel: &AtomicBool,
    ) -> Result<(), SyncError> {
        let mut first = true;
        while let Some(page) = queue.recv().await {
            let mut batch = vec![page];
            while batch.len() < MAX_PAGES_PER_WRITE {
                match queue.try_recv() {
                    Ok(page) => batch.push(page),
                    Err(_) => break,
                }
            }
            if std::mem::take(&mut first) {
                let concepts = batch.first().map(|p| concept_lines(&p.facets)).unwrap_or_default();
                if !concepts.is_empty() {
                    let s = self.store.clone();
                    blocking(move || import_concepts(&s, Cursor::new(concepts), &mut |_| {})).await?;
                }
            }
            let mut lines = Vec::new();
            for page in &batch {
                lines.extend(document_lines(&page.result)?);
            }
            if !lines.is_empty() {
                let (s, space) = (self.store.clone(), at.space.to_owned());
                blocking(move || import_documents(&s, &space, Cursor::new(lines), &mut |_| {})).await?;
            }
            for page in &batch {
                at.total = page.total.max(0);
                at.next += page.result.len() as i64;
                at.finished = page.result.is_empty() || at.next >= at.total;
            }
            save_bookmark(self.store, self.source, self.remote_id, at)?;
            let mut shown = at.next - batch.iter().map(|p| p.result.len() as i64).sum::<i64>();
            for page in &batch {
                shown += page.result.len() as i64;
                progress(shown as u64, at.total as u64);
            }
            if at.finished {
                return Ok(());
            }
            if cancel.load(Ordering::Relaxed) {
                return Err(SyncError::Cancelled);
            }
        }
        // The fetcher stopped before the last page: cancelled, or failed (its error is returned beside this).
        if cancel.load(Ordering::Relaxed) {
            return Err(SyncError::Cancelled);
        }
        Ok(())
    }
}

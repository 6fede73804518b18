//! Taking a remote search space offline: the remote configuration (unknown fields kept) and every
//! document its search returns, paged through the search operation, go into the local store under the
//! configuration's search space; the concept hierarchy is read from the search answer's facets.
//!
//! After every page the next offset is bookmarked in the store, so a cancelled or broken pull resumes
//! where it stopped. Re-importing a document id replaces it, so a page fetched twice does no harm.

use std::io::Cursor;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use serde_json::{json, Value};
use studio_local::{import_concepts, import_documents, LocalBackend, Store};
use studio_model::{Backend, Caller, Configuration, Document, Refiner, SearchRequest, ALL_CONCEPTS_FIELD};

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

/// The search body of one page: the stored settings with a large page and every facet at full depth, so
/// that the first answer carries the whole concept hierarchy.
fn page_request(config: &Configuration, start: i64) -> SearchRequest {
    let facets: Vec<Value> = config
        .config
        .filter
        .facets_to_show
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

/// Pulls configuration `remote_id` of `remote` (whose key is `source`, its base URL) and its documents into
/// `local`. `progress` gets (documents fetched, remote total) after each page; `cancel` stops between pages
/// with [`SyncError::Cancelled`], and the next call resumes from the bookmark.
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
    let (local_id, mut next) = match resuming {
        Some(Bookmark { local_id: Some(id), next_start, .. }) => (*id, *next_start),
        _ => (local_copy(local, caller, &config, mark.and_then(|m| m.local_id)).await?, 0),
    };
    let resumed_from = next as u64;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(SyncError::Cancelled);
        }
        let page = remote.search(remote_id, page_request(&config, next)).await?;
        let total = page.total.max(0);
        if next == resumed_from as i64 {
            let concepts = concept_lines(&page.facets);
            if !concepts.is_empty() {
                let s = store.clone();
                blocking(move || import_concepts(&s, Cursor::new(concepts), &mut |_| {})).await?;
            }
        }
        if !page.result.is_empty() {
            let lines = document_lines(&page.result)?;
            let (s, sp) = (store.clone(), space.clone());
            blocking(move || import_documents(&s, &sp, Cursor::new(lines), &mut |_| {})).await?;
            next += page.result.len() as i64;
        }
        let finished = page.result.is_empty() || next >= total;
        save_bookmark(&store, source, remote_id, &Position { local_id, space: &space, next, total, finished })?;
        progress(next as u64, total as u64);
        if finished {
            return Ok(PullReport {
                local_id,
                search_space: space,
                documents: next as u64,
                total: total as u64,
                resumed_from,
            });
        }
    }
}

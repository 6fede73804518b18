//! Taking a remote search space offline: the remote configuration (unknown fields kept) and every
//! document its search returns, paged through the search operation, go into the local store under the
//! configuration's search space; the concept hierarchy is read from the search answer's facets.
//!
//! After every write on disk the next offset is bookmarked in the store, so a cancelled or broken pull resumes
//! where it stopped. Re-importing a document id replaces it, so a page fetched twice does no harm.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use futures_util::StreamExt;
use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use studio_local::{ImportReport, LocalBackend, Store, StoreError};
use studio_model::{
    Backend, Caller, Configuration, SearchPage, SearchRequest, MAX_DEPTH, MAX_ITEMS_PER_PAGE, MAX_TERMS,
};
use tokio::sync::mpsc;

use crate::drafts::now;
use crate::error::SyncError;

mod feed;
mod hierarchy;
mod resume;

use feed::{blocking, write, Page, PageFeed, Position};
use hierarchy::{concept_lines, hierarchy_facets, partial_hierarchies};
pub use resume::Resume;

/// Documents asked for per page, the most a search gives (servers that ignore the page-size override send their
/// own page size).
pub const PAGE: i64 = MAX_ITEMS_PER_PAGE;

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
    /// Documents of this run that the local store could not take (another server's document without an id, or
    /// with a field of the wrong type), counted in `documents` but not stored.
    pub skipped: u64,
    /// The first [`studio_local::MAX_REPORTED_ERRORS`] of them, with why.
    pub skipped_documents: Vec<SkippedDocument>,
    /// Concept fields whose hierarchy this run's first answer may have given in part (more values at a level, or
    /// more levels, than a search answer gives): their concepts beyond it are stored without their broader ones.
    pub partial_hierarchies: Vec<String>,
}

impl PullReport {
    /// What the user is told about [`PullReport::skipped`] documents, when there are any; each of
    /// [`PullReport::skipped_documents`] is said beside it.
    pub fn skipped_note(&self) -> Option<String> {
        (self.skipped > 0).then(|| format!("{} of them could not be stored here and were skipped", self.skipped))
    }

    /// What the user is told about [`PullReport::partial_hierarchies`], when there are any.
    pub fn partial_note(&self) -> Option<String> {
        (!self.partial_hierarchies.is_empty()).then(|| {
            format!(
                "the concept hierarchy of {} may be copied in part: a search answer gives at most {MAX_TERMS} values \
                 a level and {MAX_DEPTH} levels, and concepts beyond them are at the top of the hierarchy offline",
                self.partial_hierarchies.join(", ")
            )
        })
    }
}

/// A document of the remote search's results that the local store could not take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkippedDocument {
    /// Its place among the search's results, from 1.
    pub result: u64,
    pub reason: String,
}

impl std::fmt::Display for SkippedDocument {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "result {}: {}", self.result, self.reason)
    }
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

fn save_bookmark(store: &Store, source: &str, remote_id: i32, at: &Position) -> Result<(), StoreError> {
    store.conn()?.execute(
        "INSERT INTO pulls (source, remote_id, local_id, search_space, next_start, total, finished, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (source, remote_id) DO UPDATE SET local_id = excluded.local_id, search_space = excluded.search_space,
           next_start = excluded.next_start, total = excluded.total, finished = excluded.finished, updated_at = excluded.updated_at",
        params![source, remote_id, at.local_id, at.space, at.next, at.total, at.finished as i64, now()],
    )?;
    Ok(())
}

/// The search body of one page from offset `start`: the stored settings with a large page, and `facets` (those
/// of [`hierarchy_facets`] for the first page of a run, none for the others, since counting every facet value
/// over the whole search space is most of a server's work for a page and the pull reads the facets of one
/// answer only).
fn page_request(facets: &[Value], start: i64) -> SearchRequest {
    SearchRequest {
        input: None,
        selected_facets: Vec::new(),
        start: i32::try_from(start).ok(),
        config: Some(json!({ "result": { "itemsPerPage": PAGE }, "filter": { "facetsToShow": facets } })),
    }
}

/// A JSON line per document, each as the server wrote it (reading every document into a `Document` and writing
/// it out again took a sixth of a pull's CPU). A document written over several lines (another server's indented
/// JSON) is written again on one.
fn document_lines(docs: &[Box<RawValue>]) -> Result<Vec<u8>, SyncError> {
    let mut out = Vec::with_capacity(docs.iter().map(|d| d.get().len() + 1).sum());
    for d in docs {
        let json = d.get();
        if memchr::memchr2(b'\n', b'\r', json.as_bytes()).is_some() {
            serde_json::to_writer(&mut out, &serde_json::from_str::<Value>(json)?)?;
        } else {
            out.extend_from_slice(json.as_bytes());
        }
        out.push(b'\n');
    }
    Ok(out)
}

/// What a pull of configuration `remote_id` imports, read page by page as the pull reads it but written to
/// nothing: the concept lines of the first answer's facets, and a JSON line per document. The benchmark
/// imports these lines to compare a pull with an import of the same documents, byte for byte.
pub async fn import_lines(remote: &dyn Backend, remote_id: i32) -> Result<(Vec<u8>, Vec<u8>), SyncError> {
    let config = remote.get_configuration(remote_id).await?;
    let hierarchies = hierarchy_facets(remote, &config).await?;
    let (mut concepts, mut lines, mut start) = (Vec::new(), Vec::new(), 0i64);
    loop {
        let facets = if start == 0 { hierarchies.as_slice() } else { &[] };
        let answer = remote.search_page(remote_id, page_request(facets, start)).await?;
        if start == 0 {
            concepts = concept_lines(&answer.facets);
        }
        lines.extend(document_lines(&answer.result)?);
        start += answer.result.len() as i64;
        if answer.result.is_empty() || start >= answer.total {
            return Ok((concepts, lines));
        }
    }
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

/// Pages fetched ahead of the store at most: two of the import's transactions.
const PAGES_AHEAD: usize = 2 * studio_local::IMPORT_BATCH / PAGE as usize;

/// Pulls configuration `remote_id` of `remote` (whose key is `source`, its base URL) and its documents into
/// `local`. `progress` gets (documents stored, remote total) after each write is on disk; `cancel` stops the
/// pull with [`SyncError::Cancelled`] after the write under way, and the next call resumes from the bookmark.
///
/// One import writes every page (`studio_local::import_fed`) while the next pages are fetched: a transaction
/// takes the pages that arrived, up to the import's batch, so a slow network gets small writes and a fast one
/// full batches; after each write on disk, the bookmark says where the pull resumes.
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
    let resumed = mark.as_ref().filter(|m| !m.finished).and_then(|m| Some((m.local_id?, m.next_start)));
    let (local_id, next) = match resumed {
        Some(at) => at,
        None => (local_copy(local, caller, &config, mark.and_then(|m| m.local_id)).await?, 0),
    };
    let at = Position { local_id, space: space.clone(), next, total: 0, finished: false };
    if resumed.is_none() {
        // A run that fails before its first write resumes into this copy, rather than making another.
        let (store, source, start) = (store.clone(), source.to_owned(), at.clone());
        blocking(move || save_bookmark(&store, &source, remote_id, &start)).await?;
    }
    let (pages, queue) = mpsc::channel(PAGES_AHEAD);
    let (told, mut stored) = mpsc::unbounded_channel();
    let stop = Arc::new(AtomicBool::new(false));
    let feed = PageFeed::new(queue, stop.clone(), store.clone(), next, at.clone(), told);
    let fetching = fetch(remote, remote_id, &config, next, pages, cancel, &stop);
    // The bookmark is saved here, off the import's thread, which goes on writing meanwhile: a bookmark is only
    // ever saved after the documents it counts are on disk, so one lost to a power cut leaves an earlier bookmark,
    // from which the next pull copies again what it would have skipped.
    let (bookmarks, remote_source) = (store.clone(), source.to_owned());
    let showing = async {
        while let Some(mut at) = stored.recv().await {
            // Only the latest position of those waiting matters.
            while let Ok(later) = stored.try_recv() {
                at = later;
            }
            let (store, source) = (bookmarks.clone(), remote_source.clone());
            let saved = at.clone();
            if let Err(e) = blocking(move || save_bookmark(&store, &source, remote_id, &saved)).await {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
            progress(at.next as u64, at.total as u64);
            if cancel.load(Ordering::Relaxed) {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    };
    let (fetched, written, shown) = tokio::join!(fetching, write(feed), showing);
    let (at, imported) = written?.unwrap_or((at, ImportReport::default()));
    shown?;
    let partial_hierarchies = fetched?;
    if !at.finished && cancel.load(Ordering::Relaxed) {
        return Err(SyncError::Cancelled);
    }
    // The import numbers the lines of this run from 1, one line a document, from offset `next` on.
    let skipped_documents = imported
        .errors
        .into_iter()
        .map(|e| SkippedDocument { result: next as u64 + e.line, reason: e.message })
        .collect();
    Ok(PullReport {
        local_id,
        search_space: space,
        documents: at.next as u64,
        total: at.total as u64,
        resumed_from: next as u64,
        skipped: imported.skipped,
        skipped_documents,
        partial_hierarchies,
    })
}

/// Requests of a pull in flight at once: the server answers the next page while the client reads this one.
const REQUESTS_IN_FLIGHT: usize = 2;

/// Fetches the pages of configuration `remote_id` from `start` on into `pages` until the last one, a cancel
/// (which also tells the writer to `stop`), or the writer stopping; returns the concept fields whose hierarchy the
/// first answer gave in part ([`partial_hierarchies`]).
///
/// A page is fetched alone first: its length is the server's page size (servers that ignore the page size asked
/// for send their own), and the pages after it are asked for [`REQUESTS_IN_FLIGHT`] at a time at the offsets that
/// size gives, in order, while each is as long; after a shorter one the next is fetched alone again.
async fn fetch(
    remote: &dyn Backend,
    remote_id: i32,
    config: &Configuration,
    mut start: i64,
    pages: mpsc::Sender<Page>,
    cancel: &AtomicBool,
    stop: &AtomicBool,
) -> Result<Vec<String>, SyncError> {
    let hierarchies = hierarchy_facets(remote, config).await?;
    let search = |at: i64, with_facets: bool| {
        remote.search_page(remote_id, page_request(if with_facets { &hierarchies } else { &[] }, at))
    };
    let (mut first, mut partial) = (true, Vec::new());
    loop {
        if cancel.load(Ordering::Relaxed) {
            stop.store(true, Ordering::Relaxed);
            return Ok(partial);
        }
        let answer = search(start, first).await?;
        if first {
            partial = partial_hierarchies(&answer.facets);
        }
        let (size, total) = (answer.result.len() as i64, answer.total);
        if !deliver(answer, std::mem::take(&mut first), &mut start, &pages).await? {
            return Ok(partial);
        }
        let from = start;
        let offsets = (0..).map(move |k| from + k * size).take_while(move |&at| at < total);
        let mut answers = futures_util::stream::iter(offsets).map(|at| search(at, false)).buffered(REQUESTS_IN_FLIGHT);
        while let Some(answer) = answers.next().await {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let answer = answer?;
            let full = answer.result.len() as i64 == size;
            if !deliver(answer, false, &mut start, &pages).await? {
                return Ok(partial);
            }
            if !full {
                break;
            }
        }
    }
}

/// Sends the page of `answer` (from offset `start`, which it moves past it) to the writer. Returns whether pages
/// follow it and the writer still takes them.
async fn deliver(
    answer: SearchPage,
    with_concepts: bool,
    start: &mut i64,
    pages: &mpsc::Sender<Page>,
) -> Result<bool, SyncError> {
    let concepts = if with_concepts { concept_lines(&answer.facets) } else { Vec::new() };
    let documents = answer.result.len() as i64;
    *start += documents;
    let last = documents == 0 || *start >= answer.total;
    let page = Page { concepts, lines: document_lines(&answer.result)?, documents, total: answer.total.max(0) };
    Ok(pages.send(page).await.is_ok() && !last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_document_becomes_one_line_as_written_even_an_indented_one() {
        let page: SearchPage = serde_json::from_str(
            "{\"total\": 2, \"result\": [{\"id\":\"a\",\"title\":\"One\"}, {\n  \"id\": \"b\",\n  \"title\": \"Two\\nlines\"\r\n}]}",
        )
        .unwrap();
        let lines = String::from_utf8(document_lines(&page.result).unwrap()).unwrap();
        let lines: Vec<&str> = lines.lines().collect();
        assert_eq!(lines[0], "{\"id\":\"a\",\"title\":\"One\"}");
        assert_eq!(lines.len(), 2);
        let second: Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(second, json!({"id": "b", "title": "Two\nlines"}));
    }
}

//! Importing documents: one JSON object per line, shaped as the API's Document (docs/api.md, Documents) plus an optional `content`.

use std::collections::VecDeque;
use std::io::{BufRead, Read};
use std::time::{Duration, Instant};

use rusqlite::{params, OptionalExtension, Transaction};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Deserialize;
use studio_model::{FacetGroup, Refiner, ALL_CONCEPTS_FIELD, CONCEPT_PREFIX};

use super::checkpoint::{sync_documents_log, with_checkpoints, Checkpoints, LOG_LIMIT};
use super::lines::Lines;
use super::report::{bump_generation, ImportReport, BATCH};
use crate::error::StoreError;
use crate::store::Store;
use studio_engine::stored_facets;
use studio_engine::text_index::{self, Indexer, Job};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Incoming {
    id: String,
    #[serde(default)]
    link: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    date: Option<f64>,
    #[serde(default)]
    image: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    facet_list: Option<Vec<IncomingGroup>>,
}

#[derive(Deserialize)]
struct IncomingGroup {
    field: String,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    facets: Option<Vec<IncomingRefiner>>,
}

#[derive(Deserialize)]
struct IncomingRefiner {
    #[serde(default)]
    count: Option<f64>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    children: Option<Vec<IncomingRefiner>>,
}

/// What one import has already written, so that repeated labels and links are not rewritten per document.
#[derive(Default)]
struct Seen {
    concept_labels: FxHashMap<String, String>,
    /// Per concept, the broader ones written.
    broader: FxHashMap<String, FxHashSet<String>>,
    field_labels: FxHashMap<String, String>,
    /// The lowest row number the next document may have: above every number this import handed to the index,
    /// and every one it had been handed before (`text_index::next_row`), since numbers are never used twice.
    next_row: i64,
    /// Whether the batch under way has read the documents' last row yet (its first document reads it).
    rows_read: bool,
}

/// Documents the full-text index's builder may lag behind the import: their text waits in memory meanwhile (a few
/// MB of a typical import's).
const TEXT_QUEUE: usize = 1_000;

/// A fed import commits when its input pauses, but not more often than this.
const FED_COMMIT_EVERY: Duration = Duration::from_millis(250);

/// Input of an import that arrives while the import runs, as a pull's pages do ([`import_fed`]).
pub trait Feed: BufRead {
    /// Whether more input can be read, waiting `wait` at most for it. When none can, the import commits the
    /// documents it has read before it waits for more.
    fn at_hand(&mut self, wait: Duration) -> bool;

    /// Every line of the input up to the `lines`th is stored, and on disk. An error stops the import (what is
    /// stored stays stored).
    fn stored(&mut self, lines: u64) -> Result<(), StoreError>;
}

impl<F: Feed + ?Sized> Feed for &mut F {
    fn at_hand(&mut self, wait: Duration) -> bool {
        (**self).at_hand(wait)
    }

    fn stored(&mut self, lines: u64) -> Result<(), StoreError> {
        (**self).stored(lines)
    }
}

/// Input that is all there (a file): every batch full, nothing to tell.
struct Whole<R>(R);

impl<R: BufRead> Read for Whole<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: BufRead> BufRead for Whole<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.0.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.0.consume(amount)
    }
}

impl<R: BufRead> Feed for Whole<R> {
    fn at_hand(&mut self, _: Duration) -> bool {
        true
    }

    fn stored(&mut self, _: u64) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Imports JSON Lines documents into `search_space`. Re-importing an id replaces the document. Bad lines
/// are reported in the result and skipped. `on_progress` receives the number of lines read so far, every
/// thousand lines and at the end.
///
/// The full-text index of the documents is built on a thread of its own while the import writes them
/// (`text_index`); their text becomes searchable when the import ends, all of it at once (each batch's documents,
/// facets and counts are searchable as soon as it is committed).
pub fn import_documents(
    store: &Store,
    search_space: &str,
    reader: impl BufRead,
    on_progress: &mut dyn FnMut(u64),
) -> Result<ImportReport, StoreError> {
    import_fed(store, search_space, Whole(reader), on_progress)
}

/// [`import_documents`] from input that arrives while the import runs: a batch ends early when `feed` pauses (at
/// most four times a second), and `feed` is told after each commit what is on disk: at once when the import waits
/// for input (it syncs the documents file's log), else a commit or so later (the log is synced beside the
/// import); and of everything once the import is done.
pub fn import_fed(
    store: &Store,
    search_space: &str,
    feed: impl Feed,
    on_progress: &mut dyn FnMut(u64),
) -> Result<ImportReport, StoreError> {
    if search_space.is_empty() {
        return Err(StoreError::EmptySearchSpace);
    }
    let mut conn = store.conn()?;
    let mut indexer = Indexer::start(store.text_dir(), &conn, TEXT_QUEUE)?;
    let mut lines = Lines::new(feed);
    let written = with_checkpoints(store, &mut conn, LOG_LIMIT, |conn, checkpoints| {
        import_lines(store, conn, checkpoints, &mut indexer, search_space, &mut lines, on_progress)
    });
    let (report, told) = match written {
        // Only once every batch is in the documents file and on disk does the index take the import's text.
        Ok(written) => {
            indexer.finish(&conn)?;
            written
        }
        // The batches committed stay, and their text goes live; what came after is dropped. Where even that
        // fails (a full disk), the import stays counted among those building the index, and the next open builds
        // it again from the documents.
        Err(e) => {
            match indexer.finish_committed(&conn) {
                Ok(()) => new_text(&mut conn, search_space)?,
                Err(f) => tracing::warn!("the failed import's text is left for the next open to index: {f}"),
            }
            return Err(e);
        }
    };
    if report.imported > 0 {
        new_text(&mut conn, search_space)?;
    }
    let read = lines.number();
    // Told at least once, an empty input too.
    if read > told || read == 0 {
        sync_documents_log(store)?;
        lines.source().stored(read)?;
    }
    Ok(report)
}

/// After the import's text went live: an index of the search space built while the import ran read the text's
/// sizes without the import's documents, so it is built again.
fn new_text(conn: &mut rusqlite::Connection, search_space: &str) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    bump_generation(&tx, search_space)?;
    tx.commit()?;
    Ok(())
}

fn import_lines(
    store: &Store,
    conn: &mut rusqlite::Connection,
    checkpoints: &Checkpoints,
    indexer: &mut Indexer,
    search_space: &str,
    lines: &mut Lines<impl Feed>,
    on_progress: &mut dyn FnMut(u64),
) -> Result<(ImportReport, u64), StoreError> {
    let mut report = ImportReport::default();
    let mut seen = Seen { next_row: text_index::next_row(conn)?, ..Seen::default() };
    // Commits not yet known to be on disk, with the lines read up to each; the lines the feed was told are stored.
    let mut unsynced = VecDeque::new();
    let mut told = 0;
    let mut last_commit = Instant::now();
    let mut done = false;
    while !done {
        // Deferred: the batch takes the documents file for writing at its first statement.
        let tx = conn.transaction()?;
        seen.rows_read = false;
        let mut in_batch = 0;
        let mut waiting = false;
        while in_batch < BATCH {
            // A pause in the input ends the batch: what arrived is stored while the next arrives. A feed that
            // pauses often still gets a commit a quarter of a second at most.
            if in_batch > 0 && !lines.source().at_hand(FED_COMMIT_EVERY.saturating_sub(last_commit.elapsed())) {
                waiting = true;
                break;
            }
            let Some((_, doc)) =
                lines.next_record::<Incoming>(&mut report, on_progress, ("document", "id"), |r| &r.id)?
            else {
                done = true;
                break;
            };
            write_document(&tx, search_space, doc, &mut seen, indexer)?;
            report.imported += 1;
            in_batch += 1;
        }
        if in_batch > 0 {
            bump_generation(&tx, search_space)?;
        }
        tx.commit()?;
        indexer.push(Job::Committed)?;
        unsynced.push_back((checkpoints.committed(), lines.number()));
        last_commit = Instant::now();
        let mut on_disk = checkpoints.stored();
        if waiting {
            // The import waits for its input: what it wrote is synced now rather than told a commit late.
            sync_documents_log(store)?;
            on_disk = u64::MAX;
        }
        let mut stored = None;
        while unsynced.front().is_some_and(|&(commit, _)| commit <= on_disk) {
            stored = unsynced.pop_front().map(|(_, read)| read);
        }
        if let Some(read) = stored.filter(|&read| read > told) {
            lines.source().stored(read)?;
            told = read;
        }
    }
    on_progress(lines.number());
    Ok((report, told))
}

/// Writes one document, and hands its text to the full-text index (and the row it replaced, out of it).
fn write_document(
    tx: &Transaction,
    space: &str,
    doc: Incoming,
    seen: &mut Seen,
    indexer: &mut Indexer,
) -> Result<(), StoreError> {
    let replaced: Option<i64> = tx
        .prepare_cached("DELETE FROM documents WHERE search_space = ?1 AND id = ?2 RETURNING num")?
        .query_row(params![space, doc.id], |r| r.get(0))
        .optional()?;
    // Any row, one of this import's too: the index takes the import's removals out after its documents.
    if let Some(row) = replaced {
        indexer.push(Job::Remove { row })?;
    }
    let mut groups: Vec<FacetGroup> = Vec::new();
    for g in doc.facet_list.unwrap_or_default() {
        if g.field.is_empty() || g.field == ALL_CONCEPTS_FIELD {
            continue;
        }
        let label = g.label.unwrap_or_default();
        if seen.field_labels.get(&g.field) != Some(&label) {
            tx.prepare_cached(
                "INSERT INTO facet_fields (search_space, field, label) VALUES (?1, ?2, ?3)
                 ON CONFLICT (search_space, field) DO UPDATE SET label = excluded.label",
            )?
            .execute(params![space, g.field, label])?;
            seen.field_labels.insert(g.field.clone(), label.clone());
        }
        let facets = g.facets.unwrap_or_default().into_iter().map(convert).collect();
        groups.push(FacetGroup { field: g.field, label, facets });
    }
    let facet_list = stored_facets::to_stored(&groups)?;
    // Above every row stored, too: another import may have written before this batch (within it, none can). Read
    // after the delete above, which took the documents file for writing: a read first would make this a read
    // transaction to be upgraded, which fails at once when another import wrote meanwhile.
    if !seen.rows_read {
        let last: i64 =
            tx.prepare_cached("SELECT coalesce(max(num), 0) FROM documents")?.query_row([], |r| r.get(0))?;
        seen.next_row = seen.next_row.max(last + 1);
        seen.rows_read = true;
    }
    let num = seen.next_row;
    seen.next_row = num + 1;
    let fields = [doc.title.unwrap_or_default(), doc.description.unwrap_or_default(), doc.content.unwrap_or_default()];
    tx.prepare_cached(
        "INSERT INTO documents (search_space, id, title, description, body, link, date, image, type, facet_list, num)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        space,
        doc.id,
        fields[0],
        fields[1],
        fields[2],
        doc.link.unwrap_or_default(),
        doc.date.unwrap_or(0.0),
        doc.image,
        doc.kind.unwrap_or_else(|| "User".to_owned()),
        facet_list,
        num,
    ])?;
    indexer.push(Job::Add { row: num, fields })?;
    for g in groups.iter().filter(|g| g.field.starts_with(CONCEPT_PREFIX)) {
        write_concepts(tx, space, &g.facets, None, seen)?;
    }
    Ok(())
}

fn convert(r: IncomingRefiner) -> Refiner {
    Refiner {
        count: r.count.map(|c| c as i64).unwrap_or(0),
        label: r.label.unwrap_or_default(),
        value: r.value,
        children: r.children.map(|c| c.into_iter().map(convert).collect()),
    }
}

/// Writes, for the refiners of a concept field at any depth, each concept's label and its broader link to the
/// enclosing refiner. (The refiners themselves are in the document's facet list, which the engine's index reads.)
fn write_concepts(
    tx: &Transaction,
    space: &str,
    refiners: &[Refiner],
    parent: Option<&str>,
    seen: &mut Seen,
) -> Result<(), StoreError> {
    for r in refiners {
        let uri = r.value.as_deref().filter(|v| !v.is_empty());
        if let Some(uri) = uri {
            if !r.label.is_empty() && seen.concept_labels.get(uri) != Some(&r.label) {
                tx.prepare_cached(
                    "INSERT INTO concepts (scope, uri, label) VALUES (?1, ?2, ?3)
                     ON CONFLICT (scope, uri) DO UPDATE SET label = excluded.label",
                )?
                .execute(params![space, uri, r.label])?;
                seen.concept_labels.insert(uri.to_owned(), r.label.clone());
            }
            if let Some(parent) = parent.filter(|p| *p != uri) {
                if !seen.broader.get(uri).is_some_and(|written| written.contains(parent)) {
                    tx.prepare_cached(
                        "INSERT OR IGNORE INTO concept_broader (scope, narrower, broader) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![space, uri, parent])?;
                    seen.broader.entry(uri.to_owned()).or_default().insert(parent.to_owned());
                }
            }
        }
        if let Some(children) = &r.children {
            write_concepts(tx, space, children, uri, seen)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{import_documents, Store};

    #[test]
    fn an_import_that_returned_is_in_the_documents_file_and_its_connection_checkpoints_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_dir(dir.path()).unwrap();
        let lines: String = (0..12_000).map(|i| format!("{{\"id\": \"d{i}\", \"title\": \"word {i}\"}}\n")).collect();
        let report = import_documents(&store, "space", lines.as_bytes(), &mut |_| {}).unwrap();
        assert_eq!(report.imported, 12_000);
        // The import's connection and the copying thread's are back in the pool, both checkpointing on their own.
        let idle = [store.conn().unwrap(), store.conn().unwrap()];
        for conn in &idle {
            let own: i64 = conn.query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0)).unwrap();
            assert_eq!(own, 1000);
        }
        // The documents file alone, without its log, holds every document.
        let copy = tempfile::tempdir().unwrap();
        let file = copy.path().join("documents.db");
        std::fs::copy(store.documents_path(), &file).unwrap();
        let alone = rusqlite::Connection::open(&file).unwrap();
        let count: i64 = alone.query_row("SELECT count(*) FROM documents", [], |r| r.get(0)).unwrap();
        assert_eq!(count, 12_000, "the log was copied into the file before the import returned");
    }
}

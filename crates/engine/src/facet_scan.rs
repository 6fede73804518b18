//! The scan of a search space's documents that an index build starts with: each document's row, id and date, and
//! the refiners of its facet list annotated into the builders of its fields, SQLite's reading of the rows and the
//! parsing of the facet lists side by side on two threads.

use std::sync::{mpsc, Mutex};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Row};
use rustc_hash::FxHashMap;
use studio_model::ALL_CONCEPTS_FIELD;

use crate::error::EngineError;
use crate::field_builder::FieldBuilder;
use crate::hierarchy::Hierarchy;
use crate::stored_facets::{self, StoredRefiner};

/// Facet lists a chunk of the scan holds when it goes to the annotating thread, and chunks that may wait for it.
const CHUNK_DOCS: usize = 512;
const CHUNKS_AHEAD: usize = 4;

/// The facet lists of consecutive documents of the scan, numbered from `first`, one after the other in `text`.
struct Chunk {
    first: u32,
    text: String,
    ends: Vec<usize>,
}

impl Chunk {
    fn new(first: u32) -> Chunk {
        Chunk { first, text: String::new(), ends: Vec::with_capacity(CHUNK_DOCS) }
    }
}

/// The documents of a scan (row, id, date, numbered by their place in it) and the annotations of their facets.
pub(crate) type Scanned = (Vec<(i64, String, f64)>, Vec<FieldBuilder>);

/// One scan of the space's documents: each one's row, id and date, and every refiner of its facet list at any
/// depth (the derived all-concepts group is made here again, from the concept fields). Until the documents are put
/// in result order, a document is numbered by its place in the scan.
///
/// SQLite's reading of the rows and the parsing of their facet lists (each about half of the scan) run side by
/// side, the second on a thread of its own when `beside` and one can be started. `None` when that thread stopped
/// unexpectedly (what it annotated is then incomplete).
pub(crate) fn scan(
    tx: &Connection,
    space: &str,
    annotator: Annotator,
    beside: bool,
) -> Result<Option<Scanned>, EngineError> {
    let mut stmt = tx.prepare_cached("SELECT num, id, date, facet_list FROM documents WHERE search_space = ?1")?;
    let mut rows = stmt.query([space])?;
    let mut docs: Vec<(i64, String, f64)> = Vec::new();
    let shared = Mutex::new(annotator);
    let finished = std::thread::scope(|s| -> Result<bool, EngineError> {
        let (send, receive) = mpsc::sync_channel::<Chunk>(CHUNKS_AHEAD);
        let helper = beside
            .then(|| {
                std::thread::Builder::new().spawn_scoped(s, || {
                    let mut annotator = shared.lock().unwrap_or_else(|e| e.into_inner());
                    for chunk in receive {
                        annotator.chunk(&chunk);
                    }
                })
            })
            .and_then(Result::ok);
        let mut send = helper.is_some().then_some(send);
        let mut chunk = Chunk::new(0);
        loop {
            let row = rows.next()?;
            if row.is_none() || chunk.ends.len() == CHUNK_DOCS {
                let full = std::mem::replace(&mut chunk, Chunk::new(docs.len() as u32));
                let unsent = match &send {
                    Some(to) => to.send(full).err().map(|e| e.0),
                    None => Some(full),
                };
                // Without a helper the scan annotates itself; a helper that stopped says so when joined below.
                if let Some(full) = unsent {
                    send = None;
                    if helper.is_none() {
                        shared.lock().unwrap_or_else(|e| e.into_inner()).chunk(&full);
                    }
                }
            }
            let Some(row) = row else { break };
            if u32::try_from(docs.len()).is_err() {
                return Err(EngineError::TooManyDocuments(space.to_owned()));
            }
            docs.push((row.get(0)?, row.get(1)?, row.get(2)?));
            // A facet list that cannot be read annotates nothing: the document is still found by its text.
            chunk.text.push_str(text(row, 3)?.unwrap_or_default());
            chunk.ends.push(chunk.text.len());
        }
        drop(send);
        Ok(helper.is_none_or(|h| h.join().is_ok()))
    })?;
    if !finished {
        return Ok(None);
    }
    let annotator = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(Some((docs, annotator.builders)))
}

/// Annotates the builders of a space's fields from documents' facet lists.
pub(crate) struct Annotator<'h> {
    builders: Vec<FieldBuilder>,
    field_by_id: FxHashMap<String, usize>,
    all_field: Option<usize>,
    hierarchy: &'h Hierarchy,
}

impl<'h> Annotator<'h> {
    pub(crate) fn new(fields: &[String], hierarchy: &'h Hierarchy) -> Annotator<'h> {
        Annotator {
            builders: fields.iter().map(|f| FieldBuilder::new(f)).collect(),
            field_by_id: fields.iter().enumerate().map(|(i, f)| (f.clone(), i)).collect(),
            all_field: fields.iter().position(|f| f == ALL_CONCEPTS_FIELD),
            hierarchy,
        }
    }

    fn chunk(&mut self, chunk: &Chunk) {
        let mut start = 0;
        for (k, &end) in chunk.ends.iter().enumerate() {
            self.facet_list(chunk.first + k as u32, &chunk.text[start..end]);
            start = end;
        }
    }

    /// Annotates document `doc` with its facet list `json` (nothing when it cannot be read).
    fn facet_list(&mut self, doc: u32, json: &str) {
        for group in stored_facets::parse(json).unwrap_or_default() {
            let Some(&fi) = self.field_by_id.get(&*group.field) else { continue };
            let all = self.all_field.filter(|_| self.builders[fi].concept);
            annotate(&mut self.builders, fi, all, doc, &group.facets, self.hierarchy);
        }
    }
}

/// Annotates document `doc` with `refiners` of field `fi` at any depth, and, for a concept field, the
/// all-concepts field `all` with those of them that have a concept.
fn annotate(
    builders: &mut [FieldBuilder],
    fi: usize,
    all: Option<usize>,
    doc: u32,
    refiners: &[StoredRefiner],
    hierarchy: &Hierarchy,
) {
    for r in refiners {
        let value = r.value.as_deref().filter(|v| !v.is_empty());
        builders[fi].annotate(doc, &r.label, value, hierarchy);
        if let (Some(all), Some(_)) = (all, value) {
            builders[all].annotate(doc, &r.label, value, hierarchy);
        }
        if let Some(children) = &r.children {
            annotate(builders, fi, all, doc, children, hierarchy);
        }
    }
}

/// A text column borrowed from the row (NULL and non-text as `None`).
fn text<'r>(row: &'r Row<'_>, i: usize) -> rusqlite::Result<Option<&'r str>> {
    Ok(match row.get_ref(i)? {
        ValueRef::Text(bytes) => std::str::from_utf8(bytes).ok(),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::{scan, Annotator, CHUNK_DOCS};
    use crate::hierarchy::Hierarchy;
    use crate::test_documents::{news_documents, TestFiles, NEWS_SPACE};

    #[test]
    fn the_scan_annotates_alike_beside_and_alone() {
        let files = TestFiles::new();
        let documents = news_documents(CHUNK_DOCS * 2 + 7, 7);
        files.import(NEWS_SPACE, &documents);
        let conn = files.conn();
        let hierarchy = Hierarchy::load(&conn, NEWS_SPACE).unwrap();
        let fields: Vec<String> = conn
            .prepare("SELECT field FROM facet_fields WHERE search_space = ?1 ORDER BY field")
            .unwrap()
            .query_map([NEWS_SPACE], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let scanned = |beside| {
            let (docs, builders) =
                scan(&conn, NEWS_SPACE, Annotator::new(&fields, &hierarchy), beside).unwrap().unwrap();
            let annotations: Vec<_> = builders.into_iter().map(|b| (b.values, b.pairs)).collect();
            (docs, annotations)
        };
        let (beside, alone) = (scanned(true), scanned(false));
        assert_eq!(beside.0.len(), documents.len(), "every document scanned");
        assert!(beside.1.iter().any(|(_, pairs)| pairs.iter().any(|&(doc, _)| doc as usize > CHUNK_DOCS * 2)));
        assert_eq!(beside, alone, "the annotating thread saw every chunk, the last short one too");
    }
}

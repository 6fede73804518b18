//! Building a search space's [`SpaceIndex`] from the store: one scan of the space's documents, their facet lists
//! into a builder per facet field (with the concept hierarchy closed over), the documents then put in result
//! order, and the text sizes the full-text index counted, all inside one read transaction.

use std::borrow::Cow;
use std::sync::{mpsc, Mutex};

use roaring::RoaringBitmap;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Row};
use rustc_hash::FxHashMap;
use serde::Deserialize;
use studio_model::ALL_CONCEPTS_FIELD;
use studio_text::Snapshot;

use super::common_terms;
use super::field_index::{FacetValue, FieldIndex, CONCEPT_PREFIX};
use super::generation::read_generation;
use super::hierarchy::{Hierarchy, ValueKey};
use super::index::SpaceIndex;
use super::text_index;
use super::tuning::{EnginePath, Tuned};
use crate::error::EngineError;

impl SpaceIndex {
    /// Builds the index of `space` from the store, inside one read transaction, keeping the lists of the terms
    /// `tuned` calls common.
    pub(crate) fn build(conn: &mut Connection, space: &str, tuned: Tuned) -> Result<SpaceIndex, EngineError> {
        let tx = conn.transaction()?;
        let generation = read_generation(&tx, space)?;
        let mut labels: Vec<(String, String)> = tx
            .prepare_cached("SELECT field, label FROM facet_fields WHERE search_space = ?1 ORDER BY field")?
            .query_map([space], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        if labels.iter().any(|(f, _)| f.starts_with(CONCEPT_PREFIX)) {
            labels.push((ALL_CONCEPTS_FIELD.to_owned(), "All concepts".to_owned()));
        }
        let hierarchy = Hierarchy::load(&tx, space)?;
        let fields: Vec<&str> = labels.iter().map(|(f, _)| f.as_str()).collect();
        let mut beside = true;
        let (docs, mut builders) = loop {
            match scan(&tx, space, Annotator::new(&fields, &hierarchy), beside)? {
                Some(scanned) => break scanned,
                // The annotating thread stopped unexpectedly: the scan is made again on this thread alone.
                None => beside = false,
            }
        };
        if u32::try_from(docs.len()).is_err() {
            return Err(EngineError::TooManyDocuments(space.to_owned()));
        }
        let mut order: Vec<u32> = (0..docs.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&docs[a as usize], &docs[b as usize]);
            b.2.total_cmp(&a.2).then_with(|| a.1.cmp(&b.1))
        });
        let mut dense_of = vec![0u32; docs.len()];
        for (dense, &scanned) in order.iter().enumerate() {
            dense_of[scanned as usize] = dense as u32;
        }
        for builder in &mut builders {
            for pair in &mut builder.pairs {
                pair.0 = dense_of[pair.0 as usize];
            }
        }
        let n = docs.len() as u32;
        let rowids: Vec<i64> = order.iter().map(|&k| docs[k as usize].0).collect();
        drop(docs);
        let text_lengths = text_lengths(&text_index::snapshot(&tx)?, &rowids);
        tx.commit()?;
        let fields = builders.into_iter().map(|b| b.finish(n, &hierarchy)).collect();
        let mut index = SpaceIndex::from_parts(space, generation, rowids, fields, text_lengths);
        index.common = common_terms::build(conn, &index, tuned.tuning.common_terms_fewest(u64::from(n)))?;
        if !index.common.lists.is_empty() {
            tuned.taken.note(EnginePath::CommonTermsListed);
        }
        Ok(index)
    }
}

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
type Scanned = (Vec<(i64, String, f64)>, Vec<FieldBuilder>);

/// One scan of the space's documents: each one's row, id and date, and every refiner of its facet list at any
/// depth (the derived all-concepts group is made here again, from the concept fields). Until the documents are put
/// in result order, a document is numbered by its place in the scan.
///
/// SQLite's reading of the rows and the parsing of their facet lists (each about half of the scan) run side by
/// side, the second on a thread of its own when `beside` and one can be started. `None` when that thread stopped
/// unexpectedly (what it annotated is then incomplete).
fn scan(tx: &Connection, space: &str, annotator: Annotator, beside: bool) -> Result<Option<Scanned>, EngineError> {
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
            u32::try_from(docs.len()).map_err(|_| EngineError::TooManyDocuments(space.to_owned()))?;
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
struct Annotator<'h> {
    builders: Vec<FieldBuilder>,
    field_by_id: FxHashMap<String, usize>,
    all_field: Option<usize>,
    hierarchy: &'h Hierarchy,
}

impl<'h> Annotator<'h> {
    fn new(fields: &[&str], hierarchy: &'h Hierarchy) -> Annotator<'h> {
        Annotator {
            builders: fields.iter().map(|f| FieldBuilder::new(f)).collect(),
            field_by_id: fields.iter().enumerate().map(|(i, f)| ((*f).to_owned(), i)).collect(),
            all_field: fields.iter().position(|f| *f == ALL_CONCEPTS_FIELD),
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
        let groups: Vec<StoredGroup> = serde_json::from_str(json).unwrap_or_default();
        for group in groups.iter().filter(|g| g.field != ALL_CONCEPTS_FIELD) {
            let Some(&fi) = self.field_by_id.get(&*group.field) else { continue };
            let all = self.all_field.filter(|_| self.builders[fi].concept);
            annotate(&mut self.builders, fi, all, doc, &group.facets, self.hierarchy);
        }
    }
}

/// A facet group as a document's stored facet list holds it, its strings borrowed from the row where they need no
/// unescaping.
#[derive(Deserialize)]
struct StoredGroup<'a> {
    #[serde(borrow)]
    field: Cow<'a, str>,
    #[serde(borrow, default)]
    facets: Vec<StoredRefiner<'a>>,
}

/// A refiner of a stored facet list, with the refiners below it.
#[derive(Deserialize)]
struct StoredRefiner<'a> {
    #[serde(borrow, default)]
    label: Cow<'a, str>,
    #[serde(borrow, default)]
    value: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    children: Option<Vec<StoredRefiner<'a>>>,
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

/// Per dense number (as in `rowids`), the tokens the full-text index counted in the document's fields; a row it
/// does not hold counts as empty.
fn text_lengths(text: &Snapshot, rowids: &[i64]) -> Vec<u32> {
    let mut by_row: Vec<(u64, u32)> =
        rowids.iter().enumerate().map(|(dense, &row)| (row as u64, dense as u32)).collect();
    by_row.sort_unstable();
    let rows: Vec<u64> = by_row.iter().map(|&(row, _)| row).collect();
    let mut lengths = vec![0u32; rowids.len()];
    for ((_, dense), sizes) in by_row.into_iter().zip(text.field_sizes_of(&rows)) {
        let tokens = sizes.unwrap_or_default().iter().map(|&s| u64::from(s)).sum::<u64>();
        lengths[dense as usize] = u32::try_from(tokens).unwrap_or(u32::MAX);
    }
    lengths
}

/// Collects the annotations of one field while the index is built.
struct FieldBuilder {
    id: String,
    concept: bool,
    values: Vec<(String, Option<String>)>,
    by_uri: FxHashMap<String, u32>,
    by_label: FxHashMap<String, u32>,
    pairs: Vec<(u32, u32)>,
}

impl FieldBuilder {
    fn new(id: &str) -> Self {
        FieldBuilder {
            id: id.to_owned(),
            concept: id.starts_with(CONCEPT_PREFIX),
            values: Vec::new(),
            by_uri: FxHashMap::default(),
            by_label: FxHashMap::default(),
            pairs: Vec::new(),
        }
    }

    /// The value keyed by `uri` (when non-empty) or else by `label`, added when new with the label `named`
    /// gives (asked only then: a concept's is looked up in the scheme).
    fn value(&mut self, label: &str, uri: Option<&str>, named: impl FnOnce() -> String) -> u32 {
        let uri = uri.filter(|u| !u.is_empty());
        let found = match uri {
            Some(u) => self.by_uri.get(u),
            None => self.by_label.get(label),
        };
        if let Some(&v) = found {
            return v;
        }
        let v = self.values.len() as u32;
        self.values.push((named(), uri.map(str::to_owned)));
        match uri {
            Some(u) => self.by_uri.insert(u.to_owned(), v),
            None => self.by_label.insert(label.to_owned(), v),
        };
        v
    }

    fn annotate(&mut self, doc: u32, label: &str, value: Option<&str>, hierarchy: &Hierarchy) {
        let concept = self.concept;
        let v = self.value(label, value, || match value {
            Some(uri) if concept => hierarchy.label(uri).unwrap_or(label).to_owned(),
            _ => label.to_owned(),
        });
        self.pairs.push((doc, v));
    }

    /// Adds every broader concept of the field's concepts as a value (transitively) and returns the
    /// (narrower, broader) links between values.
    fn close_hierarchy(&mut self, hierarchy: &Hierarchy) -> Vec<(u32, u32)> {
        let mut links = Vec::new();
        let mut next = 0;
        while next < self.values.len() {
            let child = next as u32;
            next += 1;
            let Some(uri) = self.values[child as usize].1.clone() else { continue };
            for broader in hierarchy.broader(&uri) {
                let label = hierarchy.label(broader).unwrap_or(broader);
                let parent = self.value(label, Some(broader), || label.to_owned());
                links.push((child, parent));
            }
        }
        links
    }

    fn finish(mut self, n: u32, hierarchy: &Hierarchy) -> FieldIndex {
        let links = if self.concept { self.close_hierarchy(hierarchy) } else { Vec::new() };
        let count = self.values.len();
        let mut parents: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); count];
        for (child, parent) in links {
            if child != parent && !parents[child as usize].contains(&parent) {
                parents[child as usize].push(parent);
                children[parent as usize].push(child);
            }
        }
        let ancestors: Vec<Vec<u32>> = (0..count as u32).map(|v| ancestors_of(v, &parents)).collect();
        self.pairs.sort_unstable();
        self.pairs.dedup();
        let mut per_value: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut offsets = Vec::with_capacity(n as usize + 1);
        let mut direct = Vec::with_capacity(self.pairs.len());
        let mut p = 0;
        for doc in 0..n {
            offsets.push(direct.len() as u32);
            while p < self.pairs.len() && self.pairs[p].0 == doc {
                let v = self.pairs[p].1;
                direct.push(v);
                per_value[v as usize].push(doc);
                for &a in &ancestors[v as usize] {
                    per_value[a as usize].push(doc);
                }
                p += 1;
            }
        }
        offsets.push(direct.len() as u32);
        let values = self
            .values
            .into_iter()
            .zip(per_value)
            .zip(parents.into_iter().zip(children))
            .zip(ancestors)
            .map(|((((label, uri), mut docs), (parents, children)), ancestors)| {
                docs.sort_unstable();
                docs.dedup();
                let docs = RoaringBitmap::from_sorted_iter(docs).unwrap_or_default();
                FacetValue { label_lower: label.to_lowercase(), label, uri, docs, children, parents, ancestors }
            })
            .collect();
        let by_key = self
            .by_uri
            .into_iter()
            .map(|(u, v)| (ValueKey::Uri(u), v))
            .chain(self.by_label.into_iter().map(|(l, v)| (ValueKey::Label(l), v)))
            .collect();
        FieldIndex::from_parts(self.id, values, by_key, offsets, direct)
    }
}

/// Every value above `v`, breadth first, each once (cycles in a scheme are cut).
fn ancestors_of(v: u32, parents: &[Vec<u32>]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    let mut queue: Vec<u32> = parents[v as usize].clone();
    while let Some(a) = queue.pop() {
        if a == v || out.contains(&a) {
            continue;
        }
        out.push(a);
        queue.extend(parents[a as usize].iter().copied());
    }
    out
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
        let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
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

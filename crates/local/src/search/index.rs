//! The in-memory index of one search space: dense document numbers in result order, and per facet field
//! one roaring bitmap per value. A concept's bitmap also holds the documents of all its descendants, so a
//! parent's count is the size of a union and selecting a parent matches its descendants' documents.
//!
//! Built from SQLite inside one read transaction, so the generation it records matches the data it holds.
//! It is never written to: a change in the store makes a new index.

use std::collections::HashMap;
use std::sync::Mutex;

use roaring::RoaringBitmap;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, Row};
use studio_model::{FacetKind, ALL_CONCEPTS_FIELD};

use super::hierarchy::{Hierarchy, ValueKey};
use crate::error::StoreError;
use crate::import::GLOBAL_SCOPE;

/// Prefix of facet fields whose values are concept URIs.
pub(crate) const CONCEPT_PREFIX: &str = "dyn_uri_";

/// The state of the store an index was built from: the generation of its search space and of the global concepts.
pub(crate) type Generation = (i64, i64);

/// Reads the current generation of `space` (and of the global concept scheme).
pub(crate) fn read_generation(conn: &Connection, space: &str) -> Result<Generation, StoreError> {
    Ok(conn.query_row(
        "SELECT coalesce((SELECT generation FROM generations WHERE scope = ?1), 0),
                coalesce((SELECT generation FROM generations WHERE scope = ?2), 0)",
        rusqlite::params![space, GLOBAL_SCOPE],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// What kind of values a field holds, from its id's prefix.
pub(crate) fn kind_of(field: &str) -> FacetKind {
    if field.starts_with(CONCEPT_PREFIX) {
        FacetKind::Concept
    } else if field.starts_with("dyn_flt_") {
        FacetKind::Numeric
    } else {
        FacetKind::Literal
    }
}

/// One value of a facet field.
#[derive(Debug)]
pub(crate) struct FacetValue {
    pub label: String,
    /// The label lower-cased, for alphabetical order (computed once, not per comparison).
    pub label_lower: String,
    /// The concept URI (or a literal refiner's value); `None` for literal values keyed by label.
    pub uri: Option<String>,
    /// Documents annotated with this value or any of its descendants.
    pub docs: RoaringBitmap,
    pub children: Vec<u32>,
    pub parents: Vec<u32>,
    /// Every value above this one, each once.
    pub ancestors: Vec<u32>,
}

/// One facet field of a search space.
#[derive(Debug)]
pub(crate) struct FieldIndex {
    pub id: String,
    pub values: Vec<FacetValue>,
    by_key: HashMap<ValueKey, u32>,
    /// Per document (dense number), its direct values: `direct[offsets[d]..offsets[d + 1]]`.
    pub(crate) offsets: Vec<u32>,
    pub(crate) direct: Vec<u32>,
    /// Values counted per document when walking documents: direct values and their ancestors, on average.
    pub(crate) values_per_doc: f64,
    /// Per value, itself and its ancestors: `closure[closure_offsets[v]..closure_offsets[v + 1]]`, in one
    /// array, so that walking documents does not chase each value's own list.
    closure_offsets: Vec<u32>,
    closure: Vec<u32>,
    /// True when no value has an ancestor (a document's direct values then count once each).
    pub(crate) flat: bool,
}

impl FieldIndex {
    /// A field from its parts (as a snapshot holds them).
    pub(crate) fn from_parts(
        id: String,
        values: Vec<FacetValue>,
        by_key: HashMap<ValueKey, u32>,
        offsets: Vec<u32>,
        direct: Vec<u32>,
    ) -> FieldIndex {
        let walked: usize = direct.iter().map(|&v| 1 + values.get(v as usize).map_or(0, |x| x.ancestors.len())).sum();
        let values_per_doc = walked as f64 / offsets.len().saturating_sub(1).max(1) as f64;
        let mut closure_offsets = Vec::with_capacity(values.len() + 1);
        let mut closure = Vec::new();
        for (v, value) in values.iter().enumerate() {
            closure_offsets.push(closure.len() as u32);
            closure.push(v as u32);
            closure.extend(&value.ancestors);
        }
        closure_offsets.push(closure.len() as u32);
        let flat = values.iter().all(|v| v.ancestors.is_empty());
        FieldIndex { id, values, by_key, offsets, direct, values_per_doc, closure_offsets, closure, flat }
    }

    /// A value and every value above it.
    pub(crate) fn closure(&self, value: u32) -> &[u32] {
        let v = value as usize;
        &self.closure[self.closure_offsets[v] as usize..self.closure_offsets[v + 1] as usize]
    }

    /// The values a document is annotated with directly (not their ancestors).
    pub fn direct_values(&self, doc: u32) -> &[u32] {
        let (a, b) = (self.offsets[doc as usize] as usize, self.offsets[doc as usize + 1] as usize);
        &self.direct[a..b]
    }

    /// The value with this URI, if any.
    pub fn by_uri(&self, uri: &str) -> Option<u32> {
        self.by_key.get(&ValueKey::Uri(uri.to_owned())).copied()
    }

    /// Values whose label equals `label`.
    pub fn by_label<'a>(&'a self, label: &'a str) -> impl Iterator<Item = u32> + 'a {
        self.values.iter().enumerate().filter(move |(_, v)| v.label == label).map(|(i, _)| i as u32)
    }
}

/// The index of one search space.
#[derive(Debug)]
pub struct SpaceIndex {
    pub(crate) space: String,
    pub(crate) generation: Generation,
    /// Dense number → rowid; dense numbers follow date descending, then id.
    pub(crate) rowids: Vec<i64>,
    by_rowid: RowidMap,
    pub(crate) all: RoaringBitmap,
    pub(crate) fields: Vec<FieldIndex>,
    field_by_id: HashMap<String, usize>,
    /// Documents in the whole store (every search space), as the full-text index counts them.
    pub(crate) store_documents: u64,
    /// Document frequencies of the terms looked up so far (by the `text` similarity plugin), kept as long as
    /// this index: FTS5 counts them by walking each term's whole list of matches. Like `store_documents`, they
    /// count every search space, and an import into another one (which leaves this index in place) can leave
    /// them a little behind; they only weigh terms.
    pub(crate) term_documents: Mutex<HashMap<String, i64>>,
}

impl SpaceIndex {
    /// Number of documents in the search space.
    pub fn len(&self) -> u64 {
        self.all.len()
    }

    /// True when the search space holds no documents.
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// The dense number of a row of the documents table, if it belongs to this index.
    pub(crate) fn dense(&self, rowid: i64) -> Option<u32> {
        self.by_rowid.get(rowid).map(|row| row.dense)
    }

    /// The dense number and text size of a row of the documents table, if it belongs to this index.
    pub(crate) fn row(&self, rowid: i64) -> Option<DocRow> {
        self.by_rowid.get(rowid)
    }

    /// The tokens of a document's title, description and body together, as the full-text index counts them.
    pub(crate) fn text_length(&self, dense: u32) -> u32 {
        self.rowids.get(dense as usize).and_then(|&r| self.by_rowid.get(r)).map_or(0, |row| row.tokens)
    }

    /// The dense number of the document with this id (looked up in the store, so that the index need not
    /// hold every id in memory).
    pub(crate) fn by_doc_id(&self, conn: &Connection, id: &str) -> Result<Option<u32>, StoreError> {
        let rowid: Option<i64> = conn
            .prepare_cached("SELECT num FROM documents WHERE search_space = ?1 AND id = ?2")?
            .query_row([&self.space, id], |r| r.get(0))
            .optional()?;
        Ok(rowid.and_then(|r| self.dense(r)))
    }

    /// An index from its parts (as a snapshot holds them).
    pub(crate) fn from_parts(
        space: &str,
        generation: Generation,
        rowids: Vec<i64>,
        fields: Vec<FieldIndex>,
        store_documents: u64,
        text_lengths: Vec<u32>,
    ) -> SpaceIndex {
        let n = rowids.len() as u32;
        let by_rowid = RowidMap::new(&rowids, &text_lengths);
        let field_by_id = fields.iter().enumerate().map(|(i, f)| (f.id.clone(), i)).collect();
        let all = RoaringBitmap::from_sorted_iter(0..n).unwrap_or_default();
        SpaceIndex {
            space: space.to_owned(),
            generation,
            rowids,
            by_rowid,
            all,
            fields,
            field_by_id,
            store_documents,
            term_documents: Mutex::new(HashMap::new()),
        }
    }

    /// The field with this id.
    pub(crate) fn field(&self, id: &str) -> Option<&FieldIndex> {
        self.field_by_id.get(id).map(|&i| &self.fields[i])
    }

    /// Builds the index of `space` from the store, inside one read transaction.
    pub(crate) fn build(conn: &mut Connection, space: &str) -> Result<SpaceIndex, StoreError> {
        let tx = conn.transaction()?;
        let generation = read_generation(&tx, space)?;
        let store_documents: i64 = tx.query_row("SELECT count(*) FROM documents", [], |r| r.get(0))?;
        let mut docs: Vec<(i64, String, f64)> = tx
            .prepare_cached("SELECT num, id, date FROM documents WHERE search_space = ?1")?
            .query_map([space], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        if u32::try_from(docs.len()).is_err() {
            return Err(StoreError::TooManyDocuments(space.to_owned()));
        }
        docs.sort_by(|a, b| b.2.total_cmp(&a.2).then_with(|| a.1.cmp(&b.1)));
        let n = docs.len() as u32;
        let rowids: Vec<i64> = docs.iter().map(|d| d.0).collect();
        let by_rowid = RowidMap::new(&rowids, &[]);
        drop(docs);

        let mut labels: Vec<(String, String)> = tx
            .prepare_cached("SELECT field, label FROM facet_fields WHERE search_space = ?1 ORDER BY field")?
            .query_map([space], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        if labels.iter().any(|(f, _)| f.starts_with(CONCEPT_PREFIX)) {
            labels.push((ALL_CONCEPTS_FIELD.to_owned(), "All concepts".to_owned()));
        }
        let hierarchy = Hierarchy::load(&tx, space)?;
        let all_field = labels.iter().position(|(f, _)| f == ALL_CONCEPTS_FIELD);
        let mut builders: Vec<FieldBuilder> = labels.iter().map(|(f, _)| FieldBuilder::new(f)).collect();
        let field_by_id: HashMap<String, usize> = labels.iter().enumerate().map(|(i, (f, _))| (f.clone(), i)).collect();
        {
            // One scan of the annotations in table order (no join): rows of other search spaces are
            // skipped by their document number. Strings are borrowed from SQLite, allocated only for
            // a value seen for the first time.
            let mut stmt = tx.prepare_cached("SELECT doc, field, label, value FROM document_facets")?;
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                let Some(doc) = by_rowid.get(row.get::<_, i64>(0)?).map(|r| r.dense) else { continue };
                let Some(&fi) = text(row, 1)?.and_then(|f| field_by_id.get(f)) else { continue };
                let label = text(row, 2)?.unwrap_or_default();
                let value = text(row, 3)?.filter(|v| !v.is_empty());
                builders[fi].annotate(doc, label, value, &hierarchy);
                if let (true, Some(all), Some(_)) = (builders[fi].concept, all_field, value) {
                    builders[all].annotate(doc, label, value, &hierarchy);
                }
            }
        }
        let text_lengths = text_lengths(&tx, &by_rowid, n)?;
        tx.commit()?;
        let fields = builders.into_iter().map(|b| b.finish(n, &hierarchy)).collect();
        Ok(SpaceIndex::from_parts(space, generation, rowids, fields, store_documents.max(0) as u64, text_lengths))
    }
}

/// Per dense number, the tokens FTS5 counted in the document's columns: the sum of the varints of its row in
/// the `documents_fts_docsize` shadow table (one per column, SQLite's varint encoding), which is what
/// FTS5's `xColumnSize(-1)` reads. A row that cannot be read counts as empty.
fn text_lengths(conn: &Connection, by_rowid: &RowidMap, n: u32) -> Result<Vec<u32>, StoreError> {
    let mut lengths = vec![0u32; n as usize];
    let mut stmt = conn.prepare_cached("SELECT id, sz FROM documents_fts_docsize")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let Some(dense) = by_rowid.get(row.get(0)?).map(|r| r.dense) else { continue };
        let ValueRef::Blob(mut sizes) = row.get_ref(1)? else { continue };
        let mut total = 0u64;
        while let Some((size, used)) = sqlite_varint(sizes) {
            total += size;
            sizes = &sizes[used..];
        }
        lengths[dense as usize] = u32::try_from(total).unwrap_or(u32::MAX);
    }
    Ok(lengths)
}

/// One SQLite varint (big-endian groups of 7 bits, the ninth byte whole) and the bytes it took.
fn sqlite_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().take(9).enumerate() {
        if i == 8 {
            return Some(((value << 8) | u64::from(b), 9));
        }
        value = (value << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// What the index knows of one row of the documents table: its dense number, and the size of its text as
/// the full-text index counts it (kept here, in row order, because full-text matches arrive in row order).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DocRow {
    pub dense: u32,
    pub tokens: u32,
}

/// Row number → [`DocRow`]: a plain array over row numbers (they are dense in practice: documents are numbered
/// upwards by SQLite), or a hash map when they are too sparse for that.
#[derive(Debug)]
enum RowidMap {
    Array(Vec<DocRow>),
    Hash(HashMap<i64, DocRow>),
}

impl RowidMap {
    /// The map of `rowids` (dense number → row number), with `tokens` per dense number (0 where it is short).
    fn new(rowids: &[i64], tokens: &[u32]) -> RowidMap {
        let max = rowids.iter().copied().max().unwrap_or(0);
        let min = rowids.iter().copied().min().unwrap_or(0);
        let row = |i: usize| DocRow { dense: i as u32, tokens: tokens.get(i).copied().unwrap_or(0) };
        if min >= 0 && (max as u64) < 4 * rowids.len() as u64 + 1_000_000 {
            let mut array = vec![DocRow { dense: u32::MAX, tokens: 0 }; max as usize + 1];
            for (i, &r) in rowids.iter().enumerate() {
                array[r as usize] = row(i);
            }
            RowidMap::Array(array)
        } else {
            RowidMap::Hash(rowids.iter().enumerate().map(|(i, &r)| (r, row(i))).collect())
        }
    }

    fn get(&self, rowid: i64) -> Option<DocRow> {
        match self {
            RowidMap::Array(a) => usize::try_from(rowid).ok().and_then(|r| a.get(r)).copied().filter(|r| r.dense != u32::MAX),
            RowidMap::Hash(h) => h.get(&rowid).copied(),
        }
    }
}

/// Collects the annotations of one field while the index is built.
struct FieldBuilder {
    id: String,
    concept: bool,
    values: Vec<(String, Option<String>)>,
    by_uri: HashMap<String, u32>,
    by_label: HashMap<String, u32>,
    pairs: Vec<(u32, u32)>,
}

impl FieldBuilder {
    fn new(id: &str) -> Self {
        FieldBuilder {
            id: id.to_owned(),
            concept: id.starts_with(CONCEPT_PREFIX),
            values: Vec::new(),
            by_uri: HashMap::new(),
            by_label: HashMap::new(),
            pairs: Vec::new(),
        }
    }

    /// The value keyed by `uri` (when non-empty) or else by `label`, added when new.
    fn value(&mut self, label: &str, uri: Option<&str>) -> u32 {
        let uri = uri.filter(|u| !u.is_empty());
        let found = match uri {
            Some(u) => self.by_uri.get(u),
            None => self.by_label.get(label),
        };
        if let Some(&v) = found {
            return v;
        }
        let v = self.values.len() as u32;
        self.values.push((label.to_owned(), uri.map(str::to_owned)));
        match uri {
            Some(u) => self.by_uri.insert(u.to_owned(), v),
            None => self.by_label.insert(label.to_owned(), v),
        };
        v
    }

    fn annotate(&mut self, doc: u32, label: &str, value: Option<&str>, hierarchy: &Hierarchy) {
        let label = match (value, self.concept) {
            (Some(uri), true) => hierarchy.label(uri).unwrap_or(label),
            _ => label,
        };
        let v = self.value(label, value);
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
                let parent = self.value(label, Some(broader));
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

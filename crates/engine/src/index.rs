//! The in-memory index of one search space: dense document numbers in result order, and per facet field
//! one roaring bitmap per value. A concept's bitmap also holds the documents of all its descendants, so a
//! parent's count is the size of a union and selecting a parent matches its descendants' documents.
//!
//! Built from SQLite ([`super::build`]) inside one read transaction, so the generation it records matches the
//! data it holds. It is never written to: a change in the store makes a new index.

use std::collections::HashMap;
use std::sync::OnceLock;

use roaring::RoaringBitmap;
use rusqlite::{Connection, OptionalExtension};
use studio_model::FacetKind;

use super::common_terms::CommonTerms;
use super::hierarchy::ValueKey;
use super::kept::KeptMatches;
use super::packed::Packed;
use super::text_similar::TermRows;
use crate::error::EngineError;
use crate::hierarchy::GLOBAL_SCOPE;

/// Prefix of facet fields whose values are concept URIs.
pub(crate) const CONCEPT_PREFIX: &str = "dyn_uri_";

/// The state of the store an index was built from: the generation of its search space and of the global concepts.
pub(crate) type Generation = (i64, i64);

/// Reads the current generation of `space` (and of the global concept scheme).
pub(crate) fn read_generation(conn: &Connection, space: &str) -> Result<Generation, EngineError> {
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
    /// Every value, those with the most documents first (the order in which a group showing the values
    /// with the most documents counts them); empty for a field without a hierarchy, which is never cut.
    pub(crate) by_size: Vec<u32>,
    /// Every value in alphabetical order as groups sort labels: lower-cased label, label, URI; empty for a
    /// field without a hierarchy.
    pub(crate) by_name: Vec<u32>,
    /// Per value, the documents it has (those of its bitmap): in one array, as a count over every document
    /// reads them, instead of ten thousand bitmaps' headers scattered in memory.
    pub(crate) sizes: Vec<u64>,
    /// Per value, the place of its label in alphabetical order (lower-cased label, then label), equal labels
    /// sharing one: groups sort by it without reading the labels.
    pub(crate) label_rank: Vec<u32>,
    /// One bit per document: set when two of its direct values have a value above them (or one of them) in
    /// common, so that counting it must mark what it counted (see `counting::Tally`).
    sharing: Vec<u64>,
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
        let documents = offsets.len().saturating_sub(1);
        let mut sharing = vec![0u64; documents.div_ceil(64)];
        if !flat {
            // The last document each value was reached from.
            let mut reached = vec![u32::MAX; values.len()];
            for (d, bounds) in offsets.windows(2).enumerate() {
                let mine = direct.get(bounds[0] as usize..bounds[1] as usize).unwrap_or(&[]);
                if mine.len() < 2 {
                    continue;
                }
                let from = |v: u32| closure_offsets.get(v as usize..v as usize + 2);
                let mut shared = false;
                for bounds in mine.iter().filter_map(|&v| from(v)) {
                    for &w in &closure[bounds[0] as usize..bounds[1] as usize] {
                        shared |= reached[w as usize] == d as u32;
                        reached[w as usize] = d as u32;
                    }
                }
                if shared {
                    sharing[d / 64] |= 1 << (d % 64);
                }
            }
        }
        let sizes: Vec<u64> = values.iter().map(|v| v.docs.len()).collect();
        let mut alphabetical: Vec<u32> = (0..values.len() as u32).collect();
        alphabetical.sort_by(|&a, &b| {
            let (a, b) = (&values[a as usize], &values[b as usize]);
            (&a.label_lower, &a.label, &a.uri).cmp(&(&b.label_lower, &b.label, &b.uri))
        });
        let mut label_rank = vec![0u32; values.len()];
        let mut rank = 0;
        for (i, pair) in alphabetical.iter().enumerate() {
            let value = &values[*pair as usize];
            if i > 0 {
                let before = &values[alphabetical[i - 1] as usize];
                rank += u32::from((&before.label_lower, &before.label) != (&value.label_lower, &value.label));
            }
            label_rank[*pair as usize] = rank;
        }
        // Only a field with a hierarchy is cut (counting::cut_of): the orders are not made for the others.
        let (by_size, by_name): (Vec<u32>, Vec<u32>) = if flat {
            (Vec::new(), Vec::new())
        } else {
            let mut by_size: Vec<u32> = (0..values.len() as u32).collect();
            by_size.sort_by_key(|&v| std::cmp::Reverse(sizes[v as usize]));
            (by_size, alphabetical)
        };
        FieldIndex {
            id,
            values,
            by_key,
            offsets,
            direct,
            values_per_doc,
            closure_offsets,
            closure,
            flat,
            by_size,
            by_name,
            sizes,
            label_rank,
            sharing,
        }
    }

    /// Whether two direct values of `doc` have a value above them (or one of them) in common.
    pub(crate) fn shares_ancestors(&self, doc: u32) -> bool {
        self.sharing.get(doc as usize / 64).is_some_and(|bits| bits >> (doc % 64) & 1 == 1)
    }

    /// The documents of the search space (every one has an entry here, with or without values).
    pub(crate) fn documents(&self) -> u64 {
        self.offsets.len().saturating_sub(1) as u64
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
    /// Per dense number, the tokens of the document's text (also in `by_rowid`, for rows in row order; here for
    /// documents in result order, which scoring from the common terms' lists reads in that order).
    text_lengths: Vec<u32>,
    pub(crate) all: RoaringBitmap,
    pub(crate) fields: Vec<FieldIndex>,
    field_by_id: HashMap<String, usize>,
    /// The store's row counts of the terms the `text` similarity plugin looked up.
    pub(crate) term_rows: TermRows,
    /// The full-text matches of the last searches, for searches of the same words.
    pub(crate) kept: KeptMatches,
    /// The full-text lists of the space's most common terms.
    pub(crate) common: CommonTerms,
    /// Every field's values per document together, made when a search first walks several fields at once.
    packed: OnceLock<Option<Packed>>,
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
    #[inline]
    pub(crate) fn dense(&self, rowid: i64) -> Option<u32> {
        self.by_rowid.get(rowid).map(|row| row.dense)
    }

    /// The dense number and text size of a row of the documents table, if it belongs to this index.
    #[inline]
    pub(crate) fn row(&self, rowid: i64) -> Option<DocRow> {
        self.by_rowid.get(rowid)
    }

    /// The tokens of a document's title, description and body together, as the full-text index counts them.
    #[inline]
    pub(crate) fn text_length(&self, dense: u32) -> u32 {
        self.text_lengths.get(dense as usize).copied().unwrap_or(0)
    }

    /// The dense number of the document with this id (looked up in the store, so that the index need not
    /// hold every id in memory).
    pub(crate) fn by_doc_id(&self, conn: &Connection, id: &str) -> Result<Option<u32>, EngineError> {
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
            text_lengths,
            all,
            fields,
            field_by_id,
            term_rows: TermRows::default(),
            kept: KeptMatches::default(),
            common: CommonTerms::default(),
            packed: OnceLock::new(),
        }
    }

    /// Every field's values per document together (made at the first call).
    pub(crate) fn packed(&self) -> Option<&Packed> {
        self.packed.get_or_init(|| Packed::of(&self.fields, self.rowids.len())).as_ref()
    }

    /// The field with this id.
    pub(crate) fn field(&self, id: &str) -> Option<&FieldIndex> {
        self.field_by_id.get(id).map(|&i| &self.fields[i])
    }
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
pub(crate) enum RowidMap {
    Array(Vec<DocRow>),
    Hash(HashMap<i64, DocRow>),
}

impl RowidMap {
    /// The map of `rowids` (dense number → row number), with `tokens` per dense number (0 where it is short).
    pub(crate) fn new(rowids: &[i64], tokens: &[u32]) -> RowidMap {
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

    #[inline]
    pub(crate) fn get(&self, rowid: i64) -> Option<DocRow> {
        match self {
            RowidMap::Array(a) => {
                usize::try_from(rowid).ok().and_then(|r| a.get(r)).copied().filter(|r| r.dense != u32::MAX)
            }
            RowidMap::Hash(h) => h.get(&rowid).copied(),
        }
    }
}

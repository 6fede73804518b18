//! The in-memory index of one search space: dense document numbers in result order, and per facet field
//! one roaring bitmap per value. A concept's bitmap also holds the documents of all its descendants, so a
//! parent's count is the size of a union and selecting a parent matches its descendants' documents.
//!
//! Built from SQLite ([`super::build`]) inside one read transaction, so the generation it records matches the
//! data it holds. It is never written to: a change in the store makes a new index. Its parts lie below it: the
//! fields ([`super::field_index`]), the rows ([`super::doc_rows`]), the generations it was built from
//! ([`super::generation`]), and what searches keep with it (values packed per document, kept matches, the
//! common terms' lists, the `text` plugin's row counts), each in a module of its own.

use std::collections::HashMap;
use std::sync::OnceLock;

use roaring::RoaringBitmap;
use rusqlite::{Connection, OptionalExtension};

use super::doc_rows::{DocRow, RowidMap};
use super::field_index::FieldIndex;
use super::generation::Generation;
use super::kept::KeptMatches;
use super::packed::Packed;
use super::term_lists::CommonTerms;
use crate::error::EngineError;

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

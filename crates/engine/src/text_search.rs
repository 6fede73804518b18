//! A search space's full-text matches from the store's full-text index ([`super::text_index`]): every document the
//! text matches (the facet counts are counted over them), and the scores of those a search can show, with bm25
//! as FTS5 gives it ([`super::score`]): weights 5, 2 and 1 over title, description and body, the index's live
//! rows and tokens for the average size, each phrase's live rows for its inverse document frequency (for one
//! phrase, the same order without it: a common factor). The same reads collect what the index keeps of the most
//! common terms ([`term_list`], see [`super::common_terms`]) and one phrase's documents for the `text` similarity
//! plugin ([`postings`]).

use std::collections::HashMap;

use roaring::RoaringBitmap;
use studio_text::{Phrase, Snapshot, Statistics};

use super::doc_rows::DocRow;
use super::index::SpaceIndex;
use super::matches::Matches;
use super::query::{Clause, TextQuery};
use super::score::{bm25, idf, WEIGHTS};
use crate::error::EngineError;

/// The phrase a clause of a query stands for.
pub(crate) fn phrase(clause: &Clause) -> Phrase {
    Phrase::new(&clause.text, clause.prefix)
}

/// The weighted frequency of a phrase found `f` times in each field: per occurrence, its field's weight.
#[inline]
pub(crate) fn weighted(f: [u32; 3]) -> u32 {
    f.iter().zip(WEIGHTS).fold(0u32, |sum, (&n, w)| sum.saturating_add(n.saturating_mul(w as u32)))
}

/// The index's live rows (at least one) and their average size in tokens, as bm25 reads them.
pub(crate) fn average(statistics: Statistics) -> (f64, f64) {
    let rows = statistics.rows.max(1) as f64;
    (rows, statistics.tokens.iter().sum::<u64>() as f64 / rows)
}

/// The documents of `index` matching `query`, with the scores of those in `wanted` (of all of them without
/// `wanted`), read from `snapshot`.
pub(crate) fn matches(
    snapshot: &Snapshot,
    index: &SpaceIndex,
    query: &TextQuery,
    wanted: Option<&RoaringBitmap>,
) -> Result<Matches, EngineError> {
    let phrases: Vec<Phrase> = query.clauses.iter().map(phrase).collect();
    let found = snapshot.query(&phrases)?;
    let (rows, avgdl) = average(snapshot.statistics());
    let idf: Vec<f64> = if phrases.len() == 1 {
        vec![1.0]
    } else {
        found.phrase_rows.iter().map(|&hits| idf(rows, hits as f64)).collect()
    };
    let mut all = RoaringBitmap::new();
    let mut scored = Vec::new();
    let mut freq = vec![0.0f64; phrases.len()];
    for (r, &row) in found.rows.iter().enumerate() {
        let Some(DocRow { dense, tokens }) = index.row(row as i64) else { continue };
        all.insert(dense);
        if wanted.is_none_or(|w| w.contains(dense)) {
            for (p, f) in freq.iter_mut().enumerate() {
                *f = f64::from(weighted(found.frequency(r, p)));
            }
            scored.push((dense, bm25(&freq, &idf, f64::from(tokens), avgdl)));
        }
    }
    Ok(Matches { all, scored })
}

/// What [`term_list`] collects of one term (or phrase).
pub(crate) struct TermCollect {
    /// The documents of the search space having the term.
    pub docs: RoaringBitmap,
    /// Per dense number, the term's weighted frequency in the document up to [`u8::MAX`], which says it is in
    /// `large`; entries of documents without the term are left as they were. One byte each, reused from one
    /// term to the next.
    pub frequencies: Vec<u8>,
    /// Weighted frequencies from [`u8::MAX`] on, by dense number.
    pub large: HashMap<u32, u32>,
    /// Rows of the whole store having the term.
    pub rows: u64,
    /// A bit per dense number (least significant first), set while the term's rows are walked and made into
    /// `docs` at once: the rows come in the store's order, not the index's, and a bitmap grown one document at a
    /// time in that order moved its arrays at every insert (two fifths of the common terms' build at 1M).
    bits: Vec<u8>,
}

impl TermCollect {
    /// A collection for `index`, reusing the frequencies' memory of an earlier one.
    pub(crate) fn new(index: &SpaceIndex, mut frequencies: Vec<u8>) -> TermCollect {
        frequencies.resize(index.rowids.len(), 0);
        TermCollect { docs: RoaringBitmap::new(), frequencies, large: HashMap::new(), rows: 0, bits: Vec::new() }
    }

    /// Hands back the frequencies' memory for the next collection.
    pub(crate) fn into_frequencies(self) -> Vec<u8> {
        self.frequencies
    }
}

/// Collects the documents of `index` having `phrase` into `into`, from `snapshot`.
pub(crate) fn term_list(
    snapshot: &Snapshot,
    index: &SpaceIndex,
    phrase: &Phrase,
    into: &mut TermCollect,
) -> Result<(), EngineError> {
    let found = snapshot.phrase(phrase)?;
    into.rows = found.rows.len() as u64;
    into.bits.clear();
    into.bits.resize(index.rowids.len().div_ceil(8), 0);
    for (&row, &f) in found.rows.iter().zip(&found.frequencies) {
        let Some(DocRow { dense, .. }) = index.row(row as i64) else { continue };
        let f = weighted(f);
        if let Some(byte) = into.bits.get_mut(dense as usize / 8) {
            *byte |= 1 << (dense % 8);
        }
        if let Some(slot) = into.frequencies.get_mut(dense as usize) {
            *slot = f.min(u32::from(u8::MAX)) as u8;
        }
        if f >= u32::from(u8::MAX) {
            into.large.insert(dense, f);
        }
    }
    into.docs = bitmap_of(&into.bits);
    Ok(())
}

/// The bitmap of the documents whose bits are set in `bits` (document `d` at bit `d % 8` of byte `d / 8`).
///
/// roaring's `from_lsb0_bytes` keeps a block of exactly 4,096 documents as a bitmap, where every other way of making
/// one holds it as a list; written out (the snapshot's term lists, the walk's reading of its blocks), such a block
/// reads back as a list of made-up documents, since a reader tells the two forms apart by the count. Each such block is
/// settled into a list here: one of its documents taken out and put back.
pub(crate) fn bitmap_of(bits: &[u8]) -> RoaringBitmap {
    let mut docs = RoaringBitmap::from_lsb0_bytes(0, bits);
    let blocks = docs.max().map_or(0, |last| (last >> 16) + 1);
    for block in 0..blocks {
        let numbers = (block << 16)..=(block << 16 | 0xFFFF);
        if docs.range_cardinality(numbers.clone()) == 4096 {
            if let Some(first) = docs.range(numbers).next() {
                docs.remove(first);
                docs.insert(first);
            }
        }
    }
    docs
}

/// A document matching a phrase, with what bm25 reads of it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Posting {
    pub dense: u32,
    /// The document's size in tokens.
    pub tokens: u32,
    /// The phrase's weighted frequency in the document (title 5, description 2, body 1 per occurrence).
    pub frequency: u32,
}

/// Appends to `into` the documents of `index` having `phrase`, in the order of their rows, each with the
/// phrase's weighted frequency; with `wanted`, only those of its documents.
pub(crate) fn postings(
    snapshot: &Snapshot,
    index: &SpaceIndex,
    phrase: &Phrase,
    wanted: Option<&RoaringBitmap>,
    into: &mut Vec<Posting>,
) -> Result<(), EngineError> {
    let found = snapshot.phrase(phrase)?;
    for (&row, &f) in found.rows.iter().zip(&found.frequencies) {
        let Some(DocRow { dense, tokens }) = index.row(row as i64) else { continue };
        if wanted.is_none_or(|w| w.contains(dense)) {
            into.push(Posting { dense, tokens, frequency: weighted(f) });
        }
    }
    Ok(())
}

/// The live rows of the whole store having `term` (a term as the index folds it): from the dictionaries while
/// no row is deleted, else by reading its list.
pub(crate) fn term_rows(snapshot: &Snapshot, term: &str) -> Result<u64, EngineError> {
    if snapshot.deleted() == 0 {
        return Ok(snapshot.doc_count(term.as_bytes())?);
    }
    Ok(snapshot.phrase_rows(&Phrase::term(term.as_bytes()))?)
}

#[cfg(test)]
mod tests;

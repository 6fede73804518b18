//! The lists of a search space's most common terms, as the index keeps them: per term its documents and
//! weighted frequencies, and the store's rows having it (made and matched from by [`super::common_terms`]).

use std::collections::HashMap;

use roaring::RoaringBitmap;

use super::query::Clause;

/// One term's documents and weighted frequencies.
#[derive(Debug)]
pub(crate) struct TermList {
    /// Dense numbers of the documents having the term.
    pub docs: RoaringBitmap,
    /// Per document of `docs`, in its order, the weighted frequency; [`u8::MAX`] says it is in `large`.
    pub small: Vec<u8>,
    /// Weighted frequencies from [`u8::MAX`] on, by position in `docs`.
    pub large: HashMap<u32, u32>,
    /// Rows of the whole store (every search space) having the term when the list was made.
    pub store_rows: u64,
}

impl TermList {
    /// The weighted frequency of the document at `position` in `docs`.
    #[inline]
    pub(crate) fn frequency(&self, position: usize) -> f64 {
        match self.small.get(position) {
            Some(&u8::MAX) => self.large.get(&(position as u32)).copied().map_or(0.0, f64::from),
            Some(&f) => f64::from(f),
            None => 0.0,
        }
    }
}

/// The lists of a search space's common terms.
#[derive(Debug, Default)]
pub(crate) struct CommonTerms {
    pub lists: HashMap<String, TermList>,
    /// The sum of every search space's generation when the lists were made: their `store_rows` hold while the
    /// store's is the same.
    pub generations: i64,
}

impl CommonTerms {
    /// The rows of the whole store having `term` (a folded word), where it has a list whose row count still
    /// holds in a store whose generations add up to `generations`.
    pub(crate) fn store_rows(&self, term: &str, generations: i64) -> Option<u64> {
        if generations != self.generations || !is_kept_word(term) {
            return None;
        }
        self.lists.get(term).map(|l| l.store_rows)
    }

    /// The list of a query's clause, if it is a term with one.
    pub(crate) fn list(&self, clause: &Clause) -> Option<&TermList> {
        (!clause.prefix && is_kept_word(&clause.text)).then(|| self.lists.get(&clause.text.to_ascii_lowercase()))?
    }
}

/// Whether a query's word is kept as a term: ASCII letters and digits only, whose FTS5 term is its lower case.
#[inline]
pub(crate) fn is_kept_word(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric())
}

//! The store-wide row counts of the terms the `text` similarity plugin looked up ([`super::text_similar`]), as
//! the index of a search space remembers them.

use std::collections::HashMap;
use std::sync::Mutex;

/// What is known of the rows of the store having a term.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rows {
    Exact(u64),
    AtLeast(u64),
}

/// The store-wide row counts of the terms the `text` plugin looked up, kept with the index (the words of
/// one document are mostly those of the next) while the store's generations stay what they were when they
/// were counted: an import into any search space changes them, and bm25 is then told the new ones.
#[derive(Debug, Default)]
pub(crate) struct TermRows {
    /// The generations the counts were counted at, and the counts.
    pub(crate) known: Mutex<(i64, HashMap<String, Rows>)>,
}

impl TermRows {
    /// The rows of `term` remembered in a store whose generations add up to `generations`, if any.
    pub(crate) fn get(&self, term: &str, generations: i64) -> Option<Rows> {
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        (known.0 == generations).then(|| known.1.get(term).copied())?
    }

    /// Remembers `rows` of `term`, forgetting every other count first when they are of other generations or
    /// already `most`; returns whether it forgot counts of these generations.
    pub(crate) fn insert(&self, term: &str, generations: i64, rows: Rows, most: usize) -> bool {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        let full = known.0 == generations && known.1.len() >= most;
        if known.0 != generations || full {
            *known = (generations, HashMap::new());
        }
        known.1.insert(term.to_owned(), rows);
        full
    }
}

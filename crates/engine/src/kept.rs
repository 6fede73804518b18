//! Full-text matches kept for the searches that come back to the same words.
//!
//! A designer types words into the preview once, then clicks refiners, pages and edits settings: every one of
//! those searches the same words again. Walking the full-text index for a common word is most of such a search at a
//! million documents (every match is an entry of its postings, read and scored), so the matches of the
//! last few expressions are kept with their scores, in the index of the search space they belong to (a change
//! of the space's documents makes a new index, and so drops them).
//!
//! What else a score depends on is store-wide: bm25's average row size and, for several phrases, the number of
//! rows having each one count the documents of every search space, which an import into another space changes
//! without touching this index. So each kept entry records the store's [`Stamp`] (the generations of every
//! search space, which each import bumps, and the full-text index's statistics) and is used only while the
//! store's is the same: a kept answer is always the answer the full-text index would give now.
//!
//! An entry scored only the documents its search's selections allowed; it serves a later search whose
//! selections allow a subset of those (clicking one more refiner), and is replaced otherwise.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use roaring::RoaringBitmap;

use super::matches::Matches;
use super::stamp::Stamp;

/// Most entries kept per search space.
const MOST_ENTRIES: usize = 8;
/// Most memory the entries of one search space take: about five expressions matching two thirds of a
/// million documents (16 bytes per scored match, and the bitmaps).
const MOST_BYTES: usize = 64 << 20;

/// The kept matches of one search space, most recently used last.
#[derive(Debug, Default)]
pub(crate) struct KeptMatches {
    entries: Mutex<VecDeque<Kept>>,
}

#[derive(Debug)]
struct Kept {
    expression: String,
    /// The store's state when the matches were scored.
    stamp: Stamp,
    /// The documents that were scored; `None`: every match.
    scope: Option<RoaringBitmap>,
    matches: Arc<Matches>,
    bytes: usize,
}

impl KeptMatches {
    /// The kept matches of `expression` scored in a store whose state is `stamp`, of every document `allowed`
    /// allows, if any (then the most recently used).
    pub(crate) fn find(
        &self,
        expression: &str,
        stamp: &Stamp,
        allowed: Option<&RoaringBitmap>,
    ) -> Option<Arc<Matches>> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let at = entries.iter().position(|k| {
            k.expression == expression
                && k.stamp == *stamp
                && match (&k.scope, allowed) {
                    (None, _) => true,
                    (Some(scope), Some(allowed)) => allowed.is_subset(scope),
                    (Some(_), None) => false,
                }
        })?;
        let entry = entries.remove(at)?;
        let matches = entry.matches.clone();
        entries.push_back(entry);
        Some(matches)
    }

    /// Keeps the matches of `expression` scored in a store whose state is `stamp`, of the documents `allowed`
    /// allows (every match without it), forgetting the oldest entries past the most entries or memory kept.
    pub(crate) fn keep(&self, expression: &str, stamp: Stamp, allowed: Option<&RoaringBitmap>, matches: Arc<Matches>) {
        let entry = Kept {
            expression: expression.to_owned(),
            stamp,
            bytes: size_of_matches(&matches) + allowed.map_or(0, RoaringBitmap::serialized_size),
            scope: allowed.cloned(),
            matches,
        };
        if entry.bytes > MOST_BYTES {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|k| k.expression != entry.expression);
        entries.push_back(entry);
        let mut bytes: usize = entries.iter().map(|k| k.bytes).sum();
        while entries.len() > MOST_ENTRIES || bytes > MOST_BYTES {
            let Some(oldest) = entries.pop_front() else { break };
            bytes -= oldest.bytes;
        }
    }

    /// Forgets every kept entry (the benchmark times searches of words not searched before).
    pub(crate) fn clear(&self) {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

fn size_of_matches(matches: &Matches) -> usize {
    matches.scored.capacity() * std::mem::size_of::<(u32, f64)>() + matches.all.serialized_size()
}

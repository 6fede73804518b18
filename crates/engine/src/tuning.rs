//! The engine's thresholds in one value, and the count of each path only a large store takes.
//!
//! Several of the engine's ways of answering start at a size: lists of common terms, a second counting thread,
//! values packed ahead. Their defaults (each measured, docs/performance-journal.md)
//! keep a small store on the plain path, so a test over a few dozen documents never reaches them. A
//! [`Tuning`] with lower thresholds makes a small store take them, and [`PathsTaken`] says which were taken:
//! the brute-force oracle runs with both (docs/architecture.md, Tests). A threshold changes how an answer is
//! found, never the answer, except those of the `text` plugin marked so, which the plugin's rule names.
//!
//! Counting a path costs one relaxed atomic addition per search (or per build) that takes it; never one per
//! document.

use std::sync::atomic::{AtomicU64, Ordering};

/// The engine's thresholds. [`Tuning::default`] is what production uses; `SearchEngine::new()` takes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// Documents a term must be in, at least, for the index to keep its full-text list (common terms).
    pub common_terms_documents: u64,
    /// Share of the search space's documents a term must be in, at least, for its list to be kept.
    pub common_terms_share: f64,
    /// Threads facet counting may use: 2 uses a second one when the machine has two cores or more and the
    /// work is large enough; 1 never starts one (a single-threaded benchmark). More than 2 counts as 2.
    pub counting_threads: usize,
    /// Steps of counting (the engine's estimate, `counting::costs`) above which a second thread takes part; by
    /// default about a millisecond of work, well above the cost of starting a thread.
    pub shared_work: f64,
    /// Documents in a search space from which its packed values are made ahead, on a thread of their own,
    /// rather than in the first search needing them.
    pub pack_ahead: usize,
    /// Terms of the source document the `text` plugin puts into its query (changes the answer: docs/api.md).
    pub text_terms: usize,
    /// Distinct terms of the source document, most frequent first, whose rows the `text` plugin looks up
    /// (changes the answer).
    pub text_terms_considered: usize,
    /// Documents a term of the `text` plugin may be in whatever the store's size (up to a quarter of the
    /// store); past it, at most a twentieth of the store (changes the answer: docs/api.md).
    pub text_term_documents: u64,
}

impl Tuning {
    /// The thresholds production uses.
    pub const DEFAULT: Tuning = Tuning {
        common_terms_documents: 20_000,
        common_terms_share: 0.05,
        counting_threads: 2,
        shared_work: 250_000.0,
        pack_ahead: 100_000,
        text_terms: 12,
        text_terms_considered: 64,
        text_term_documents: 1_000,
    };

    /// The fewest documents a term must be in for its list to be kept, in a search space of `documents`.
    pub(crate) fn common_terms_fewest(&self, documents: u64) -> u64 {
        self.common_terms_documents.max((documents as f64 * self.common_terms_share).ceil() as u64)
    }
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning::DEFAULT
    }
}

/// A path of the engine that only a large store takes with the default [`Tuning`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnginePath {
    /// A search space's common terms got lists when its index was built.
    CommonTermsListed,
    /// A search whose every clause has a list was answered from the lists.
    CommonTermsOnly,
    /// A search of clauses with lists and one without was answered from the lists and that clause walked alone.
    CommonTermsAndOneWalked,
    /// Facet counting shared its work with a second thread.
    CountingSecondThread,
    /// One group's walk over the scope was split in two halves.
    CountingWalkHalved,
    /// The walk of several groups together over the packed values was split in two halves.
    CountingTogetherHalved,
    /// Several groups were counted in one walk over the packed values.
    CountingTogether,
    /// A search space's packed values were made ahead of its first search.
    PackedAhead,
    /// A search took the full-text matches kept from an earlier one.
    KeptMatchesReused,
    /// The `text` plugin read a term's rows from the common terms' lists.
    TextRowsFromLists,
    /// The `text` plugin considered only the source's most frequent terms.
    TextTermsCut,
    /// The `text` plugin left documents unscored that could not reach the page.
    TextDocumentsPassedOver,
}

impl EnginePath {
    /// Every path, in the order of [`PathsTaken::counts`].
    pub const ALL: [EnginePath; 12] = [
        EnginePath::CommonTermsListed,
        EnginePath::CommonTermsOnly,
        EnginePath::CommonTermsAndOneWalked,
        EnginePath::CountingSecondThread,
        EnginePath::CountingWalkHalved,
        EnginePath::CountingTogetherHalved,
        EnginePath::CountingTogether,
        EnginePath::PackedAhead,
        EnginePath::KeptMatchesReused,
        EnginePath::TextRowsFromLists,
        EnginePath::TextTermsCut,
        EnginePath::TextDocumentsPassedOver,
    ];
}

/// How many times each [`EnginePath`] was taken by an engine, since it was made.
#[derive(Debug)]
pub struct PathsTaken([AtomicU64; EnginePath::ALL.len()]);

impl Default for PathsTaken {
    fn default() -> Self {
        PathsTaken::new()
    }
}

impl PathsTaken {
    /// No path taken yet.
    pub const fn new() -> Self {
        PathsTaken([const { AtomicU64::new(0) }; EnginePath::ALL.len()])
    }

    /// Notes that `path` was taken once more.
    pub(crate) fn note(&self, path: EnginePath) {
        self.0[path as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// The times `path` was taken.
    pub fn count(&self, path: EnginePath) -> u64 {
        self.0[path as usize].load(Ordering::Relaxed)
    }

    /// The paths never taken.
    pub fn never_taken(&self) -> Vec<EnginePath> {
        EnginePath::ALL.into_iter().filter(|&p| self.count(p) == 0).collect()
    }
}

/// What the engine's work reads of the engine besides the index: its thresholds, and where it notes the paths
/// it takes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tuned<'a> {
    pub tuning: &'a Tuning,
    pub taken: &'a PathsTaken,
}

impl Tuned<'static> {
    /// The default thresholds, with paths noted nowhere anyone reads (the engine's own unit tests).
    #[cfg(test)]
    pub(crate) fn defaults() -> Tuned<'static> {
        static TAKEN: PathsTaken = PathsTaken::new();
        Tuned { tuning: &Tuning::DEFAULT, taken: &TAKEN }
    }
}

#[cfg(test)]
mod tests {
    use super::{EnginePath, PathsTaken};

    /// Each path has its own counter, in the order `EnginePath::ALL` lists them.
    #[test]
    fn every_path_counts_apart() {
        for (i, path) in EnginePath::ALL.into_iter().enumerate() {
            assert_eq!(path as usize, i, "{path:?}");
            let taken = PathsTaken::new();
            taken.note(path);
            assert_eq!(taken.never_taken().len(), EnginePath::ALL.len() - 1);
            assert!(!taken.never_taken().contains(&path));
        }
    }
}

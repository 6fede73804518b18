//! What a full-text query found in one search space: collected by [`super::fts`] or from the common terms'
//! lists, and kept for the searches of the same words ([`super::kept`]).

use roaring::RoaringBitmap;

/// What a full-text query found in one search space.
#[derive(Debug)]
pub(crate) struct Matches {
    /// Every matching document (dense numbers).
    pub all: RoaringBitmap,
    /// The matching documents that were wanted, each with its score (lower is better, as FTS5's bm25), in no
    /// particular order.
    pub scored: Vec<(u32, f64)>,
}

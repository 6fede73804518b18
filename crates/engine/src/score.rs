//! Scores as FTS5's `bm25(documents_fts, 5.0, 2.0, 1.0)` gives them (lower is better), and the order of scored
//! documents: the formula the engine's own scoring follows (the full-text search of [`super::text_search`], the
//! common terms' lists, the `text` similarity plugin), and the cut of one page out of them.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Column weights over (title, description, body).
pub(crate) const WEIGHTS: [f64; 3] = [5.0, 2.0, 1.0];
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The documents ranked `start..start + count` among `scored`: lower scores first, equal scores by dense
/// number (result order). Keeps only the best `start + count` while reading, so a page of a million matches
/// costs one comparison for most of them.
pub(crate) fn page(scored: impl Iterator<Item = (u32, f64)>, start: usize, count: usize) -> Vec<u32> {
    let keep = start.saturating_add(count);
    if keep == 0 {
        return Vec::new();
    }
    let mut best: BinaryHeap<Ranked> = BinaryHeap::new();
    for (doc, score) in scored {
        let ranked = Ranked { score, doc };
        if best.len() < keep {
            best.push(ranked);
        } else if best.peek().is_some_and(|worst| ranked < *worst) {
            best.pop();
            best.push(ranked);
        }
    }
    best.into_sorted_vec().into_iter().skip(start).map(|r| r.doc).collect()
}

/// A scored document, ordered as results are: by score, then by dense number.
#[derive(Debug, Clone, Copy)]
struct Ranked {
    score: f64,
    doc: u32,
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score.total_cmp(&other.score).then(self.doc.cmp(&other.doc))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

/// FTS5's bm25 of a row of `tokens` tokens where each phrase has the weighted frequency of `freq` and the
/// inverse document frequency of `idf` (lower is better).
pub(crate) fn bm25(freq: &[f64], idf: &[f64], tokens: f64, avgdl: f64) -> f64 {
    let norm = K1 * (1.0 - B + B * tokens / avgdl);
    let sum: f64 = freq.iter().zip(idf).map(|(&f, &idf)| phrase_part(f, idf, norm)).sum();
    -sum
}

/// What one phrase of weighted frequency `f` and inverse document frequency `idf` adds to a row's bm25 (with
/// the sign of relevance), where `norm` is the row's size term.
fn phrase_part(f: f64, idf: f64, norm: f64) -> f64 {
    idf * (f * (K1 + 1.0)) / (f + norm)
}

/// What one phrase adds, at most, to a row's bm25 whatever its frequency and the row's size: a phrase's part
/// grows with its frequency towards `idf × (k1 + 1)`.
pub(crate) fn most_phrase_part(idf: f64) -> f64 {
    idf * (K1 + 1.0)
}

/// What one phrase adds to the bm25 (with the sign of relevance) of a row of `tokens` tokens where it has the
/// weighted frequency `f`: one term of [`bm25`]'s sum.
pub(crate) fn bm25_part(f: f64, idf: f64, tokens: f64, avgdl: f64) -> f64 {
    phrase_part(f, idf, K1 * (1.0 - B + B * tokens / avgdl))
}

/// The inverse document frequency FTS5's bm25 gives a phrase that `hits` of the store's `rows` rows have.
pub(crate) fn idf(rows: f64, hits: f64) -> f64 {
    let value = ((rows - hits + 0.5) / (hits + 0.5)).ln();
    if value <= 0.0 {
        1e-6
    } else {
        value
    }
}

//! getSimilar's `text` plugin: more-like-this over the source document's most distinctive words, ranked by
//! bm25 as FTS5 gives it, scoring only the documents that can still reach the page.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use roaring::RoaringBitmap;
use rusqlite::Connection;
use studio_text::{Phrase, Snapshot};

use super::fetch;
use super::index::SpaceIndex;
use super::score;
use super::similar::{kth_highest, ROUNDING};
use super::stamp::{Stamp, Totals};
use super::text_search;
use super::tuning::{EnginePath, Tuned, Tuning};
use crate::error::EngineError;

// The plugin's thresholds are those of `Tuning` (`text_terms`: the terms put into its query, 12;
// `text_terms_considered`: the source's distinct terms whose rows are looked up, 64).

/// Whether the `text` plugin may use a term found in `df` of the store's `total` documents: one only the
/// source has finds nothing; one in more than a quarter of them says little about any one document; and
/// past `few` documents (1,000 by default) one in more than a twentieth: each of a term's documents is scored,
/// so a word in a tenth of 1M documents costs tens of milliseconds and ranks little better. docs/api.md
/// (getSimilar).
fn usable_term(df: u64, total: f64, few: u64) -> bool {
    df >= 2 && df <= most_usable(total, few)
}

/// The most documents of `total` a usable term may be in (see [`usable_term`]).
fn most_usable(total: f64, few: u64) -> u64 {
    (total / 4.0).min((total / 20.0).max(few as f64)).max(0.0) as u64
}
const STOPWORDS: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our", "out",
    "has", "his", "how", "its", "may", "new", "now", "who", "did", "get", "him", "let", "say", "she", "too", "use",
    "that", "with", "have", "this", "will", "from", "they", "been", "were", "what", "when", "your", "which", "their",
    "there", "would", "about", "into", "more", "than", "them", "then", "these", "some", "also", "over", "such",
    "after", "most", "other", "only", "very", "just", "where", "while", "could", "should", "each", "both",
];

/// A distinctive term of a document: its tf-idf weight, the term, and the rows of the store having it.
pub(crate) struct Distinctive {
    pub weight: f64,
    pub term: String,
    pub rows: u64,
}

/// A term of the source document: how often the source has it, and the store's rows having it.
struct Candidate {
    term: String,
    count: u32,
    rows: u64,
}

/// The most distinctive terms of `doc` (top tf-idf), most distinctive first, with the store as `stamp` says and
/// its full-text index `text`. Each term's weight needs the rows of the store having it: from the common terms'
/// lists while they hold, else from the index's dictionaries (or, while rows deleted are not merged away yet,
/// its list).
pub(crate) fn distinctive_terms(
    conn: &Connection,
    index: &SpaceIndex,
    doc: u32,
    stamp: &Stamp,
    text: &Snapshot,
    tuned: Tuned,
) -> Result<Vec<Distinctive>, EngineError> {
    let tuning: &Tuning = tuned.tuning;
    let body = fetch::text_of(conn, index, doc)?;
    let mut tf: HashMap<String, u32> = HashMap::new();
    for t in studio_text::tokens(&body) {
        if t.chars().count() >= 3 && !t.chars().all(|c| c.is_ascii_digit()) && !STOPWORDS.contains(&t.as_str()) {
            *tf.entry(t).or_insert(0) += 1;
        }
    }
    let mut terms: Vec<(String, u32)> = tf.into_iter().collect();
    terms.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if terms.len() > tuning.text_terms_considered {
        tuned.taken.note(EnginePath::TextTermsCut);
        terms.truncate(tuning.text_terms_considered);
    }
    let total = stamp.totals().rows;
    let mut candidates: Vec<Candidate> = Vec::with_capacity(terms.len());
    let mut from_lists = false;
    for (term, count) in terms {
        let rows = match index.common.store_rows(&term, stamp.generations) {
            Some(rows) => {
                from_lists = true;
                rows
            }
            None => text_search::term_rows(text, &term)?,
        };
        candidates.push(Candidate { term, count, rows });
    }
    if from_lists {
        tuned.taken.note(EnginePath::TextRowsFromLists);
    }
    Ok(best_terms(&candidates, total, tuning.text_terms, tuning.text_term_documents))
}

/// The tf-idf weight of a term found `count` times in the source and in `rows` of the store's `total` rows.
fn weight(count: u32, rows: u64, total: f64) -> f64 {
    f64::from(count) * (total / rows as f64).ln()
}

/// The best `keep` of the candidates whose rows are known and usable (see [`usable_term`]), best first (equal
/// weights by term).
fn best_terms(candidates: &[Candidate], total: f64, keep: usize, few: u64) -> Vec<Distinctive> {
    let mut best: Vec<Distinctive> = candidates
        .iter()
        .filter(|c| usable_term(c.rows, total, few))
        .map(|c| Distinctive { weight: weight(c.count, c.rows, total), term: c.term.clone(), rows: c.rows })
        .collect();
    best.sort_unstable_by(|a, b| b.weight.total_cmp(&a.weight).then_with(|| a.term.cmp(&b.term)));
    best.truncate(keep);
    best
}

/// Whether `term` is a word of `text` as the text plugin counts words.
pub(crate) fn has_term(text: &str, term: &str) -> bool {
    studio_text::tokens(text).any(|t| t == term)
}

/// Documents matching any of the most distinctive terms of `doc` (top tf-idf), ranked by bm25.
pub(crate) fn by_text(
    conn: &Connection,
    index: &SpaceIndex,
    stamp: &Stamp,
    text: &Snapshot,
    doc: u32,
    limit: usize,
    tuned: Tuned,
) -> Result<Vec<u32>, EngineError> {
    let terms = distinctive_terms(conn, index, doc, stamp, text, tuned)?;
    let (scored, passed_over) = any_term(text, index, &terms, stamp.totals(), doc, limit)?;
    if passed_over {
        tuned.taken.note(EnginePath::TextDocumentsPassedOver);
    }
    Ok(score::page(scored.into_iter().filter(|&(d, _)| d != doc), 0, limit))
}

/// The documents having any of `terms` that may be among the best `keep` without `source`, each with its bm25
/// score for `"a" OR "b" OR …` as FTS5 gives it (each term's rows in the store known).
///
/// A common term of the twelve has tens of thousands of rows at 1M documents, and reading each row's positions
/// to score it is most of the plugin's time. But a term adds at most idf × (k1 + 1) to a score. So the terms are
/// walked from the rarest on, each alone, adding what each adds to the documents found; once what the terms
/// left could add together is below the `keep`-th best of those sums, a document having none of the terms
/// walked cannot be among the best, and each term left is read only for the documents found already (its
/// list is still walked, but the positions of other rows are not read). The sums are added in another order
/// than FTS5's, so every document within a rounding of the `keep`-th best is scored again exactly as FTS5
/// sums its terms. Also says whether documents were passed over that way.
fn any_term(
    text: &Snapshot,
    index: &SpaceIndex,
    terms: &[Distinctive],
    totals: Totals,
    source: u32,
    keep: usize,
) -> Result<(Vec<(u32, f64)>, bool), EngineError> {
    if terms.is_empty() || keep == 0 {
        return Ok((Vec::new(), false));
    }
    let idf: Vec<f64> = terms.iter().map(|d| score::idf(totals.rows, d.rows as f64)).collect();
    let avgdl = totals.tokens / totals.rows;
    let mut order: Vec<usize> = (0..terms.len()).collect();
    order.sort_by_key(|&i| terms[i].rows);
    // What the terms from the j-th of `order` on can add to a score, at most.
    let mut most_left = vec![0.0; terms.len() + 1];
    for j in (0..terms.len()).rev() {
        most_left[j] = most_left[j + 1] + score::most_phrase_part(idf[order[j]]);
    }
    let mut lists: Vec<Vec<text_search::Posting>> = vec![Vec::new(); terms.len()];
    let most: u64 = terms.iter().map(|d| d.rows).sum();
    let mut sums: Sums = HashMap::with_capacity_and_hasher((most as usize).min(1 << 20), Default::default());
    let mut found: Option<RoaringBitmap> = None;
    for (j, &i) in order.iter().enumerate() {
        text_search::postings(text, index, &Phrase::term(terms[i].term.as_bytes()), found.as_ref(), &mut lists[i])?;
        for p in &lists[i] {
            *sums.entry(p.dense).or_insert(0.0) +=
                score::bm25_part(f64::from(p.frequency), idf[i], f64::from(p.tokens), avgdl);
        }
        // No sum exceeds what the terms walked add at most, so while that is below what the terms left may
        // add, the sums need not be looked at (with a margin for rounding).
        let left = most_left[j + 1] * (1.0 + ROUNDING);
        if found.is_none()
            && left < most_left[0] - most_left[j + 1]
            && kth_highest(others(&sums, source), keep).is_some_and(|kth| left < kth)
        {
            found = Some(sums.keys().copied().collect());
        }
    }
    // The documents close to the page's last place, each with its size and its frequency of every term.
    let close = kth_highest(others(&sums, source), keep).map_or(0.0, |kth| kth * (1.0 - ROUNDING));
    let mut rows: HashMap<u32, (u32, Vec<f64>), BuildHasherDefault<DenseHasher>> =
        sums.iter().filter(|&(_, &sum)| sum >= close).map(|(&dense, _)| (dense, (0, vec![0.0; terms.len()]))).collect();
    for (i, list) in lists.iter().enumerate() {
        for p in list {
            if let Some((tokens, frequencies)) = rows.get_mut(&p.dense) {
                *tokens = p.tokens;
                frequencies[i] = f64::from(p.frequency);
            }
        }
    }
    let scored = rows
        .into_iter()
        .map(|(dense, (tokens, frequencies))| (dense, score::bm25(&frequencies, &idf, f64::from(tokens), avgdl)))
        .collect();
    Ok((scored, found.is_some()))
}

/// Partial scores by dense number.
type Sums = HashMap<u32, f64, BuildHasherDefault<DenseHasher>>;

/// Hashes a dense number by one multiplication: the keys are no one's input, so need no defence against
/// collisions chosen on purpose, and the map is updated once per row walked.
#[derive(Default)]
struct DenseHasher(u64);

impl Hasher for DenseHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// The sums of the documents other than `source`.
fn others(sums: &Sums, source: u32) -> impl Iterator<Item = f64> + '_ {
    sums.iter().filter(move |&(&d, _)| d != source).map(|(_, &v)| v)
}

#[cfg(test)]
mod tests;

//! The similarity plugins of getSimilar: `concepts` (concept overlap weighted by inverse document
//! frequency, broader concepts counting half) and `text` (more-like-this over the document's most
//! distinctive terms). Both return dense document numbers, best first, never the source document.

use std::collections::HashMap;

use roaring::RoaringBitmap;
use rusqlite::{Connection, OptionalExtension, Statement};
use studio_model::ALL_CONCEPTS_FIELD;

use super::index::{FieldIndex, SpaceIndex};
use super::rank;
use super::{fetch, text};
use crate::error::StoreError;

/// Terms of the source document put into the `text` plugin's query.
const TEXT_TERMS: usize = 12;
/// Distinct terms of the source document whose document frequency is looked up.
const TERMS_CONSIDERED: usize = 64;
/// Whether the `text` plugin may use a term found in `df` of the store's `total` documents: one only the
/// source has finds nothing; one in more than a quarter of them says little about any one document; and
/// past 1,000 documents one in more than a twentieth: each of a term's documents is scored, so a word in a
/// tenth of 1M documents costs tens of milliseconds and ranks little better. docs/api.md (getSimilar).
fn usable_term(df: i64, total: f64) -> bool {
    let df = df as f64;
    df >= 2.0 && df <= total / 4.0 && (df <= 1000.0 || df <= total / 20.0)
}
const STOPWORDS: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our", "out",
    "has", "his", "how", "its", "may", "new", "now", "who", "did", "get", "him", "let", "say", "she", "too", "use",
    "that", "with", "have", "this", "will", "from", "they", "been", "were", "what", "when", "your", "which", "their",
    "there", "would", "about", "into", "more", "than", "them", "then", "these", "some", "also", "over", "such",
    "after", "most", "other", "only", "very", "just", "where", "while", "could", "should", "each", "both",
];

/// Inverse document frequency of a value within the search space.
pub(crate) fn idf(index: &SpaceIndex, df: u64) -> f64 {
    (1.0 + index.len() as f64 / df.max(1) as f64).ln()
}

/// Scores of documents: a dense array over the search space and the set of documents it touches, so
/// that adding a value's weight to thousands of documents is a plain array update.
pub(crate) struct Scores {
    score: Vec<f64>,
    touched: RoaringBitmap,
}

impl Scores {
    pub(crate) fn new(index: &SpaceIndex) -> Scores {
        Scores { score: vec![0.0; index.rowids.len()], touched: RoaringBitmap::new() }
    }

    /// Adds `weight` to every document of `docs`.
    pub(crate) fn add(&mut self, docs: &RoaringBitmap, weight: f64) {
        for d in docs {
            if let Some(s) = self.score.get_mut(d as usize) {
                *s += weight;
            }
        }
        self.touched |= docs;
    }

    /// Ranks the documents best first (ties by date descending, then id) without the source, at most `limit`.
    pub(crate) fn best(self, source: u32, exclude: &[u32], limit: usize) -> Vec<u32> {
        let mut ranked: Vec<(f64, u32)> = self
            .touched
            .iter()
            .map(|d| (self.score.get(d as usize).copied().unwrap_or(0.0), d))
            .filter(|&(s, d)| d != source && s > 0.0 && !exclude.contains(&d))
            .collect();
        let cmp = |a: &(f64, u32), b: &(f64, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        if ranked.len() > limit && limit > 0 {
            ranked.select_nth_unstable_by(limit - 1, cmp);
            ranked.truncate(limit);
        }
        ranked.sort_unstable_by(cmp);
        ranked.into_iter().take(limit).map(|(_, d)| d).collect()
    }
}

/// The union concept field of the search space, if it has concepts at all.
pub(crate) fn concepts_field(index: &SpaceIndex) -> Option<&FieldIndex> {
    index.field(ALL_CONCEPTS_FIELD)
}

/// The concepts `doc` is scored by, by value: its own at full weight, those broader than one of them at half.
pub(crate) fn concept_weights(field: &FieldIndex, doc: u32) -> Vec<(u32, f64)> {
    let mut weights: HashMap<u32, f64> = HashMap::new();
    for &v in field.direct_values(doc) {
        weights.insert(v, 1.0);
        for &a in &field.values[v as usize].ancestors {
            weights.entry(a).or_insert(0.5);
        }
    }
    let mut weights: Vec<(u32, f64)> = weights.into_iter().collect();
    weights.sort_unstable_by_key(|w| w.0);
    weights
}

/// Documents sharing concepts with `doc`: each shared concept adds its IDF; a concept broader than one of
/// the document's adds half its IDF.
pub(crate) fn by_concepts(index: &SpaceIndex, doc: u32, limit: usize) -> Vec<u32> {
    let Some(field) = concepts_field(index) else { return Vec::new() };
    let mut scores = Scores::new(index);
    for (v, w) in concept_weights(field, doc) {
        let value = &field.values[v as usize];
        scores.add(&value.docs, w * idf(index, value.docs.len()));
    }
    scores.best(doc, &[], limit)
}

/// Document frequencies an index remembers at most; past that it starts afresh.
const TERMS_REMEMBERED: usize = 100_000;

/// The number of documents in the store having `term` (`stmt` reads it from the fts5vocab table), remembered
/// by the index.
fn document_frequency(stmt: &mut Statement, index: &SpaceIndex, term: &str) -> Result<i64, StoreError> {
    if let Some(&df) = index.term_documents.lock().ok().as_ref().and_then(|known| known.get(term)) {
        return Ok(df);
    }
    let df: i64 = stmt.query_row([term], |r| r.get(0)).optional()?.unwrap_or(0);
    if let Ok(mut known) = index.term_documents.lock() {
        if known.len() >= TERMS_REMEMBERED {
            known.clear();
        }
        known.insert(term.to_owned(), df);
    }
    Ok(df)
}

/// The most distinctive terms of `doc` (top tf-idf), most distinctive first, with their weights.
pub(crate) fn distinctive_terms(
    conn: &Connection,
    index: &SpaceIndex,
    doc: u32,
) -> Result<Vec<(f64, String)>, StoreError> {
    let body = fetch::text_of(conn, index, doc)?;
    let mut tf: HashMap<String, u32> = HashMap::new();
    for t in text::tokens(&body) {
        if t.chars().count() >= 3 && !t.chars().all(|c| c.is_ascii_digit()) && !STOPWORDS.contains(&t.as_str()) {
            *tf.entry(t).or_insert(0) += 1;
        }
    }
    let mut terms: Vec<(String, u32)> = tf.into_iter().collect();
    terms.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    terms.truncate(TERMS_CONSIDERED);
    let total = index.store_documents as f64;
    let mut stmt = conn.prepare_cached("SELECT doc FROM documents_fts_terms WHERE term = ?1")?;
    let mut weighted: Vec<(f64, String)> = Vec::new();
    for (term, count) in terms {
        let df = document_frequency(&mut stmt, index, &term)?;
        if usable_term(df, total) {
            weighted.push((count as f64 * (total / df as f64).ln(), term));
        }
    }
    weighted.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    weighted.truncate(TEXT_TERMS);
    Ok(weighted)
}

/// Whether `term` is a word of `text` as the text plugin counts words.
pub(crate) fn has_term(text: &str, term: &str) -> bool {
    text::tokens(text).any(|t| t == term)
}

/// Documents matching any of the most distinctive terms of `doc` (top tf-idf), ranked by bm25.
pub(crate) fn by_text(conn: &Connection, index: &SpaceIndex, doc: u32, limit: usize) -> Result<Vec<u32>, StoreError> {
    let weighted = distinctive_terms(conn, index, doc)?;
    if weighted.is_empty() {
        return Ok(Vec::new());
    }
    let expression: Vec<String> = weighted.iter().map(|(_, t)| format!("\"{t}\"")).collect();
    let scored = rank::matches(conn, index, &expression.join(" OR "), None, &[])?.scored;
    Ok(rank::page(scored.into_iter().filter(|&(d, _)| d != doc), 0, limit))
}

#[cfg(test)]
mod tests {
    use super::usable_term;

    /// Terms of two documents up to a quarter of the store are used, and past 1,000 documents only up to a
    /// twentieth of it.
    #[test]
    fn common_terms_are_left_out_of_the_text_query() {
        assert!(!usable_term(1, 100.0), "a term only the source has");
        assert!(usable_term(2, 100.0));
        assert!(usable_term(25, 100.0) && !usable_term(26, 100.0), "a quarter of a small store");
        assert!(usable_term(1_000, 10_000.0) && !usable_term(1_001, 10_000.0), "past 1,000 documents");
        assert!(usable_term(50_000, 1_000_000.0) && !usable_term(50_001, 1_000_000.0), "a twentieth of 1M");
    }
}

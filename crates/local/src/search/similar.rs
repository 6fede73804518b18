//! The similarity plugins of getSimilar: `concepts` (concept overlap weighted by inverse document
//! frequency, broader concepts counting half) and `text` (more-like-this over the document's most
//! distinctive terms). Both return dense document numbers, best first, never the source document.

use std::collections::HashMap;

use std::sync::Mutex;

use roaring::RoaringBitmap;
use rusqlite::Connection;
use studio_model::ALL_CONCEPTS_FIELD;

use super::common::Totals;
use super::index::{FieldIndex, SpaceIndex};
use super::kept::Stamp;
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
fn usable_term(df: u64, total: f64) -> bool {
    df >= 2 && df <= most_usable(total)
}

/// The most documents of `total` a usable term may be in (see [`usable_term`]).
fn most_usable(total: f64) -> u64 {
    (total / 4.0).min((total / 20.0).max(1000.0)).max(0.0) as u64
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

/// Row counts an index remembers at most; past that it starts afresh.
const TERMS_REMEMBERED: usize = 100_000;
/// Rows a term's first count stops at; each further count stops at four times the last.
const FIRST_COUNT: u64 = 1_024;

/// What is known of the rows of the store having a term.
#[derive(Debug, Clone, Copy)]
enum Rows {
    Exact(u64),
    AtLeast(u64),
}

/// The store-wide row counts of the terms the `text` plugin looked up, kept with the index (the words of
/// one document are mostly those of the next) while the store's generations stay what they were when they
/// were counted: an import into any search space changes them, and bm25 is then told the new ones.
#[derive(Debug, Default)]
pub(crate) struct TermRows {
    known: Mutex<(i64, HashMap<String, Rows>)>,
}

impl TermRows {
    fn get(&self, term: &str, generations: i64) -> Option<Rows> {
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        (known.0 == generations).then(|| known.1.get(term).copied())?
    }

    fn insert(&self, term: &str, generations: i64, rows: Rows) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.0 != generations || known.1.len() >= TERMS_REMEMBERED {
            *known = (generations, HashMap::new());
        }
        known.1.insert(term.to_owned(), rows);
    }
}

/// A distinctive term of a document: its tf-idf weight, the term, and the rows of the store having it.
pub(crate) struct Distinctive {
    pub weight: f64,
    pub term: String,
    pub rows: u64,
}

/// A term of the source document and what is known of its rows so far.
struct Candidate {
    term: String,
    count: u32,
    rows: Rows,
}

/// The most distinctive terms of `doc` (top tf-idf), most distinctive first, with the store as `stamp` says.
///
/// Each term's weight needs the rows of the store having it; counting them walks its list in FTS5, and the
/// sixty-four terms of a document at 1M have hundreds of thousands of rows between them. Most are rare
/// enough, or common enough, to be settled by a short count: every term is counted up to [`FIRST_COUNT`]
/// rows, then only those that could still be among the best twelve (a term in at least n rows weighs at most
/// as if it were in n) are counted further, up to four times as far each round. The twelve found are those a
/// count of every term would find.
pub(crate) fn distinctive_terms(
    conn: &Connection,
    index: &SpaceIndex,
    doc: u32,
    stamp: &Stamp,
) -> Result<Vec<Distinctive>, StoreError> {
    counting_from(conn, index, doc, stamp, FIRST_COUNT)
}

/// [`distinctive_terms`], counting every term up to `first_count` rows first.
fn counting_from(
    conn: &Connection,
    index: &SpaceIndex,
    doc: u32,
    stamp: &Stamp,
    first_count: u64,
) -> Result<Vec<Distinctive>, StoreError> {
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
    let total = Totals::of_record(&stamp.averages).map_or(1.0, |t| t.rows);
    let most = most_usable(total) + 1;
    let generations = stamp.generations;
    let mut candidates: Vec<Candidate> = terms
        .into_iter()
        .map(|(term, count)| {
            let rows = match index.common.store_rows(&term, generations) {
                Some(rows) => Rows::Exact(rows),
                None => index.term_rows.get(&term, generations).unwrap_or(Rows::AtLeast(0)),
            };
            Candidate { term, count, rows }
        })
        .collect();
    let mut count_to = first_count.max(1);
    loop {
        let best = best_terms(&candidates, total);
        let last = (best.len() == TEXT_TERMS).then(|| best[TEXT_TERMS - 1].weight);
        let limit = count_to.min(most);
        let mut open = false;
        for c in &mut candidates {
            let Rows::AtLeast(known) = c.rows else { continue };
            let could = last.is_none_or(|w| weight(c.count, known.max(2), total) >= w);
            if known >= most || !could {
                continue;
            }
            open = true;
            if known >= limit {
                continue;
            }
            let rows = rank::rows_having(conn, &format!("\"{}\"", c.term), limit)?;
            c.rows = if rows < limit { Rows::Exact(rows) } else { Rows::AtLeast(limit) };
            index.term_rows.insert(&c.term, generations, c.rows);
        }
        if !open {
            return Ok(best);
        }
        count_to = count_to.saturating_mul(4);
    }
}

/// The tf-idf weight of a term found `count` times in the source and in `rows` of the store's `total` rows.
fn weight(count: u32, rows: u64, total: f64) -> f64 {
    f64::from(count) * (total / rows as f64).ln()
}

/// The best twelve of the candidates whose rows are known and usable, best first (equal weights by term).
fn best_terms(candidates: &[Candidate], total: f64) -> Vec<Distinctive> {
    let mut best: Vec<Distinctive> = candidates
        .iter()
        .filter_map(|c| match c.rows {
            Rows::Exact(rows) if usable_term(rows, total) => {
                Some(Distinctive { weight: weight(c.count, rows, total), term: c.term.clone(), rows })
            }
            _ => None,
        })
        .collect();
    best.sort_unstable_by(|a, b| b.weight.total_cmp(&a.weight).then_with(|| a.term.cmp(&b.term)));
    best.truncate(TEXT_TERMS);
    best
}

/// Whether `term` is a word of `text` as the text plugin counts words.
pub(crate) fn has_term(text: &str, term: &str) -> bool {
    text::tokens(text).any(|t| t == term)
}

/// Documents matching any of the most distinctive terms of `doc` (top tf-idf), ranked by bm25.
pub(crate) fn by_text(conn: &Connection, index: &SpaceIndex, doc: u32, limit: usize) -> Result<Vec<u32>, StoreError> {
    let stamp = Stamp::read(conn)?;
    let terms = distinctive_terms(conn, index, doc, &stamp)?;
    let scored = any_term(conn, index, &terms)?;
    Ok(rank::page(scored.into_iter().filter(|&(d, _)| d != doc), 0, limit))
}

/// The documents having any of `terms`, each with its bm25 score for `"a" OR "b" OR …`. Each term's row count
/// is known: FTS5 need not walk its list once more to count them.
fn any_term(conn: &Connection, index: &SpaceIndex, terms: &[Distinctive]) -> Result<Vec<(u32, f64)>, StoreError> {
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let expression: Vec<String> = terms.iter().map(|d| format!("\"{}\"", d.term)).collect();
    let known: Vec<Option<u64>> = terms.iter().map(|d| Some(d.rows)).collect();
    Ok(rank::matches(conn, index, &expression.join(" OR "), None, &known)?.scored)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use rusqlite::Connection;

    use super::{any_term, by_text, counting_from, distinctive_terms, usable_term};
    use crate::search::common::CommonTerms;
    use crate::search::index::SpaceIndex;
    use crate::search::kept::Stamp;
    use crate::{demo, import_documents, Store};

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

    /// Counting each term's rows only as far as it could still be among the best twelve finds the twelve that
    /// counting every term finds, with the same weights and counts, over documents of many words some common
    /// and most rare.
    #[test]
    fn short_counts_find_the_terms_full_counts_find() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_dir(dir.path()).unwrap();
        let mut seed = 7u64;
        let mut word = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let x = (seed >> 33) % 1000;
            format!("word{}", x * x / 250)
        };
        let lines: String = (0..3000)
            .map(|i| {
                let words: Vec<String> = (0..40).map(|_| word()).collect();
                format!("{{\"id\": \"d{i}\", \"title\": \"{}\", \"content\": \"{}\"}}\n", word(), words.join(" "))
            })
            .collect();
        import_documents(&store, "words", lines.as_bytes(), &mut |_| {}).unwrap();
        let mut conn = store.conn().unwrap();
        let stamp = Stamp::read(&conn).unwrap();
        let short = SpaceIndex::build(&mut conn, "words").unwrap();
        let full = SpaceIndex::build(&mut conn, "words").unwrap();
        let mut compared = 0;
        for source in (0..3000).step_by(61) {
            let found = counting_from(&conn, &short, source, &stamp, 2).unwrap();
            let every = counting_from(&conn, &full, source, &stamp, u64::MAX).unwrap();
            let view = |terms: &[super::Distinctive]| -> Vec<(String, u64, f64)> {
                terms.iter().map(|d| (d.term.clone(), d.rows, d.weight)).collect()
            };
            assert_eq!(view(&found), view(&every), "document {source}");
            compared += found.len();
        }
        assert!(compared > 400, "enough terms were compared ({compared})");
        let known = short.term_rows.known.lock().unwrap();
        let left = known.1.values().filter(|r| matches!(r, super::Rows::AtLeast(n) if *n < 1001)).count();
        assert!(left > 0, "some terms were left out after a short count, their rows not counted to the end");
    }

    /// FTS5's ranking of `expression` over the documents of `index` without `source`: (dense number, bm25).
    fn fts5_ranking(conn: &Connection, index: &SpaceIndex, expression: &str, source: u32) -> Vec<(u32, f64)> {
        let mut ranked: Vec<(u32, f64)> = conn
            .prepare("SELECT rowid, bm25(documents_fts, 5.0, 2.0, 1.0) FROM documents_fts WHERE documents_fts MATCH ?1")
            .unwrap()
            .query_map([expression], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .filter_map(|(rowid, score)| Some((index.dense(rowid)?, score)))
            .filter(|&(d, _)| d != source)
            .collect();
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        ranked
    }

    /// The `text` plugin ranks by FTS5's bm25 over the source's distinctive terms, each counted in the store
    /// as it is now (from the common terms' lists, remembered from an earlier document, or walked), also after
    /// imports into another search space changed those counts but left this index in place.
    #[test]
    fn text_plugin_ranks_by_bm25_over_the_store_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_dir(dir.path()).unwrap();
        demo::load_demo(&store, &mut |_| {}).unwrap();
        let mut conn = store.conn().unwrap();
        let mut index = SpaceIndex::build(&mut conn, demo::DEMO_SPACE).unwrap();
        index.common = CommonTerms::build(&mut conn, &index, (demo::DEMO_DOCUMENTS / 100) as u64).unwrap();
        let sources = [0, 7, 50, 300, 301];
        let vocabulary = |conn: &Connection, term: &str| -> u64 {
            let rows: i64 =
                conn.query_row("SELECT doc FROM documents_fts_terms WHERE term = ?1", [term], |r| r.get(0)).unwrap();
            rows as u64
        };
        let mut listed = 0;
        for round in 0..3 {
            let stamp = Stamp::read(&conn).unwrap();
            let generations = stamp.generations;
            let mut seen = BTreeSet::new();
            for source in sources {
                let terms = distinctive_terms(&conn, &index, source, &stamp).unwrap();
                assert!(terms.len() >= 5, "document {source} has distinctive terms ({})", terms.len());
                for d in &terms {
                    assert_eq!(d.rows, vocabulary(&conn, &d.term), "round {round}: rows having {}", d.term);
                    listed += usize::from(index.common.store_rows(&d.term, generations).is_some());
                    seen.insert(d.term.clone());
                }
                let expression: Vec<String> = terms.iter().map(|d| format!("\"{}\"", d.term)).collect();
                let expected = fts5_ranking(&conn, &index, &expression.join(" OR "), source);
                let score = |d: u32| expected.iter().find(|e| e.0 == d).map(|e| e.1);
                let scored = any_term(&conn, &index, &terms).unwrap();
                assert_eq!(scored.len(), expected.len() + 1, "document {source}: every match is scored");
                for (doc, ours) in scored.into_iter().filter(|&(d, _)| d != source) {
                    let theirs = score(doc);
                    assert!(
                        theirs.is_some_and(|t| (t - ours).abs() <= 1e-9 * t.abs()),
                        "round {round}, document {source}: {doc} scored {ours}, FTS5's {theirs:?}"
                    );
                }
                let found = by_text(&conn, &index, source, 10).unwrap();
                assert_eq!(found.len(), 10.min(expected.len()), "best first, FTS5's order");
                assert!(found.len() >= 5, "document {source} has similar ones ({})", found.len());
                for (at, (&doc, &(_, wanted))) in found.iter().zip(&expected).enumerate() {
                    let theirs = score(doc).unwrap_or_else(|| panic!("{doc} matches none of the terms"));
                    assert!(
                        (theirs - wanted).abs() <= 1e-9 * wanted.abs(),
                        "round {round}, document {source}, place {at}: {doc} scored {theirs}, FTS5's {wanted}"
                    );
                }
            }
            // Another search space gets documents with every one of those terms: their counts change.
            let words: Vec<String> = seen.into_iter().collect();
            let lines: String = (0..3)
                .map(|i| {
                    format!("{{\"id\": \"x{round}-{i}\", \"title\": \"more\", \"content\": \"{}\"}}\n", words.join(" "))
                })
                .collect();
            import_documents(&store, "elsewhere", lines.as_bytes(), &mut |_| {}).unwrap();
        }
        assert!(listed > 0, "some terms were counted from the common terms' lists");
    }
}

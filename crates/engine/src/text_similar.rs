//! getSimilar's `text` plugin: more-like-this over the source document's most distinctive words, ranked as
//! FTS5's bm25 ranks them, scoring only the documents that can still reach the page.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use roaring::RoaringBitmap;
use rusqlite::Connection;

use super::common::Totals;
use super::index::SpaceIndex;
use super::kept::Stamp;
use super::rank;
use super::score;
use super::similar::{kth_highest, ROUNDING};
use super::tuning::{EnginePath, Tuned, Tuning};
use super::{fetch, term_counts, text};
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

// How many row counts an index remembers, and where a term's first count stops: `Tuning`'s
// `text_terms_remembered` and `text_first_count`.

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

    /// Remembers `rows` of `term`, forgetting every other count first when they are of other generations or
    /// already `most`; returns whether it forgot counts of these generations.
    fn insert(&self, term: &str, generations: i64, rows: Rows, most: usize) -> bool {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        let full = known.0 == generations && known.1.len() >= most;
        if known.0 != generations || full {
            *known = (generations, HashMap::new());
        }
        known.1.insert(term.to_owned(), rows);
        full
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
/// Each term's weight needs the rows of the store having it: from the common terms' lists, from the store's
/// kept counts (term_counts) while they are current, or remembered from an earlier document. Otherwise
/// counting them walks its list in FTS5, and the sixty-four terms of a document at 1M have hundreds of
/// thousands of rows between them. Most are rare
/// enough, or common enough, to be settled by a short count: every term is counted up to
/// [`Tuning::text_first_count`] rows, then only those that could still be among the best twelve (a term in at
/// least n rows weighs at most as if it were in n) are counted further, up to four times as far each round.
/// The twelve found are those a count of every term would find.
pub(crate) fn distinctive_terms(
    conn: &Connection,
    index: &SpaceIndex,
    doc: u32,
    stamp: &Stamp,
    tuned: Tuned,
) -> Result<Vec<Distinctive>, EngineError> {
    let tuning: &Tuning = tuned.tuning;
    let body = fetch::text_of(conn, index, doc)?;
    let mut tf: HashMap<String, u32> = HashMap::new();
    for t in text::tokens(&body) {
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
    let total = Totals::of_record(&stamp.averages).map_or(1.0, |t| t.rows);
    let few = tuning.text_term_documents;
    let most = most_usable(total, few) + 1;
    let generations = stamp.generations;
    let kept = term_counts::current(conn, generations)?;
    let mut candidates: Vec<Candidate> = Vec::with_capacity(terms.len());
    // Where the terms' rows came from, noted once per call.
    let (mut from_lists, mut from_counts, mut remembered) = (false, false, false);
    for (term, count) in terms {
        let listed = match index.common.store_rows(&term, generations) {
            Some(rows) => {
                from_lists = true;
                Some(rows)
            }
            None if kept => term_counts::rows(conn, &term)?.inspect(|_| from_counts = true),
            None => None,
        };
        let rows = match listed {
            Some(rows) => Rows::Exact(rows),
            None => match index.term_rows.get(&term, generations) {
                Some(rows) => {
                    remembered = true;
                    rows
                }
                None => Rows::AtLeast(0),
            },
        };
        candidates.push(Candidate { term, count, rows });
    }
    for (path, taken) in [
        (EnginePath::TextRowsFromLists, from_lists),
        (EnginePath::TextRowsFromCounts, from_counts),
        (EnginePath::TextRowsRemembered, remembered),
    ] {
        if taken {
            tuned.taken.note(path);
        }
    }
    let (mut stopped_short, mut forgot) = (false, false);
    let mut count_to = tuning.text_first_count.max(1);
    let text_terms = tuning.text_terms;
    loop {
        let best = best_terms(&candidates, total, text_terms, few);
        let last = (text_terms > 0 && best.len() == text_terms).then(|| best[text_terms - 1].weight);
        let limit = count_to.min(most);
        let mut open = false;
        for c in &mut candidates {
            let Rows::AtLeast(known) = c.rows else { continue };
            let could = last.is_none_or(|w| weight(c.count, known.max(2), total) >= w);
            if known >= most || !could {
                stopped_short |= known > 0 && known < most;
                continue;
            }
            open = true;
            if known >= limit {
                continue;
            }
            let rows = rank::rows_having(conn, &format!("\"{}\"", c.term), limit)?;
            c.rows = if rows < limit { Rows::Exact(rows) } else { Rows::AtLeast(limit) };
            forgot |= index.term_rows.insert(&c.term, generations, c.rows, tuning.text_terms_remembered);
        }
        if !open {
            if stopped_short {
                tuned.taken.note(EnginePath::TextCountStoppedShort);
            }
            if forgot {
                tuned.taken.note(EnginePath::TextRowsForgotten);
            }
            return Ok(best);
        }
        count_to = count_to.saturating_mul(4);
    }
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
        .filter_map(|c| match c.rows {
            Rows::Exact(rows) if usable_term(rows, total, few) => {
                Some(Distinctive { weight: weight(c.count, rows, total), term: c.term.clone(), rows })
            }
            _ => None,
        })
        .collect();
    best.sort_unstable_by(|a, b| b.weight.total_cmp(&a.weight).then_with(|| a.term.cmp(&b.term)));
    best.truncate(keep);
    best
}

/// Whether `term` is a word of `text` as the text plugin counts words.
pub(crate) fn has_term(text: &str, term: &str) -> bool {
    text::tokens(text).any(|t| t == term)
}

/// Documents matching any of the most distinctive terms of `doc` (top tf-idf), ranked by bm25.
pub(crate) fn by_text(
    conn: &Connection,
    index: &SpaceIndex,
    stamp: &Stamp,
    doc: u32,
    limit: usize,
    tuned: Tuned,
) -> Result<Vec<u32>, EngineError> {
    let Some(totals) = Totals::of_record(&stamp.averages) else { return Ok(Vec::new()) };
    let terms = distinctive_terms(conn, index, doc, stamp, tuned)?;
    let (scored, passed_over) = any_term(conn, index, &terms, totals, doc, limit)?;
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
    conn: &Connection,
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
    let mut lists: Vec<Vec<rank::Posting>> = vec![Vec::new(); terms.len()];
    let most: u64 = terms.iter().map(|d| d.rows).sum();
    let mut sums: Sums = HashMap::with_capacity_and_hasher((most as usize).min(1 << 20), Default::default());
    let mut found: Option<RoaringBitmap> = None;
    for (j, &i) in order.iter().enumerate() {
        rank::postings(conn, index, &quoted(&terms[i].term), found.as_ref(), &mut lists[i])?;
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

fn quoted(term: &str) -> String {
    format!("\"{term}\"")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use rusqlite::Connection;

    use super::{any_term, by_text, distinctive_terms, term_counts, usable_term, Distinctive};
    use crate::common::{CommonTerms, Totals};
    use crate::index::SpaceIndex;
    use crate::kept::Stamp;
    use crate::score;
    use crate::similar::numbers;
    use crate::test_documents::{TestFiles, NEWS_DOCUMENTS, NEWS_SPACE};
    use crate::tuning::{Tuned, Tuning};

    /// A store whose search space "words" holds `documents` documents, each of a title word and `length` words
    /// of content, all drawn by `word`.
    fn store_of_words(documents: usize, length: usize, mut word: impl FnMut() -> String) -> TestFiles {
        let files = TestFiles::new();
        let lines: String = (0..documents)
            .map(|i| {
                let words: Vec<String> = (0..length).map(|_| word()).collect();
                format!("{{\"id\": \"d{i}\", \"title\": \"{}\", \"content\": \"{}\"}}\n", word(), words.join(" "))
            })
            .collect();
        files.import_lines("words", &lines);
        files
    }

    fn usable_term_of(df: u64, total: f64) -> bool {
        usable_term(df, total, Tuning::DEFAULT.text_term_documents)
    }

    /// Terms of two documents up to a quarter of the store are used, and past 1,000 documents only up to a
    /// twentieth of it.
    #[test]
    fn common_terms_are_left_out_of_the_text_query() {
        assert!(!usable_term_of(1, 100.0), "a term only the source has");
        assert!(usable_term_of(2, 100.0));
        assert!(usable_term_of(25, 100.0) && !usable_term_of(26, 100.0), "a quarter of a small store");
        assert!(usable_term_of(1_000, 10_000.0) && !usable_term_of(1_001, 10_000.0), "past 1,000 documents");
        assert!(usable_term_of(50_000, 1_000_000.0) && !usable_term_of(50_001, 1_000_000.0), "a twentieth of 1M");
    }

    /// Counting each term's rows only as far as it could still be among the best twelve finds the twelve that
    /// counting every term finds, with the same weights and counts, over documents of many words some common
    /// and most rare.
    #[test]
    fn short_counts_find_the_terms_full_counts_find() {
        let mut next = numbers(7);
        let files = store_of_words(3000, 40, || {
            let x = next(1000);
            format!("word{}", x * x / 250)
        });
        let mut conn = files.conn();
        let stamp = Stamp::read(&conn).unwrap();
        let short = SpaceIndex::build(&mut conn, "words", Tuned::defaults()).unwrap();
        let full = SpaceIndex::build(&mut conn, "words", Tuned::defaults()).unwrap();
        let mut compared = 0;
        for source in (0..3000).step_by(61) {
            let found = counting_from(&conn, &short, source, &stamp, 2);
            let every = counting_from(&conn, &full, source, &stamp, u64::MAX);
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

    /// The distinctive terms of `doc`, every term's rows counted up to `first_count` first.
    fn counting_from(
        conn: &Connection,
        index: &SpaceIndex,
        doc: u32,
        stamp: &Stamp,
        first_count: u64,
    ) -> Vec<Distinctive> {
        let tuning = Tuning { text_first_count: first_count, ..Tuning::DEFAULT };
        distinctive_terms(conn, index, doc, stamp, Tuned { tuning: &tuning, ..Tuned::defaults() }).unwrap()
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

    /// Checks `any_term` for `source` and its `terms` against FTS5's own ranking: every document it returns has
    /// FTS5's score, and its best `keep` are FTS5's best, place by place. Returns how many it scored and how
    /// many FTS5 matched, and the best `keep`.
    fn ranked_as_fts5(
        conn: &Connection,
        index: &SpaceIndex,
        terms: &[Distinctive],
        source: u32,
        keep: usize,
    ) -> (usize, usize, Vec<u32>) {
        let expression: Vec<String> = terms.iter().map(|d| format!("\"{}\"", d.term)).collect();
        let expected = fts5_ranking(conn, index, &expression.join(" OR "), source);
        let score = |d: u32| expected.iter().find(|e| e.0 == d).map(|e| e.1);
        let totals = Totals::of_record(&Stamp::read(conn).unwrap().averages).unwrap();
        let scored: Vec<(u32, f64)> = any_term(conn, index, terms, totals, source, keep)
            .unwrap()
            .0
            .into_iter()
            .filter(|&(d, _)| d != source)
            .collect();
        for &(doc, ours) in &scored {
            let theirs = score(doc);
            assert!(
                theirs.is_some_and(|t| (t - ours).abs() <= 1e-9 * t.abs()),
                "document {source}: {doc} scored {ours}, FTS5's {theirs:?}"
            );
        }
        let best = score::page(scored.iter().copied(), 0, keep);
        assert_eq!(best.len(), keep.min(expected.len()), "document {source}: the best {keep}");
        for (at, (&doc, &(_, wanted))) in best.iter().zip(&expected).enumerate() {
            let theirs = score(doc).unwrap_or_else(|| panic!("{doc} matches none of the terms"));
            assert!(
                (theirs - wanted).abs() <= 1e-9 * wanted.abs(),
                "document {source}, place {at} of {keep}: {doc} scored {theirs}, FTS5's {wanted}"
            );
        }
        (scored.len(), expected.len(), best)
    }

    /// The `text` plugin ranks by FTS5's bm25 over the source's distinctive terms, each counted in the store
    /// as it is now (from the common terms' lists, from the store's kept counts while they hold, remembered from
    /// an earlier document, or walked), also after imports into another search space changed those counts but
    /// left this index in place.
    #[test]
    fn text_plugin_ranks_by_bm25_over_the_store_as_it_is() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let mut index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
        index.common = CommonTerms::build(&mut conn, &index, (NEWS_DOCUMENTS / 100) as u64).unwrap();
        let sources = [0, 7, 50, 300, 301];
        let vocabulary = |conn: &Connection, term: &str| -> u64 {
            let rows: i64 =
                conn.query_row("SELECT doc FROM documents_fts_terms WHERE term = ?1", [term], |r| r.get(0)).unwrap();
            rows as u64
        };
        let (mut listed, mut kept, mut walked) = (0, 0, 0);
        for round in 0..3 {
            // In the second round the store's terms are counted ahead; the third comes after an import.
            let kept_round = round == 1;
            if kept_round {
                let mut reader = crate::reader::documents_reader(&conn).unwrap().unwrap();
                assert!(term_counts::count(&mut reader, term_counts::STORED_FROM).unwrap());
            }
            let stamp = Stamp::read(&conn).unwrap();
            let generations = stamp.generations;
            let mut seen = BTreeSet::new();
            for source in sources {
                let terms = distinctive_terms(&conn, &index, source, &stamp, Tuned::defaults()).unwrap();
                assert!(terms.len() >= 5, "document {source} has distinctive terms ({})", terms.len());
                for d in &terms {
                    assert_eq!(d.rows, vocabulary(&conn, &d.term), "round {round}: rows having {}", d.term);
                    let on_list = index.common.store_rows(&d.term, generations).is_some();
                    listed += usize::from(on_list);
                    if !on_list && d.rows >= term_counts::STORED_FROM {
                        // Counted by walking its list, the count is remembered with the index.
                        let remembered = index.term_rows.get(&d.term, generations).is_some();
                        assert_eq!(remembered, !kept_round, "round {round}: how the rows of {} were found", d.term);
                        *if kept_round { &mut kept } else { &mut walked } += 1;
                    }
                    seen.insert(d.term.clone());
                }
                ranked_as_fts5(&conn, &index, &terms, source, 1);
                let (_, _, best) = ranked_as_fts5(&conn, &index, &terms, source, 10);
                let found = by_text(&conn, &index, &stamp, source, 10, Tuned::defaults()).unwrap();
                assert!(found.len() >= 5, "document {source} has similar ones ({found:?})");
                assert_eq!(found, best);
            }
            // Another search space gets documents with every one of those terms: their counts change.
            let words: Vec<String> = seen.into_iter().collect();
            let lines: String = (0..3)
                .map(|i| {
                    format!("{{\"id\": \"x{round}-{i}\", \"title\": \"more\", \"content\": \"{}\"}}\n", words.join(" "))
                })
                .collect();
            files.import_lines("elsewhere", &lines);
        }
        assert!(listed > 0, "some terms were counted from the common terms' lists");
        assert!(kept > 0 && walked > 0, "{kept} terms' rows were read from the kept counts, {walked} walked");
    }

    /// Where the twelve terms include common ones, the documents having only those are not scored, and the best
    /// are still FTS5's best, for every number of similar documents asked.
    #[test]
    fn documents_that_cannot_be_among_the_best_are_not_scored() {
        let mut next = numbers(11);
        let files = store_of_words(4000, 30, || {
            let x = next(1000);
            format!("w{}", x * x * x / 1_000_000)
        });
        let mut conn = files.conn();
        let stamp = Stamp::read(&conn).unwrap();
        let index = SpaceIndex::build(&mut conn, "words", Tuned::defaults()).unwrap();
        let (mut pruned, mut compared) = (0, 0);
        for source in (0..4000).step_by(97) {
            let terms = distinctive_terms(&conn, &index, source, &stamp, Tuned::defaults()).unwrap();
            for keep in [1, 5, 40] {
                let (scored, matched, _) = ranked_as_fts5(&conn, &index, &terms, source, keep);
                pruned += usize::from(scored < matched);
                compared += 1;
            }
        }
        assert!(pruned * 2 > compared, "documents were left unscored in {pruned} of {compared} rankings");
    }
}

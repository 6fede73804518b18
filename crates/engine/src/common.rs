//! The full-text lists of a search space's most common terms, kept in memory with the index.
//!
//! A word in a third of a million documents is a third of a million rows of FTS5's lists: walking them and
//! reading each row's positions to score it took most of a search's 60–120 ms at that size, before any facet
//! was counted. For the terms in at least a twentieth of the space's documents (and at least 20,000: the
//! defaults of [`Tuning::common_terms_share`] and [`Tuning::common_terms_documents`]), the index keeps each term's documents as a bitmap and, per document, the weighted
//! frequency bm25 reads (title 5, description 2, body 1 per occurrence). A search whose every clause is one
//! such term then takes its matches from the bitmaps and scores them from the frequencies and the row sizes
//! the index already holds, with FTS5's own formula and statistics: the answer is the one FTS5 would give.
//!
//! Which terms: the words in at least that share of an even sample of the space's documents (split and folded
//! as the full-text index does), each then walked once in FTS5 to make its list (half of them by a second
//! thread on a connection of its own); one that turns out rarer is dropped. Only words of ASCII letters and
//! digits are kept, whose folding is plain lower case whichever way a query spells them.
//!
//! bm25 reads store-wide statistics: the average row size and row count come from FTS5's averages record at
//! each search ([`Totals`]); for a query of several words, each word's number of rows in the whole store is
//! counted when its list is made and holds only while no search space's documents changed since (the sum of
//! every space's generation). Otherwise the search goes to FTS5 as before. A query with one clause without a
//! list next to clauses with one walks that clause alone in FTS5 (a rare word's list is short) and takes the
//! others from their lists.

use std::collections::HashMap;

use roaring::RoaringBitmap;
use rusqlite::Connection;

use super::fetch;
use super::index::SpaceIndex;
use super::kept::Stamp;
use super::query::{Clause, TextQuery};
use super::rank::{self, Matches, TermCollect};
use super::score;
use super::text;
#[cfg(doc)]
use super::tuning::Tuning;
use super::tuning::{EnginePath, PathsTaken};
use crate::error::EngineError;

// Why the defaults of `Tuning`: a term in fewer than 20,000 documents is walked in FTS5 in a few ms; at 1M
// documents a word in 50,000 costs 10–20 ms in FTS5, while a twentieth instead of a tenth of the documents
// adds a third to the lists' memory (docs/performance.md).
/// Documents sampled for the terms to consider.
const SAMPLE: u32 = 2_000;
/// A sampled term is considered from this part of the share on (the sample's share varies around the true one).
const SAMPLE_MARGIN: f64 = 0.9;

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
    /// A list from what a walk collected of the term.
    fn new(collected: &TermCollect) -> TermList {
        let docs = RoaringBitmap::from_lsb0_bytes(0, &collected.bits);
        let mut small = Vec::with_capacity(docs.len() as usize);
        let mut large = HashMap::new();
        for (position, doc) in docs.iter().enumerate() {
            let f = collected.frequencies.get(doc as usize).copied().unwrap_or(0);
            if f == u8::MAX {
                large.insert(position as u32, collected.large.get(&doc).copied().unwrap_or(u32::from(u8::MAX)));
            }
            small.push(f);
        }
        TermList { docs, small, large, store_rows: collected.rows }
    }

    /// The weighted frequency of the document at `position` in `docs`.
    fn frequency(&self, position: usize) -> f64 {
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

/// FTS5's store-wide totals, from its averages record: rows, and tokens over every column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Totals {
    pub rows: f64,
    pub tokens: f64,
}

impl Totals {
    /// The totals of FTS5's averages record (a varint row count, then one varint token count per column).
    pub(crate) fn of_record(record: &[u8]) -> Option<Totals> {
        let (rows, mut at) = super::build::sqlite_varint(record)?;
        let mut tokens = 0u64;
        while at < record.len() {
            let (column, used) = super::build::sqlite_varint(&record[at..])?;
            tokens = tokens.saturating_add(column);
            at += used;
        }
        Some(Totals { rows: rows.max(1) as f64, tokens: tokens as f64 })
    }
}

impl CommonTerms {
    /// The lists of the terms of `index` in at least `fewest` of its documents, made in one read transaction
    /// of the state the index was built from (none when the store has changed since: the index is then
    /// rebuilt at the next search anyway).
    pub(crate) fn build(conn: &mut Connection, index: &SpaceIndex, fewest: u64) -> Result<CommonTerms, EngineError> {
        let n = index.rowids.len() as u64;
        if n < fewest {
            return Ok(CommonTerms::default());
        }
        let tx = conn.transaction()?;
        if super::index::read_generation(&tx, &index.space)? != index.generation {
            return Ok(CommonTerms::default());
        }
        let generations = Stamp::read(&tx)?.generations;
        let candidates = sampled_terms(&tx, index, fewest as f64 / n as f64 * SAMPLE_MARGIN)?;
        // Half of the terms are walked by a second thread on a connection of its own, when it reads the same
        // state of the store; otherwise (or if it fails) this thread walks them too.
        let mine: Vec<&String> = candidates.iter().step_by(2).collect();
        let theirs: Vec<&String> = candidates.iter().skip(1).step_by(2).collect();
        let reader = crate::reader::documents_reader(&tx)?;
        let mut lists = std::thread::scope(|s| -> Result<HashMap<String, TermList>, EngineError> {
            let helper = reader.map(|mut reader| {
                let theirs = &theirs;
                s.spawn(move || -> Result<Option<HashMap<String, TermList>>, EngineError> {
                    let tx = reader.transaction()?;
                    let (generation, sum) =
                        (super::index::read_generation(&tx, &index.space)?, Stamp::read(&tx)?.generations);
                    if generation != index.generation || sum != generations {
                        return Ok(None);
                    }
                    Ok(Some(walk_terms(&tx, index, theirs, fewest)?))
                })
            });
            let mut lists = walk_terms(&tx, index, &mine, fewest)?;
            let helped = helper.and_then(|h| h.join().ok()).and_then(Result::ok).flatten();
            lists.extend(match helped {
                Some(theirs) => theirs,
                None => walk_terms(&tx, index, &theirs, fewest)?,
            });
            Ok(lists)
        })?;
        lists.shrink_to_fit();
        tx.commit()?;
        Ok(CommonTerms { lists, generations })
    }

    /// Per clause of `query`, the rows of the whole store having it, where it is a term with a list and the
    /// lists' row counts still hold in a store whose generations add up to `generations`.
    pub(crate) fn known_rows(&self, query: &TextQuery, generations: i64) -> Vec<Option<u64>> {
        if generations != self.generations {
            return Vec::new();
        }
        query.clauses.iter().map(|c| self.list(c).map(|l| l.store_rows)).collect()
    }

    /// The rows of the whole store having `term` (a folded word), where it has a list whose row count still
    /// holds in a store whose generations add up to `generations`.
    pub(crate) fn store_rows(&self, term: &str, generations: i64) -> Option<u64> {
        if generations != self.generations || !is_kept_word(term) {
            return None;
        }
        self.lists.get(term).map(|l| l.store_rows)
    }

    /// The list of a query's clause, if it is a term with one.
    fn list(&self, clause: &Clause) -> Option<&TermList> {
        (!clause.prefix && is_kept_word(&clause.text)).then(|| self.lists.get(&clause.text.to_ascii_lowercase()))?
    }

    /// The matches of `query` with the scores of those in `wanted` (all without it), when every clause of it is
    /// a term with a list, or all but one of several, which FTS5 then walks alone (a rare word next to common
    /// ones: its list is short, theirs are not walked); and, for several clauses, while the lists' row counts
    /// still hold in a store whose generations add up to `generations`. `None` otherwise. Notes the path it
    /// took in `taken`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn matches(
        &self,
        conn: &Connection,
        index: &SpaceIndex,
        query: &TextQuery,
        totals: Totals,
        generations: i64,
        wanted: Option<&RoaringBitmap>,
        taken: &PathsTaken,
    ) -> Result<Option<Matches>, EngineError> {
        if self.lists.is_empty() || query.clauses.is_empty() {
            return Ok(None);
        }
        let listed: Vec<Option<&TermList>> = query.clauses.iter().map(|c| self.list(c)).collect();
        if listed.len() > 1 && generations != self.generations {
            return Ok(None);
        }
        let unlisted: Vec<usize> = listed.iter().enumerate().filter(|(_, l)| l.is_none()).map(|(i, _)| i).collect();
        let walked = match unlisted[..] {
            [] => {
                taken.note(EnginePath::CommonTermsOnly);
                None
            }
            [i] if listed.len() > 1 => {
                taken.note(EnginePath::CommonTermsAndOneWalked);
                let mut collected = TermCollect::new(index, Vec::new());
                rank::term_list(conn, index, &query.clauses[i].to_fts(), &mut collected)?;
                Some(TermList::new(&collected))
            }
            _ => return Ok(None),
        };
        let lists: Vec<&TermList> = listed.into_iter().filter_map(|l| l.or(walked.as_ref())).collect();
        // One phrase: its idf multiplies every score alike, and FTS5's path leaves it out too.
        let idf: Vec<f64> = if lists.len() == 1 {
            vec![1.0]
        } else {
            lists.iter().map(|l| score::idf(totals.rows, l.store_rows as f64)).collect()
        };
        let mut smallest_first = lists.clone();
        smallest_first.sort_by_key(|l| l.docs.len());
        let mut all = smallest_first[0].docs.clone();
        for list in &smallest_first[1..] {
            all &= &list.docs;
        }
        let avgdl = totals.tokens / totals.rows;
        let score = |doc: u32, freq: &[f64]| score::bm25(freq, &idf, f64::from(index.text_length(doc)), avgdl);
        if let ([list], None) = (&lists[..], wanted) {
            // One word, every match scored (the preview as a designer types): one walk of its list.
            let scored = list.docs.iter().enumerate().map(|(p, doc)| (doc, score(doc, &[list.frequency(p)]))).collect();
            return Ok(Some(Matches { all, scored }));
        }
        let scored_docs: Vec<u32> = match wanted {
            Some(wanted) => (&all & wanted).iter().collect(),
            None => all.iter().collect(),
        };
        // Per scored document, the frequency of each clause (clause after clause).
        let k = lists.len();
        let mut freq = vec![0.0f64; scored_docs.len() * k];
        for (i, list) in lists.iter().enumerate() {
            frequencies_of(list, &scored_docs, |j, f| freq[j * k + i] = f);
        }
        let scored =
            scored_docs.iter().enumerate().map(|(j, &doc)| (doc, score(doc, &freq[j * k..(j + 1) * k]))).collect();
        Ok(Some(Matches { all, scored }))
    }
}

/// The lists of `terms` in `index` that have at least `fewest` documents, each term's list walked in FTS5 once.
fn walk_terms(
    conn: &Connection,
    index: &SpaceIndex,
    terms: &[&String],
    fewest: u64,
) -> Result<HashMap<String, TermList>, EngineError> {
    let mut lists = HashMap::new();
    let mut frequencies = Vec::new();
    for &term in terms {
        let mut collected = TermCollect::new(index, frequencies);
        rank::term_list(conn, index, &Clause { text: term.clone(), prefix: false }.to_fts(), &mut collected)?;
        let list = TermList::new(&collected);
        if list.docs.len() >= fewest {
            lists.insert(term.clone(), list);
        }
        frequencies = collected.frequencies;
    }
    Ok(lists)
}

/// Calls `put(j, frequency)` for each `docs[j]` (ascending, every one in `list`): by walking the list alongside
/// when they are many, by its rank of each one when they are few.
fn frequencies_of(list: &TermList, docs: &[u32], mut put: impl FnMut(usize, f64)) {
    if (docs.len() as u64).saturating_mul(64) < list.docs.len() {
        for (j, &doc) in docs.iter().enumerate() {
            put(j, list.frequency(list.docs.rank(doc).saturating_sub(1) as usize));
        }
        return;
    }
    let mut j = 0;
    for (position, doc) in list.docs.iter().enumerate() {
        let Some(&want) = docs.get(j) else { break };
        if doc == want {
            put(j, list.frequency(position));
            j += 1;
        }
    }
}

/// Whether a query's word is kept as a term: ASCII letters and digits only, whose FTS5 term is its lower case.
fn is_kept_word(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The words in at least `share` of an even sample of the documents of `index`.
fn sampled_terms(conn: &Connection, index: &SpaceIndex, share: f64) -> Result<Vec<String>, EngineError> {
    let n = index.rowids.len() as u32;
    let step = (n / SAMPLE).max(1);
    let mut sampled = 0u32;
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut words: Vec<String> = Vec::new();
    for doc in (0..n).step_by(step as usize).take(SAMPLE as usize) {
        words.clear();
        words.extend(text::tokens(&fetch::text_of(conn, index, doc)?).filter(|w| is_kept_word(w)));
        words.sort_unstable();
        words.dedup();
        for word in words.drain(..) {
            *seen.entry(word).or_insert(0) += 1;
        }
        sampled += 1;
    }
    let least = (f64::from(sampled) * share).max(1.0);
    let mut terms: Vec<String> = seen.into_iter().filter(|&(_, c)| f64::from(c) >= least).map(|(w, _)| w).collect();
    terms.sort_unstable();
    Ok(terms)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use roaring::RoaringBitmap;
    use rusqlite::Connection;
    use studio_model::{Config, SearchRequest, SelectedFacet};

    use super::{CommonTerms, TermList, Totals};
    use crate::index::SpaceIndex;
    use crate::kept::Stamp;
    use crate::query::TextQuery;
    use crate::rank::TermCollect;
    use crate::test_documents::{news_config, TestFiles, NEWS_DOCUMENTS, NEWS_SPACE};
    use crate::tuning::Tuned;
    use crate::{rank, run, snapshot};

    /// Lists for the corpus's terms in at least a tenth of its documents.
    const FEWEST: u64 = (NEWS_DOCUMENTS / 10) as u64;

    /// The corpus's index, with the lists of its common terms.
    fn listed_index(conn: &mut Connection) -> SpaceIndex {
        let mut index = SpaceIndex::build(conn, NEWS_SPACE, Tuned::defaults()).unwrap();
        index.common = CommonTerms::build(conn, &index, FEWEST).unwrap();
        index
    }

    /// FTS5's totals and the sum of every search space's generation, as a search reads them.
    fn stamp(conn: &Connection) -> (Totals, i64) {
        let stamp = Stamp::read(conn).unwrap();
        (Totals::of_record(&stamp.averages).unwrap(), stamp.generations)
    }

    fn sorted(mut scored: Vec<(u32, f64)>) -> Vec<(u32, f64)> {
        scored.sort_by_key(|p| p.0);
        scored
    }

    /// Matches from the lists are FTS5's, each score FTS5's (its bm25 as `rank::matches` computes it), for one
    /// word and several, in any case, with and without a selection.
    #[test]
    fn lists_give_the_matches_and_scores_fts5_gives() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let index = listed_index(&mut conn);
        let common = &index.common;
        assert!(common.lists.len() >= 5, "the corpus has common words: {:?}", common.lists.keys());
        for (term, list) in &common.lists {
            assert!(list.docs.len() >= FEWEST, "{term} is in {} documents", list.docs.len());
        }
        let (totals, generations) = stamp(&conn);
        let taken = Tuned::defaults().taken;
        let mut words: Vec<&String> = common.lists.keys().collect();
        words.sort();
        // A word without a list, in enough documents to be found next to common ones.
        let rare = (0..50)
            .flat_map(|d| crate::text::tokens(&crate::fetch::text_of(&conn, &index, d).unwrap()).collect::<Vec<_>>())
            .filter(|w| w.len() > 3 && w.bytes().all(|b| b.is_ascii_lowercase()) && !common.lists.contains_key(w))
            .find(|w| rank::matches(&conn, &index, &format!("\"{w}\""), None, &[]).unwrap().all.len() >= 40)
            .expect("a word without a list");
        // Two words in a row in a document with the first common word: a phrase found next to it.
        let first = common.lists[words[0]].docs.min().unwrap();
        let tokens: Vec<String> = crate::text::tokens(&crate::fetch::text_of(&conn, &index, first).unwrap()).collect();
        let phrase = tokens
            .windows(2)
            .map(|w| format!("{} \"{} {}\"", words[0], w[0], w[1]))
            .find(|q| {
                !rank::matches(&conn, &index, &TextQuery::parse(q).to_fts().unwrap(), None, &[]).unwrap().all.is_empty()
            })
            .expect("a phrase of the document");
        let inputs = [
            words[0].clone(),
            words[1].to_uppercase(),
            format!("{} {}", words[2], words[3]),
            format!("{} {} {}", words[4], words[0], words[4]),
            // One clause without a list, walked alone: a word, a phrase, a prefix.
            format!("{} {rare}", words[0]),
            format!("{rare} {} {}", words[1], words[2]),
            phrase,
            format!("{} wa*", words[0]),
        ];
        for input in &inputs {
            let query = TextQuery::parse(input);
            let expression = query.to_fts().unwrap();
            let every = rank::matches(&conn, &index, &expression, None, &[]).unwrap();
            assert!(every.all.len() > 3, "{input} matches enough documents ({})", every.all.len());
            let some: RoaringBitmap = every.all.iter().step_by(3).collect();
            for wanted in [None, Some(&some)] {
                let listed = common
                    .matches(&conn, &index, &query, totals, generations, wanted, taken)
                    .unwrap()
                    .expect("answered from the lists");
                let fts5 = rank::matches(&conn, &index, &expression, wanted, &[]).unwrap();
                assert_eq!(listed.all, fts5.all, "{input}: matches");
                assert_eq!(sorted(listed.scored), sorted(fts5.scored), "{input}: scores");
            }
        }
        // A prefix, a phrase or a word without a list alone, or two clauses without one, are FTS5's to answer.
        for input in [
            format!("{}*", words[0]),
            format!("\"{} {}\"", words[0], words[1]),
            rare.clone(),
            format!("{} {rare} wa*", words[0]),
        ] {
            let query = TextQuery::parse(&input);
            assert!(
                common.matches(&conn, &index, &query, totals, generations, None, taken).unwrap().is_none(),
                "{input}"
            );
        }
        // FTS5, told the rows of the words with a list, scores as it does counting them itself.
        let mixed = TextQuery::parse(&format!("{} {rare} {}", words[0], words[1]));
        let known = common.known_rows(&mixed, generations);
        assert_eq!(known.iter().map(Option::is_some).collect::<Vec<_>>(), [true, false, true]);
        let expression = mixed.to_fts().unwrap();
        let told = rank::matches(&conn, &index, &expression, None, &known).unwrap();
        let counted = rank::matches(&conn, &index, &expression, None, &[]).unwrap();
        assert!(!told.all.is_empty(), "{expression} matches");
        assert_eq!(sorted(told.scored), sorted(counted.scored));
    }

    /// bm25's statistics count every search space: after an import into another one, a word alone is still
    /// answered from its list (with the store's new averages), several words go to FTS5, and both equal FTS5's.
    #[test]
    fn an_import_elsewhere_keeps_answers_exact() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let index = listed_index(&mut conn);
        let mut words: Vec<String> = index.common.lists.keys().cloned().collect();
        words.sort();
        let lines = format!(
            "{{\"id\": \"x1\", \"title\": \"{0} {0} {0}\", \"content\": \"{1} and {0}\"}}\n",
            words[0], words[1]
        );
        files.import_lines("elsewhere", &lines);
        let (totals, generations) = stamp(&conn);
        let taken = Tuned::defaults().taken;
        assert_ne!(generations, index.common.generations);
        let one = TextQuery::parse(&words[0]);
        let listed = index
            .common
            .matches(&conn, &index, &one, totals, generations, None, taken)
            .unwrap()
            .expect("one word: its list");
        let fts5 = rank::matches(&conn, &index, &one.to_fts().unwrap(), None, &[]).unwrap();
        assert_eq!(sorted(listed.scored), sorted(fts5.scored));
        let two = TextQuery::parse(&format!("{} {}", words[0], words[1]));
        let answer = index.common.matches(&conn, &index, &two, totals, generations, None, taken).unwrap();
        assert!(answer.is_none(), "several words: FTS5");
        assert!(index.common.known_rows(&two, generations).is_empty(), "and FTS5 counts their rows itself");
        let known = index.common.known_rows(&two, index.common.generations);
        assert_eq!(known.len(), 2);
        assert!(known.iter().all(Option::is_some));
    }

    /// Whole searches (facet counts, the page, the total) answer the same from the lists as from FTS5.
    #[test]
    fn searches_answer_the_same_with_and_without_lists() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let listed = listed_index(&mut conn);
        let plain = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
        assert!(plain.common.lists.is_empty(), "a store this small keeps no lists by default");
        let config: Config = news_config();
        let mut words: Vec<&String> = listed.common.lists.keys().collect();
        words.sort();
        let mut compared = 0;
        for input in [words[0].clone(), format!("{} {}", words[1], words[2]), format!("{} {}", words[3], "water")] {
            let words_alone = SearchRequest { input: Some(input.clone()), ..Default::default() };
            let first = run::search(&conn, &plain, &config, &words_alone, Tuned::defaults()).unwrap();
            let clicks: Vec<SelectedFacet> = first
                .facets
                .iter()
                .filter_map(|g| {
                    let r = g.facets.first()?;
                    Some(SelectedFacet { field: g.field.clone(), label: Some(r.label.clone()), value: r.value.clone() })
                })
                .collect();
            let mut requests = vec![words_alone.clone(), SearchRequest { start: Some(10), ..words_alone.clone() }];
            requests.push(SearchRequest { selected_facets: clicks[..2].to_vec(), ..words_alone.clone() });
            for request in &requests {
                listed.kept.clear();
                plain.kept.clear();
                let a = run::search(&conn, &listed, &config, request, Tuned::defaults()).unwrap();
                let b = run::search(&conn, &plain, &config, request, Tuned::defaults()).unwrap();
                assert!(
                    a == b,
                    "{request:?}: {} from the lists, {} from FTS5 (or other facets or pages)",
                    a.total,
                    b.total
                );
                compared += usize::from(a.total > 0);
            }
        }
        assert!(compared >= 6, "enough searches found documents ({compared})");
    }

    /// The snapshot keeps the lists, frequencies of 255 and more included.
    #[test]
    fn lists_survive_the_snapshot() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let mut index = listed_index(&mut conn);
        let mut collected = TermCollect::new(&index, Vec::new());
        for (doc, f) in [(3, 7), (5, 255), (9, 70_000)] {
            collected.bits[doc / 8] |= 1 << (doc % 8);
            collected.frequencies[doc] = f.min(255) as u8;
            if f >= 255 {
                collected.large.insert(doc as u32, f);
            }
        }
        let big = TermList::new(&collected);
        assert_eq!([big.frequency(0), big.frequency(1), big.frequency(2)], [7.0, 255.0, 70_000.0]);
        index.common.lists.insert("big".into(), big);
        snapshot::save(&mut conn, &index).unwrap();
        let loaded = snapshot::load(&conn, NEWS_SPACE, index.generation).unwrap().expect("the snapshot");
        assert_eq!(loaded.common.generations, index.common.generations);
        let described = |c: &CommonTerms| {
            c.lists
                .iter()
                .map(|(t, l)| {
                    let f: Vec<f64> = (0..l.docs.len() as usize).map(|p| l.frequency(p)).collect();
                    (t.clone(), (l.docs.clone(), f, l.store_rows))
                })
                .collect::<HashMap<_, _>>()
        };
        assert_eq!(described(&loaded.common), described(&index.common));
    }
}

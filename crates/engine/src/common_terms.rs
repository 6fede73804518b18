//! The full-text lists of a search space's most common terms, kept in memory with the index.
//!
//! A word in a third of a million documents is a third of a million entries of the full-text index's postings:
//! walking them and reading each one's positions to score it took most of a search's 60–120 ms at that size
//! (measured with FTS5, before the engine's own index), before any facet was counted. For the terms in at least a
//! twentieth of the space's documents (and at least 20,000: the defaults of [`Tuning::common_terms_share`] and
//! [`Tuning::common_terms_documents`]), the index keeps each term's documents as a bitmap and, per document, the
//! weighted frequency bm25 reads (title 5, description 2, body 1 per occurrence). A search whose every clause is
//! one such term then takes its matches from the bitmaps and scores them from the frequencies and the row sizes
//! the index already holds, with bm25 as FTS5 defines it and the full-text index's statistics: the answer is the
//! one the full-text search would give.
//!
//! Which terms: the words in at least that share of an even sample of the space's documents (split and folded
//! as the full-text index does), each then walked once in the full-text index to make its list (half of them by
//! a second thread); one that turns out rarer is dropped. Only words of ASCII letters and digits are kept, whose
//! folding is plain lower case whichever way a query spells them.
//!
//! bm25 reads store-wide statistics: the average row size and row count come from the full-text index at each
//! search ([`Totals`]); for a query of several words, each word's number of rows in the whole store is counted
//! when its list is made and holds only while no search space's documents changed since (the sum of every space's
//! generation). Otherwise the search walks the full-text index. A query with one clause without a list next to
//! clauses with one walks that clause alone in the full-text index (a rare word's list is short) and takes the
//! others from their lists.

use std::collections::HashMap;

use roaring::RoaringBitmap;
use rusqlite::Connection;
use studio_text::{Phrase, Snapshot};

use super::fetch;
use super::generation::read_generation;
use super::index::SpaceIndex;
use super::matches::Matches;
use super::query::TextQuery;
use super::score;
use super::stamp::{Stamp, Totals};
use super::term_lists::{is_kept_word, CommonTerms, TermList};
use super::text_search::{self, TermCollect};
#[cfg(doc)]
use super::tuning::Tuning;
use super::tuning::{EnginePath, PathsTaken};
use super::visit::{collect_in, for_each_in};
use crate::error::EngineError;

// Why the defaults of `Tuning`: a term in fewer than 20,000 documents was walked in FTS5 in a few ms; at 1M
// documents a word in 50,000 cost 10–20 ms there, while a twentieth instead of a tenth of the documents
// adds a third to the lists' memory (docs/performance-journal.md).
/// Documents sampled for the terms to consider.
const SAMPLE: u32 = 2_000;
/// A sampled term is considered from this part of the share on (the sample's share varies around the true one).
const SAMPLE_MARGIN: f64 = 0.9;

/// The lists of the terms of `index` in at least `fewest` of its documents, made in one read transaction
/// of the state the index was built from (none when the store has changed since: the index is then
/// rebuilt at the next search anyway).
pub(crate) fn build(conn: &mut Connection, index: &SpaceIndex, fewest: u64) -> Result<CommonTerms, EngineError> {
    let n = index.rowids.len() as u64;
    if n < fewest {
        return Ok(CommonTerms::default());
    }
    let tx = conn.transaction()?;
    if read_generation(&tx, &index.space)? != index.generation {
        return Ok(CommonTerms::default());
    }
    let (stamp, text) = Stamp::read(&tx)?;
    let candidates = sampled_terms(&tx, index, fewest as f64 / n as f64 * SAMPLE_MARGIN)?;
    // Half of the terms are read by a second thread (the index's reads are positioned reads of its files).
    let mine: Vec<&String> = candidates.iter().step_by(2).collect();
    let theirs: Vec<&String> = candidates.iter().skip(1).step_by(2).collect();
    let mut lists = std::thread::scope(|s| -> Result<HashMap<String, TermList>, EngineError> {
        let helper = s.spawn(|| walk_terms(&text, index, &theirs, fewest));
        let mut lists = walk_terms(&text, index, &mine, fewest)?;
        lists.extend(match helper.join() {
            Ok(theirs) => theirs?,
            Err(_) => walk_terms(&text, index, &theirs, fewest)?,
        });
        Ok(lists)
    })?;
    lists.shrink_to_fit();
    tx.commit()?;
    Ok(CommonTerms { lists, generations: stamp.generations })
}

/// The matches of `query` with the scores of those in `wanted` (all without it), when every clause of it is
/// a term with a list in `index`, or all but one of several, which the full-text index then walks alone (a rare
/// word next to common ones: its list is short, theirs are not walked); and, for several clauses, while the lists'
/// row counts still hold in a store whose generations add up to `generations`. `None` otherwise. Notes the path
/// it took in `taken`.
pub(crate) fn matches(
    text: &Snapshot,
    index: &SpaceIndex,
    query: &TextQuery,
    totals: Totals,
    generations: i64,
    wanted: Option<&RoaringBitmap>,
    taken: &PathsTaken,
) -> Result<Option<Matches>, EngineError> {
    let common = &index.common;
    if common.lists.is_empty() || query.clauses.is_empty() {
        return Ok(None);
    }
    let listed: Vec<Option<&TermList>> = query.clauses.iter().map(|c| common.list(c)).collect();
    if listed.len() > 1 && generations != common.generations {
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
            text_search::term_list(text, index, &text_search::phrase(&query.clauses[i]), &mut collected)?;
            Some(list_of(&collected))
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
        let mut scored = Vec::with_capacity(list.docs.len() as usize);
        // A document's place in its list is the number scored before it.
        for_each_in(&list.docs, .., |doc| scored.push((doc, score(doc, &[list.frequency(scored.len())]))));
        return Ok(Some(Matches { all, scored }));
    }
    let scored_docs: Vec<u32> = match wanted {
        Some(wanted) => collect_in(&(&all & wanted), ..),
        None => collect_in(&all, ..),
    };
    // Per scored document, the frequency of each clause (clause after clause).
    let k = lists.len();
    let mut freq = vec![0.0f64; scored_docs.len() * k];
    for (i, list) in lists.iter().enumerate() {
        frequencies_of(list, &scored_docs, |j, f| freq[j * k + i] = f);
    }
    let scored = scored_docs.iter().enumerate().map(|(j, &doc)| (doc, score(doc, &freq[j * k..(j + 1) * k]))).collect();
    Ok(Some(Matches { all, scored }))
}

/// A list from what a walk collected of the term.
pub(crate) fn list_of(collected: &TermCollect) -> TermList {
    let docs = collected.docs.clone();
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

/// The lists of `terms` in `index` that have at least `fewest` documents, each term's list walked in the full-text
/// index once.
fn walk_terms(
    text: &Snapshot,
    index: &SpaceIndex,
    terms: &[&String],
    fewest: u64,
) -> Result<HashMap<String, TermList>, EngineError> {
    let mut lists = HashMap::new();
    let mut frequencies = Vec::new();
    for &term in terms {
        let mut collected = TermCollect::new(index, frequencies);
        text_search::term_list(text, index, &Phrase::new(term, false), &mut collected)?;
        let list = list_of(&collected);
        if list.docs.len() >= fewest {
            lists.insert(term.clone(), list);
        }
        frequencies = collected.into_frequencies();
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
    let (mut j, mut position) = (0, 0);
    let Some(&last) = docs.last() else { return };
    for_each_in(&list.docs, ..=last, |doc| {
        if docs.get(j) == Some(&doc) {
            put(j, list.frequency(position));
            j += 1;
        }
        position += 1;
    });
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
        words.extend(studio_text::tokens(&fetch::text_of(conn, index, doc)?).filter(|w| is_kept_word(w)));
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
mod tests;

//! Full-text matches kept for the searches that come back to the same words.
//!
//! A designer types words into the preview once, then clicks refiners, pages and edits settings: every one of
//! those searches the same words again. Walking FTS5 for a common word is most of such a search at a million
//! documents (every match is a row of FTS5's lists, about 40 ns each before it is scored), so the matches of the
//! last few expressions are kept with their scores, in the index of the search space they belong to (a change
//! of the space's documents makes a new index, and so drops them).
//!
//! What else a score depends on is store-wide: bm25's average row size and, for several phrases, the number of
//! rows having each one count the documents of every search space, which an import into another space changes
//! without touching this index. So each kept entry records the store's [`Stamp`] (the generations of every
//! search space, which each import bumps in the transaction that writes the text index, and FTS5's averages
//! record) and is used only while the store's is the same: a kept answer is always the answer FTS5 would give
//! now.
//!
//! An entry scored only the documents its search's selections allowed; it serves a later search whose
//! selections allow a subset of those (clicking one more refiner), and is replaced otherwise.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use roaring::RoaringBitmap;
use rusqlite::Connection;

use super::common_terms::Totals;
use super::fts::{self, Matches};
use super::index::SpaceIndex;
use super::query::TextQuery;
use super::tuning::{EnginePath, Tuned};
use crate::error::EngineError;

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

/// Matches of a search: `exact` when their scores cover exactly what the search allows (they were just
/// collected for it); otherwise kept ones, scoring more documents than it allows.
pub(crate) struct Found {
    pub matches: Arc<Matches>,
    pub exact: bool,
}

impl KeptMatches {
    /// The documents of `index` matching `query`, with the scores of those in `allowed` (all without it): kept
    /// ones when they still hold, else collected from the common terms' lists or FTS5, and kept. `None` for a
    /// query without words, which puts no condition on the text.
    pub(crate) fn matches(
        &self,
        conn: &Connection,
        index: &SpaceIndex,
        query: &TextQuery,
        allowed: Option<&RoaringBitmap>,
        tuned: Tuned,
    ) -> Result<Option<Found>, EngineError> {
        let Some(expression) = query.to_fts() else { return Ok(None) };
        let expression = expression.as_str();
        let stamp = Stamp::read(conn)?;
        if let Some(matches) = self.find(expression, &stamp, allowed) {
            tuned.taken.note(EnginePath::KeptMatchesReused);
            return Ok(Some(Found { matches, exact: false }));
        }
        let listed = match Totals::of_record(&stamp.averages) {
            Some(totals) => {
                index.common.matches(conn, index, query, totals, stamp.generations, allowed, tuned.taken)?
            }
            None => None,
        };
        let matches = Arc::new(match listed {
            Some(matches) => matches,
            None => {
                let known = index.common.known_rows(query, stamp.generations);
                if known.iter().any(Option::is_some) {
                    tuned.taken.note(EnginePath::CommonTermsRowsTold);
                }
                fts::matches(conn, index, expression, allowed, &known)?
            }
        });
        self.keep(Kept {
            expression: expression.to_owned(),
            stamp,
            bytes: size_of_matches(&matches) + allowed.map_or(0, RoaringBitmap::serialized_size),
            scope: allowed.cloned(),
            matches: matches.clone(),
        });
        Ok(Some(Found { matches, exact: true }))
    }

    fn find(&self, expression: &str, stamp: &Stamp, allowed: Option<&RoaringBitmap>) -> Option<Arc<Matches>> {
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

    fn keep(&self, entry: Kept) {
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

/// What the scores of a full-text query depend on beyond the search space's own documents.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// The sum of every scope's generation: each import bumps its own in the transaction that writes the
    /// text index, and generations only grow.
    pub generations: i64,
    /// FTS5's averages record: the row count and the token totals per column.
    pub averages: Vec<u8>,
}

impl Stamp {
    pub(crate) fn read(conn: &Connection) -> Result<Stamp, EngineError> {
        Ok(conn
            .prepare_cached(
                "SELECT (SELECT coalesce(sum(generation), 0) FROM generations),
                    (SELECT block FROM documents_fts_data WHERE id = 1)",
            )?
            .query_row([], |r| {
                Ok(Stamp { generations: r.get(0)?, averages: r.get::<_, Option<Vec<u8>>>(1)?.unwrap_or_default() })
            })?)
    }
}

fn size_of_matches(matches: &Matches) -> usize {
    matches.scored.capacity() * std::mem::size_of::<(u32, f64)>() + matches.all.serialized_size()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use roaring::RoaringBitmap;
    use studio_model::{Config, SearchRequest, SelectedFacet};

    use crate::fts;
    use crate::index::SpaceIndex;
    use crate::query::TextQuery;
    use crate::test_documents::{news_config, TestFiles, NEWS_SPACE};
    use crate::tuning::Tuned;
    use crate::SearchEngine;

    fn sorted(mut scored: Vec<(u32, f64)>) -> Vec<(u32, f64)> {
        scored.sort_by_key(|p| p.0);
        scored
    }

    /// A designer's searches of the same words (refiners clicked one after another, a page further, the
    /// selection taken back) answer exactly as an engine that never searched before.
    #[test]
    fn searches_of_the_same_words_answer_as_a_fresh_engine() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let config: Config = news_config();
        let engine = SearchEngine::new();
        let mut compared = 0;
        for input in ["the", "the water", "of wa*"] {
            let words = SearchRequest { input: Some(input.into()), ..SearchRequest::default() };
            let first = engine.search(&mut conn, &config, &words).unwrap();
            assert!(first.total > 20, "{input} matches enough documents ({})", first.total);
            // Refiners to click: the first two values of every group, as the answer shows them.
            let clicks: Vec<SelectedFacet> = first
                .facets
                .iter()
                .flat_map(|g| {
                    g.facets.iter().take(2).map(|r| SelectedFacet {
                        field: g.field.clone(),
                        label: Some(r.label.clone()),
                        value: r.value.clone(),
                    })
                })
                .collect();
            assert!(clicks.len() >= 6, "{input}: refiners to click");
            let mut requests = vec![words.clone(), SearchRequest { start: Some(10), ..words.clone() }];
            for n in 1..=3 {
                requests.push(SearchRequest { selected_facets: clicks[..n].to_vec(), ..words.clone() });
            }
            requests.push(SearchRequest { selected_facets: clicks[2..4].to_vec(), ..words.clone() });
            requests.push(SearchRequest { selected_facets: clicks[..1].to_vec(), start: Some(3), ..words.clone() });
            requests.push(words.clone());
            for request in &requests {
                let warm = engine.search(&mut conn, &config, request).unwrap();
                let fresh = SearchEngine::new().search(&mut conn, &config, request).unwrap();
                let ids = |r: &studio_model::SearchResponse| r.result.iter().map(|d| d.id.clone()).collect::<Vec<_>>();
                assert!(
                    warm == fresh,
                    "{request:?}: {} results {:?}, a fresh engine {} {:?} (or different facets)",
                    warm.total,
                    ids(&warm),
                    fresh.total,
                    ids(&fresh)
                );
                compared += usize::from(!warm.result.is_empty());
            }
        }
        assert!(compared > 15, "enough searches had results to compare ({compared})");
    }

    /// Kept matches serve the same words with a narrower selection; a wider one, or a change anywhere in the
    /// store's text index (here an import into another search space, which changes bm25's statistics but not
    /// this index), is collected again, with FTS5's scores as they are now.
    #[test]
    fn kept_matches_hold_only_while_their_scores_do() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
        let query = TextQuery::parse("the water");
        let expression = "\"the\" \"water\"";
        let first = index.kept.matches(&conn, &index, &query, None, Tuned::defaults()).unwrap().unwrap();
        assert!(first.exact && first.matches.all.len() > 20, "collected: {} matches", first.matches.all.len());
        let again = index.kept.matches(&conn, &index, &query, None, Tuned::defaults()).unwrap().unwrap();
        assert!(!again.exact && Arc::ptr_eq(&again.matches, &first.matches), "kept");

        let some: RoaringBitmap = first.matches.all.iter().step_by(2).collect();
        assert!(
            !index.kept.matches(&conn, &index, &query, Some(&some), Tuned::defaults()).unwrap().unwrap().exact,
            "a narrower selection"
        );
        index.kept.clear();
        let narrow = index.kept.matches(&conn, &index, &query, Some(&some), Tuned::defaults()).unwrap().unwrap();
        assert!(narrow.exact && narrow.matches.scored.len() == some.len() as usize);
        let other: RoaringBitmap = first.matches.all.iter().skip(1).step_by(2).collect();
        let wider = index.kept.matches(&conn, &index, &query, Some(&other), Tuned::defaults()).unwrap().unwrap();
        assert!(wider.exact, "a selection outside what was scored is collected again");

        let lines = "{\"id\": \"x1\", \"title\": \"water water\", \"content\": \"the water of the river\"}\n\
                     {\"id\": \"x2\", \"title\": \"dry\", \"content\": \"no rain in a long while, said the farmer\"}\n";
        let mut before = first.matches.scored.clone();
        // An import elsewhere; then the same document again with other words of the same sizes, which leaves
        // FTS5's row count and sizes as they were but not how many rows have "water".
        let again = lines.replace("water water", "fire fire").replace("the water of", "the fire of");
        for lines in [lines.to_owned(), again] {
            files.import_lines("elsewhere", &lines);
            let after = index.kept.matches(&conn, &index, &query, None, Tuned::defaults()).unwrap().unwrap();
            assert!(after.exact, "the store's text index changed: collected again");
            let now = fts::matches(&conn, &index, expression, None, &[]).unwrap();
            assert_eq!(after.matches.all, now.all);
            assert_eq!(sorted(after.matches.scored.clone()), sorted(now.scored), "FTS5's scores as they are now");
            assert_ne!(
                sorted(after.matches.scored.clone()),
                sorted(before),
                "the import changed the scores, so kept ones would have been wrong"
            );
            before = after.matches.scored.clone();
        }
    }
}

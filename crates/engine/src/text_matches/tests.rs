//! Kept matches answer as matches collected afresh would: through a designer's searches, and after a change of
//! the store's text index.

use std::sync::Arc;

use roaring::RoaringBitmap;
use studio_model::{Config, SearchRequest, SelectedFacet};

use super::matches;
use crate::index::SpaceIndex;
use crate::query::TextQuery;
use crate::stamp::Stamp;
use crate::test_documents::{news_config, TestFiles, NEWS_SPACE};
use crate::text_search;
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
/// this index), is collected again, with the scores as they are now.
#[test]
fn kept_matches_hold_only_while_their_scores_do() {
    let files = TestFiles::news();
    let mut conn = files.conn();
    let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
    let query = TextQuery::parse("the water");
    let first = matches(&conn, &index, &query, None, Tuned::defaults()).unwrap().unwrap();
    assert!(first.exact && first.matches.all.len() > 20, "collected: {} matches", first.matches.all.len());
    let again = matches(&conn, &index, &query, None, Tuned::defaults()).unwrap().unwrap();
    assert!(!again.exact && Arc::ptr_eq(&again.matches, &first.matches), "kept");

    let some: RoaringBitmap = first.matches.all.iter().step_by(2).collect();
    assert!(
        !matches(&conn, &index, &query, Some(&some), Tuned::defaults()).unwrap().unwrap().exact,
        "a narrower selection"
    );
    index.kept.clear();
    let narrow = matches(&conn, &index, &query, Some(&some), Tuned::defaults()).unwrap().unwrap();
    assert!(narrow.exact && narrow.matches.scored.len() == some.len() as usize);
    let other: RoaringBitmap = first.matches.all.iter().skip(1).step_by(2).collect();
    let wider = matches(&conn, &index, &query, Some(&other), Tuned::defaults()).unwrap().unwrap();
    assert!(wider.exact, "a selection outside what was scored is collected again");

    let lines = "{\"id\": \"x1\", \"title\": \"water water\", \"content\": \"the water of the river\"}\n\
                 {\"id\": \"x2\", \"title\": \"dry\", \"content\": \"no rain in a long while, said the farmer\"}\n";
    let mut before = first.matches.scored.clone();
    // An import elsewhere; then the same document again with other words of the same sizes, which leaves
    // the index's row count and sizes as they were but not how many rows have "water".
    let again = lines.replace("water water", "fire fire").replace("the water of", "the fire of");
    for lines in [lines.to_owned(), again] {
        files.import_lines("elsewhere", &lines);
        let after = matches(&conn, &index, &query, None, Tuned::defaults()).unwrap().unwrap();
        assert!(after.exact, "the store's text index changed: collected again");
        let now = text_search::matches(&Stamp::read(&conn).unwrap().1, &index, &query, None).unwrap();
        assert_eq!(after.matches.all, now.all);
        assert_eq!(sorted(after.matches.scored.clone()), sorted(now.scored), "the scores as they are now");
        assert_ne!(
            sorted(after.matches.scored.clone()),
            sorted(before),
            "the import changed the scores, so kept ones would have been wrong"
        );
        before = after.matches.scored.clone();
    }
}

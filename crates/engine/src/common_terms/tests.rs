//! The common terms' lists against the full-text index over the news corpus: the same matches and scores, whole searches
//! answered alike, and the lists kept through a snapshot.

use std::collections::HashMap;

use roaring::RoaringBitmap;
use rusqlite::Connection;
use studio_model::{Config, SearchRequest, SelectedFacet};

use super::{build, list_of, matches};
use crate::index::SpaceIndex;
use crate::matches::Matches;
use crate::query::TextQuery;
use crate::stamp::{Stamp, Totals};
use crate::term_lists::CommonTerms;
use crate::test_documents::{news_config, TestFiles, NEWS_DOCUMENTS, NEWS_SPACE};
use crate::text_search::TermCollect;
use crate::tuning::Tuned;
use crate::{run, snapshot, text_search};

/// Lists for the corpus's terms in at least a tenth of its documents.
const FEWEST: u64 = (NEWS_DOCUMENTS / 10) as u64;

/// The corpus's index, with the lists of its common terms.
fn listed_index(conn: &mut Connection) -> SpaceIndex {
    let mut index = SpaceIndex::build(conn, NEWS_SPACE, Tuned::defaults()).unwrap();
    index.common = build(conn, &index, FEWEST).unwrap();
    index
}

/// The index's totals and the sum of every search space's generation, as a search reads them.
fn stamp(conn: &Connection) -> (Totals, i64) {
    let (stamp, _) = Stamp::read(conn).unwrap();
    (stamp.totals(), stamp.generations)
}

/// The matches of `input` read from the full-text index itself.
fn found(conn: &Connection, index: &SpaceIndex, input: &str, wanted: Option<&RoaringBitmap>) -> Matches {
    let (_, text) = Stamp::read(conn).unwrap();
    text_search::matches(&text, index, &TextQuery::parse(input), wanted).unwrap()
}

/// The full-text index as it stands.
fn text(conn: &Connection) -> studio_text::Snapshot {
    Stamp::read(conn).unwrap().1
}

fn sorted(mut scored: Vec<(u32, f64)>) -> Vec<(u32, f64)> {
    scored.sort_by_key(|p| p.0);
    scored
}

/// Matches from the lists are the full-text index's, each score its own (bm25 as `text_search::matches` computes
/// it), for one word and several, in any case, with and without a selection.
#[test]
fn lists_give_the_matches_and_scores_the_index_gives() {
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
        .flat_map(|d| studio_text::tokens(&crate::fetch::text_of(&conn, &index, d).unwrap()).collect::<Vec<_>>())
        .filter(|w| w.len() > 3 && w.bytes().all(|b| b.is_ascii_lowercase()) && !common.lists.contains_key(w))
        .find(|w| found(&conn, &index, w, None).all.len() >= 40)
        .expect("a word without a list");
    // Two words in a row in a document with the first common word: a phrase found next to it.
    let first = common.lists[words[0]].docs.min().unwrap();
    let tokens: Vec<String> = studio_text::tokens(&crate::fetch::text_of(&conn, &index, first).unwrap()).collect();
    let phrase = tokens
        .windows(2)
        .map(|w| format!("{} \"{} {}\"", words[0], w[0], w[1]))
        .find(|q| !found(&conn, &index, q, None).all.is_empty())
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
        let every = found(&conn, &index, input, None);
        assert!(every.all.len() > 3, "{input} matches enough documents ({})", every.all.len());
        let some: RoaringBitmap = every.all.iter().step_by(3).collect();
        for wanted in [None, Some(&some)] {
            let listed = matches(&text(&conn), &index, &query, totals, generations, wanted, taken)
                .unwrap()
                .expect("answered from the lists");
            let read = found(&conn, &index, input, wanted);
            assert_eq!(listed.all, read.all, "{input}: matches");
            assert_eq!(sorted(listed.scored), sorted(read.scored), "{input}: scores");
        }
    }
    // A prefix, a phrase or a word without a list alone, or two clauses without one, are the index's to answer.
    for input in [
        format!("{}*", words[0]),
        format!("\"{} {}\"", words[0], words[1]),
        rare.clone(),
        format!("{} {rare} wa*", words[0]),
    ] {
        let query = TextQuery::parse(&input);
        let answer = matches(&text(&conn), &index, &query, totals, generations, None, taken).unwrap();
        assert!(answer.is_none(), "{input}");
    }
}

/// bm25's statistics count every search space: after an import into another one, a word alone is still
/// answered from its list (with the store's new averages), several words go to the index, and both equal its.
#[test]
fn an_import_elsewhere_keeps_answers_exact() {
    let files = TestFiles::news();
    let mut conn = files.conn();
    let index = listed_index(&mut conn);
    let mut words: Vec<String> = index.common.lists.keys().cloned().collect();
    words.sort();
    let lines =
        format!("{{\"id\": \"x1\", \"title\": \"{0} {0} {0}\", \"content\": \"{1} and {0}\"}}\n", words[0], words[1]);
    files.import_lines("elsewhere", &lines);
    let (totals, generations) = stamp(&conn);
    let taken = Tuned::defaults().taken;
    assert_ne!(generations, index.common.generations);
    let one = TextQuery::parse(&words[0]);
    let listed =
        matches(&text(&conn), &index, &one, totals, generations, None, taken).unwrap().expect("one word: its list");
    assert_eq!(sorted(listed.scored), sorted(found(&conn, &index, &words[0], None).scored));
    let two = TextQuery::parse(&format!("{} {}", words[0], words[1]));
    let answer = matches(&text(&conn), &index, &two, totals, generations, None, taken).unwrap();
    assert!(answer.is_none(), "several words: the index");
}

/// Whole searches (facet counts, the page, the total) answer the same from the lists as from the index.
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
                "{request:?}: {} from the lists, {} from the index (or other facets or pages)",
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
        collected.docs.insert(doc as u32);
        collected.frequencies[doc] = f.min(255) as u8;
        if f >= 255 {
            collected.large.insert(doc as u32, f);
        }
    }
    let big = list_of(&collected);
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

//! The `text` plugin against FTS5's own bm25 ranking, over generated words and the news corpus.

use std::collections::BTreeSet;

use rusqlite::Connection;

use super::{any_term, by_text, distinctive_terms, usable_term, Distinctive};
use crate::common_terms;
use crate::index::SpaceIndex;
use crate::score;
use crate::similar::numbers;
use crate::stamp::Stamp;
use crate::test_documents::{fts5_bm25, TestFiles, NEWS_DOCUMENTS, NEWS_SPACE};
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

/// FTS5's ranking of `expression` over the documents of `index` without `source`: (dense number, bm25).
fn fts5_ranking(fts5: &Connection, index: &SpaceIndex, expression: &str, source: u32) -> Vec<(u32, f64)> {
    let mut ranked: Vec<(u32, f64)> = fts5_bm25(fts5, expression)
        .into_iter()
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
    fts5: &Connection,
    index: &SpaceIndex,
    terms: &[Distinctive],
    source: u32,
    keep: usize,
) -> (usize, usize, Vec<u32>) {
    let expression: Vec<String> = terms.iter().map(|d| format!("\"{}\"", d.term)).collect();
    let expected = fts5_ranking(fts5, index, &expression.join(" OR "), source);
    let score = |d: u32| expected.iter().find(|e| e.0 == d).map(|e| e.1);
    let (stamp, text) = Stamp::read(conn).unwrap();
    let scored: Vec<(u32, f64)> = any_term(&text, index, terms, stamp.totals(), source, keep)
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

/// The `text` plugin ranks by FTS5's bm25 over the source's distinctive terms, each counted in the store as it
/// is now (from the common terms' lists, or the index's dictionaries, or its lists while replaced rows are not
/// merged away), also after imports into another search space changed those counts but left this index in place.
#[test]
fn text_plugin_ranks_by_bm25_over_the_store_as_it_is() {
    let files = TestFiles::news();
    let mut conn = files.conn();
    let mut index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
    index.common = common_terms::build(&mut conn, &index, (NEWS_DOCUMENTS / 100) as u64).unwrap();
    let sources = [0, 7, 50, 300, 301];
    let (mut listed, mut counted, mut with_deleted) = (0, 0, 0);
    for round in 0..3 {
        // The oracle over the documents as they are now; in the third round the index has replaced rows.
        let fts5 = files.fts5();
        let (stamp, text) = Stamp::read(&conn).unwrap();
        let mut seen = BTreeSet::new();
        for source in sources {
            let terms = distinctive_terms(&conn, &index, source, &stamp, &text, Tuned::defaults()).unwrap();
            assert!(terms.len() >= 5, "document {source} has distinctive terms ({})", terms.len());
            for d in &terms {
                let rows = fts5_bm25(&fts5, &format!("\"{}\"", d.term)).len() as u64;
                assert_eq!(d.rows, rows, "round {round}: rows having {}", d.term);
                let on_list = index.common.store_rows(&d.term, stamp.generations).is_some();
                listed += usize::from(on_list);
                counted += usize::from(!on_list);
                with_deleted += usize::from(!on_list && text.deleted() > 0);
                seen.insert(d.term.clone());
            }
            ranked_as_fts5(&conn, &fts5, &index, &terms, source, 1);
            let (_, _, best) = ranked_as_fts5(&conn, &fts5, &index, &terms, source, 10);
            let found = by_text(&conn, &index, &stamp, &text, source, 10, Tuned::defaults()).unwrap();
            assert!(found.len() >= 5, "document {source} has similar ones ({found:?})");
            assert_eq!(found, best);
        }
        // Another search space gets documents with every one of those terms (the same ones again in the second
        // round, replacing those of the first): their counts change.
        let words: Vec<String> = seen.into_iter().collect();
        let lines: String = (0..3)
            .map(|i| {
                format!("{{\"id\": \"x{i}\", \"title\": \"more {round}\", \"content\": \"{}\"}}\n", words.join(" "))
            })
            .collect();
        files.import_lines("elsewhere", &lines);
    }
    assert!(listed > 0, "some terms were counted from the common terms' lists");
    assert!(
        counted > 0 && with_deleted > 0,
        "{counted} terms' rows were read from the index, {with_deleted} past replaced rows"
    );
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
    let fts5 = files.fts5();
    let (stamp, text) = Stamp::read(&conn).unwrap();
    let index = SpaceIndex::build(&mut conn, "words", Tuned::defaults()).unwrap();
    let (mut pruned, mut compared) = (0, 0);
    for source in (0..4000).step_by(97) {
        let terms = distinctive_terms(&conn, &index, source, &stamp, &text, Tuned::defaults()).unwrap();
        for keep in [1, 5, 40] {
            let (scored, matched, _) = ranked_as_fts5(&conn, &fts5, &index, &terms, source, keep);
            pruned += usize::from(scored < matched);
            compared += 1;
        }
    }
    assert!(pruned * 2 > compared, "documents were left unscored in {pruned} of {compared} rankings");
}

//! Matches and scores from the engine's full-text index against FTS5 itself over the same documents: every row
//! found, the wanted ones scored, each score FTS5's own bm25 (for one phrase, in its order).

use roaring::RoaringBitmap;

use super::{bitmap_of, matches};
use crate::index::SpaceIndex;
use crate::query::TextQuery;
use crate::stamp::Stamp;
use crate::test_documents::{fts5_bm25, TestDocument, TestFiles, NEWS_SPACE};
use crate::tuning::Tuned;

fn by_doc(mut scored: Vec<(u32, f64)>) -> Vec<(u32, f64)> {
    scored.sort_by_key(|p| p.0);
    scored
}

fn close(ours: f64, theirs: f64) -> bool {
    (ours - theirs).abs() <= 1e-9 * theirs.abs().max(1.0)
}

/// Several clauses (words, phrases, prefixes, accents and case folded): every row FTS5 finds, only the wanted
/// ones scored, and each score FTS5's own bm25.
#[test]
fn matches_are_fts5_rows_and_scores_fts5_bm25() {
    let files = TestFiles::news();
    let mut conn = files.conn();
    let fts5 = files.fts5();
    let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
    let (_, text) = Stamp::read(&conn).unwrap();
    for input in ["the of", "The WA*", "\"city council\" water", "river flood"] {
        let query = TextQuery::parse(input);
        let bm25: Vec<(u32, f64)> = fts5_bm25(&fts5, &query.to_fts().unwrap())
            .into_iter()
            .map(|(row, score)| (index.row(row).expect("a news document").dense, score))
            .collect();
        assert!(bm25.len() > 10, "{input} matches enough rows ({})", bm25.len());
        let every = matches(&text, &index, &query, None).unwrap();
        assert_eq!(every.all, bm25.iter().map(|p| p.0).collect::<RoaringBitmap>(), "matches of {input}");
        let (ours, theirs) = (by_doc(every.scored.clone()), by_doc(bm25.clone()));
        assert_eq!(ours.len(), theirs.len());
        for ((dense, ours), (_, theirs)) in ours.iter().zip(&theirs) {
            assert!(close(*ours, *theirs), "{input} doc {dense}: {ours} vs {theirs}");
        }
        let wanted: RoaringBitmap = bm25.iter().map(|p| p.0).step_by(3).collect();
        let some = matches(&text, &index, &query, Some(&wanted)).unwrap();
        assert_eq!(some.all, every.all, "every match is collected whatever is wanted");
        let scored: Vec<u32> = by_doc(some.scored).into_iter().map(|p| p.0).collect();
        assert_eq!(scored, wanted.iter().collect::<Vec<u32>>(), "only the wanted ones are scored");
    }
}

/// One phrase: the rows come in bm25's order (its inverse document frequency, a common factor, left out).
#[test]
fn one_phrase_ranks_as_fts5() {
    let files = TestFiles::news();
    let mut conn = files.conn();
    let fts5 = files.fts5();
    let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
    let (_, text) = Stamp::read(&conn).unwrap();
    let mut compared = 0;
    for input in ["the", "\"climate policy\"", "wa*"] {
        let query = TextQuery::parse(input);
        let order = |mut scored: Vec<(u32, f64)>| {
            scored.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            scored.into_iter().map(|p| p.0).collect::<Vec<u32>>()
        };
        let theirs: Vec<(u32, f64)> = fts5_bm25(&fts5, &query.to_fts().unwrap())
            .into_iter()
            .map(|(row, score)| (index.row(row).expect("a news document").dense, score))
            .collect();
        let ours = matches(&text, &index, &query, None).unwrap().scored;
        compared += theirs.len();
        assert_eq!(order(ours), order(theirs), "order of {input}");
    }
    assert!(compared > 100, "the queries matched enough rows to compare ({compared})");
}

/// A replaced document is found by its new words only, and the scores stay FTS5's (whose totals count only the
/// live rows) before and after the index is merged.
#[test]
fn replaced_documents_score_as_fts5_before_and_after_a_merge() {
    let files = TestFiles::news();
    let replaced: Vec<TestDocument> = (0..40)
        .map(|i| TestDocument::text(&format!("news-{i}"), "harbour renewal", &format!("quayside harbour works {i}")))
        .collect();
    files.import(NEWS_SPACE, &replaced);
    let fts5 = files.fts5();
    for merged in [false, true] {
        if merged {
            assert!(crate::text_index::merge(&files.text_dir()).unwrap(), "the import left segments to merge");
        }
        let mut conn = files.conn();
        let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
        let (stamp, text) = Stamp::read(&conn).unwrap();
        assert_eq!(stamp.statistics.rows, index.len(), "one search space: its documents are the index's rows");
        for input in ["harbour renewal", "quayside the"] {
            let query = TextQuery::parse(input);
            let theirs = by_doc(
                fts5_bm25(&fts5, &query.to_fts().unwrap())
                    .into_iter()
                    .map(|(row, score)| (index.row(row).expect("a live document").dense, score))
                    .collect(),
            );
            let ours = by_doc(matches(&text, &index, &query, None).unwrap().scored);
            assert_eq!(ours.len(), theirs.len(), "{input} (merged: {merged})");
            assert!(ours.iter().zip(&theirs).all(|(a, b)| a.0 == b.0 && close(a.1, b.1)), "{input}");
        }
    }
}

/// Blocks of 4,095, 4,096 and 4,097 documents made from bits read back whole after being written out, as the
/// snapshot's term lists are.
#[test]
fn a_block_of_exactly_4096_documents_reads_back_after_being_written() {
    let mut bits = vec![0u8; 3 * 8192];
    for (block, count) in [4095usize, 4096, 4097].into_iter().enumerate() {
        for i in 0..count {
            let doc = block * 65_536 + i * 13;
            bits[doc / 8] |= 1 << (doc % 8);
        }
    }
    let docs = bitmap_of(&bits);
    let mut written = Vec::new();
    docs.serialize_into(&mut written).unwrap();
    let read = RoaringBitmap::deserialize_unchecked_from(&written[..]).unwrap();
    assert_eq!(docs.len(), 4095 + 4096 + 4097);
    assert_eq!(read.iter().collect::<Vec<u32>>(), docs.iter().collect::<Vec<u32>>());
}

//! Collected matches and `studio_rank` against FTS5 itself: every row found, the wanted ones scored, each score
//! FTS5's own bm25 (or in its order).

use roaring::RoaringBitmap;

use super::matches;
use crate::index::SpaceIndex;
use crate::test_documents::{TestFiles, NEWS_SPACE};
use crate::tuning::Tuned;

/// `matches` (the row sizes kept in the index, not looked up) finds every row FTS5 finds, scores exactly
/// the wanted ones, and each score is FTS5's own bm25.
#[test]
fn matches_collect_every_row_and_score_the_wanted_ones() {
    let files = TestFiles::news();
    let mut conn = files.conn();
    let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
    let mut stmt = conn
        .prepare("SELECT rowid, bm25(documents_fts, 5.0, 2.0, 1.0) FROM documents_fts WHERE documents_fts MATCH ?1")
        .unwrap();
    for expression in
        ["\"the\" \"of\"", "\"energy\" OR \"harbour\"", "\"the\" \"wa\"*", "\"city council\" OR \"water\""]
    {
        let bm25: Vec<(u32, f64)> = stmt
            .query_map([expression], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?)))
            .unwrap()
            .map(|r| r.unwrap())
            .map(|(rowid, score)| (index.dense(rowid).expect("a news document"), score))
            .collect();
        assert!(bm25.len() > 10, "{expression} matches enough rows ({})", bm25.len());
        let every = matches(&conn, &index, expression, None, &[]).unwrap();
        assert_eq!(every.all, bm25.iter().map(|p| p.0).collect::<RoaringBitmap>(), "matches of {expression}");
        let mut scored = every.scored.clone();
        scored.sort_by_key(|p| p.0);
        let mut expected = bm25.clone();
        expected.sort_by_key(|p| p.0);
        assert_eq!(scored.len(), expected.len());
        for ((dense, ours), (_, theirs)) in scored.iter().zip(&expected) {
            assert!(
                (ours - theirs).abs() <= 1e-9 * theirs.abs().max(1.0),
                "{expression} doc {dense}: {ours} vs {theirs}"
            );
        }
        let wanted: RoaringBitmap = bm25.iter().map(|p| p.0).step_by(3).collect();
        let some = matches(&conn, &index, expression, Some(&wanted), &[]).unwrap();
        assert_eq!(some.all, every.all, "every match is collected whatever is wanted");
        let mut scored_docs: Vec<u32> = some.scored.iter().map(|p| p.0).collect();
        scored_docs.sort_unstable();
        assert_eq!(scored_docs, wanted.iter().collect::<Vec<u32>>(), "only the wanted ones are scored");
    }
}

/// Outside a search (no scope) `studio_rank` scores every row: with several phrases each score is FTS5's
/// own bm25; with one, the rows come in bm25's order.
#[test]
fn scores_follow_fts5_bm25() {
    let files = TestFiles::news();
    let conn = files.conn();
    let mut stmt = conn
        .prepare(
            "SELECT rowid, bm25(documents_fts, 5.0, 2.0, 1.0), studio_rank(documents_fts)
             FROM documents_fts WHERE documents_fts MATCH ?1",
        )
        .unwrap();
    let mut compared = 0;
    for expression in ["\"river\" \"flood\"", "\"energy\" OR \"harbour\"", "\"the\" \"wa\"*"] {
        let rows: Vec<(i64, f64, Option<f64>)> = stmt
            .query_map([expression], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for (rowid, bm25, ours) in &rows {
            let ours = ours.unwrap_or_else(|| panic!("row {rowid} of {expression} has no score"));
            assert!(
                (bm25 - ours).abs() <= 1e-9 * bm25.abs().max(1.0),
                "{expression} row {rowid}: bm25 {bm25}, ours {ours}"
            );
        }
        compared += rows.len();
    }
    for expression in ["\"the\"", "\"climate policy\"", "\"wa\"*"] {
        let rows: Vec<(i64, f64, Option<f64>)> = stmt
            .query_map([expression], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        // Row ids ordered by one of the two scores (FTS5's, ours), ties by row id.
        let order = |which: usize| {
            let mut sorted: Vec<(f64, i64)> =
                rows.iter().map(|r| (if which == 0 { r.1 } else { r.2.expect("scored") }, r.0)).collect();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            sorted.into_iter().map(|r| r.1).collect::<Vec<i64>>()
        };
        assert_eq!(order(0), order(1), "order of {expression}");
        compared += rows.len();
    }
    assert!(compared > 100, "the queries matched enough rows to compare ({compared})");
}

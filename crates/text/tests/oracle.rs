//! The index answers as FTS5 does. Seeded corpora are built into an index in several segments (on two threads,
//! one builder writing a segment every few documents) and into FTS5, some rows deleted in both; then, before and
//! after merging the index into one segment and after opening it again, many random queries (single words in any
//! spelling, phrases of two or three words taken from the documents, prefixes, one to three clauses, words the
//! corpus does not have) must find the same rows, the same rows per phrase and the same bm25 scores as FTS5's
//! `bm25(t, 5.0, 2.0, 1.0)`, and each field's frequencies as FTS5 weighs them one field at a time.

use rand::Rng;
use rusqlite::Connection;
use studio_text::{Phrase, QueryMatches, Snapshot, Statistics, TextIndex};

use crate::support::{build, fts5, fts5_insert, spelled, sqlite_varints, Corpus};

/// A query: its phrases as a user would write them (text, and whether the last word is a prefix).
type Query = Vec<(String, bool)>;

/// The weights of FTS5's bm25 the engine asks for, and one field at a time.
const WEIGHTS: [[f64; 3]; 4] = [[5.0, 2.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// FTS5's bm25 (fts5_aux.c, `fts5Bm25Function`) of the `r`-th row of `found`, from our numbers.
fn bm25(weights: [f64; 3], found: &QueryMatches, r: usize, stats: Statistics, sizes: [u32; 3]) -> f64 {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
    let rows = stats.rows as f64;
    let avgdl = stats.tokens.iter().sum::<u64>() as f64 / rows;
    let d = sizes.iter().map(|&s| f64::from(s)).sum::<f64>();
    let mut score = 0.0;
    for (p, &hits) in found.phrase_rows.iter().enumerate() {
        let hits = hits as f64;
        let mut idf = ((rows - hits + 0.5) / (hits + 0.5)).ln();
        if idf <= 0.0 {
            idf = 1e-6;
        }
        let tf = found.frequency(r, p);
        let f: f64 = (0..3).map(|k| weights[k] * f64::from(tf[k])).sum();
        score += idf * ((f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * d / avgdl)));
    }
    -score
}

/// The FTS5 expression of a query: each phrase quoted, `*` after a prefix.
fn expression(query: &Query) -> String {
    let parts: Vec<String> = query
        .iter()
        .map(|(text, prefix)| format!("\"{}\"{}", text.replace('"', "\"\""), if *prefix { "*" } else { "" }))
        .collect();
    parts.join(" ")
}

/// A random query over `corpus`.
fn random_query(corpus: &mut Corpus) -> Query {
    let clauses = corpus.rng.gen_range(1..4);
    (0..clauses).map(|_| random_phrase(corpus)).collect()
}

fn random_phrase(corpus: &mut Corpus) -> (String, bool) {
    match corpus.rng.gen_range(0..10) {
        0..=2 => (corpus.word(), false),
        3..=5 => {
            let prefix = corpus.rng.gen_bool(0.3);
            let mut words = random_run(corpus);
            if prefix {
                let last = words.pop().unwrap_or_default();
                let keep = corpus.rng.gen_range(1..=last.chars().count().max(1));
                words.push(last.chars().take(keep).collect());
            }
            (words.join(" "), prefix)
        }
        6 | 7 => {
            let word = corpus.word();
            let keep = corpus.rng.gen_range(1..=word.chars().count().clamp(1, 4));
            (word.chars().take(keep).collect(), true)
        }
        8 => (format!("zq{}x", corpus.rng.gen_range(0..1000)), corpus.rng.gen_bool(0.5)),
        _ => {
            let word = corpus.vocabulary[corpus.rng.gen_range(0..corpus.vocabulary.len())].clone();
            (spelled(&word, &mut corpus.rng), false)
        }
    }
}

/// Two or three words in a row from a document's field (one word where the field is shorter).
fn random_run(corpus: &mut Corpus) -> Vec<String> {
    for _ in 0..100 {
        let d = corpus.rng.gen_range(0..corpus.docs.len());
        let f = corpus.rng.gen_range(0..3);
        let words = &corpus.docs[d].words[f];
        if words.is_empty() {
            continue;
        }
        let len = corpus.rng.gen_range(2..4).min(words.len());
        let start = corpus.rng.gen_range(0..=words.len() - len);
        return words[start..start + len].to_vec();
    }
    vec![corpus.word()]
}

/// FTS5's rows for `query`, each with its four scores, in row order.
fn fts5_answer(conn: &Connection, query: &Query) -> Vec<(u64, [f64; 4])> {
    let sql = "SELECT rowid, bm25(t, 5.0, 2.0, 1.0), bm25(t, 1.0, 0.0, 0.0), bm25(t, 0.0, 1.0, 0.0),
                      bm25(t, 0.0, 0.0, 1.0) FROM t WHERE t MATCH ?1 ORDER BY rowid";
    let mut stmt = conn.prepare_cached(sql).unwrap();
    let rows = stmt
        .query_map([expression(query)], |r| {
            Ok((r.get::<_, i64>(0)? as u64, [r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?]))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

fn fts5_count(conn: &Connection, query: &Query) -> u64 {
    let mut stmt = conn.prepare_cached("SELECT count(*) FROM t WHERE t MATCH ?1").unwrap();
    stmt.query_row([expression(query)], |r| r.get::<_, i64>(0)).unwrap() as u64
}

/// FTS5's statistics: its averages record, the rows then the tokens of each column.
fn fts5_statistics(conn: &Connection) -> Statistics {
    let block: Vec<u8> = conn.query_row("SELECT block FROM t_data WHERE id = 1", [], |r| r.get(0)).unwrap();
    let v = sqlite_varints(&block);
    Statistics { rows: v[0], tokens: [v[1], v[2], v[3]] }
}

/// Compares our answers to `queries` with FTS5's; returns how many queries matched rows (so that a test can
/// tell its queries were not all empty).
fn compare(snapshot: &Snapshot, conn: &Connection, queries: &[Query], when: &str) -> usize {
    let stats = snapshot.statistics();
    assert_eq!(stats, fts5_statistics(conn), "{when}: statistics");
    let mut sizes = conn.prepare("SELECT id, sz FROM t_docsize ORDER BY id").unwrap();
    let mut each = sizes.query([]).unwrap();
    while let Some(row) = each.next().unwrap() {
        let (id, sz): (i64, Vec<u8>) = (row.get(0).unwrap(), row.get(1).unwrap());
        let v = sqlite_varints(&sz);
        assert_eq!(snapshot.field_sizes(id as u64), Some([v[0] as u32, v[1] as u32, v[2] as u32]), "{when}: row {id}");
    }
    let mut matched = 0;
    for query in queries {
        let phrases: Vec<Phrase> = query.iter().map(|(text, prefix)| Phrase::new(text, *prefix)).collect();
        let ours = snapshot.query(&phrases).unwrap();
        let theirs = fts5_answer(conn, query);
        let context = format!("{when}: query {query:?} ({})", expression(query));
        assert_eq!(ours.rows, theirs.iter().map(|t| t.0).collect::<Vec<_>>(), "{context}: rows");
        for (p, phrase) in query.iter().enumerate() {
            assert_eq!(ours.phrase_rows[p], fts5_count(conn, &vec![phrase.clone()]), "{context}: rows of {phrase:?}");
        }
        for (r, (row, scores)) in theirs.iter().enumerate() {
            let sizes = snapshot.field_sizes(*row).unwrap();
            for (w, weights) in WEIGHTS.iter().enumerate() {
                let ours = bm25(*weights, &ours, r, stats, sizes);
                let close = (ours - scores[w]).abs() <= 1e-9 * scores[w].abs().max(1e-12);
                assert!(close, "{context}: row {row}, weights {weights:?}: ours {ours}, FTS5's {}", scores[w]);
            }
        }
        matched += usize::from(!theirs.is_empty());
    }
    matched
}

#[test]
fn queries_answer_as_fts5_before_and_after_a_merge() {
    for seed in [1u64, 2, 3] {
        let mut corpus = Corpus::new(seed, 400);
        let dir = tempfile::tempdir().unwrap();
        let mut index = TextIndex::open(dir.path()).unwrap();
        let (first, second) = corpus.docs.split_at(250);
        // Two builders on two threads taking alternate batches, and a third writing a segment every few documents.
        build(&mut index, first, 2, 40, 1 << 30);
        build(&mut index, second, 1, 150, 20_000);
        let conn = fts5();
        fts5_insert(&conn, &corpus.docs);
        assert!(index.snapshot().segments() >= 4, "{} segments", index.snapshot().segments());

        // Rows deleted from no segment, from every one, and from some (a merge copies the others' postings whole).
        let deleted: Vec<u64> = match seed {
            1 => Vec::new(),
            2 => corpus.docs.iter().map(|d| d.row).filter(|r| r % 9 == 0).collect(),
            _ => second.iter().map(|d| d.row).filter(|r| r % 4 == 0).collect(),
        };
        assert_eq!(index.delete(&deleted).unwrap(), deleted.len() as u64);
        assert_eq!(index.delete(&deleted).unwrap(), 0, "rows deleted twice");
        for row in &deleted {
            conn.execute("DELETE FROM t WHERE rowid = ?1", [*row as i64]).unwrap();
        }
        let queries: Vec<Query> = (0..300).map(|_| random_query(&mut corpus)).collect();
        let matched = compare(&index.snapshot(), &conn, &queries, &format!("seed {seed}, segments"));
        assert!(matched > 100, "only {matched} queries matched rows");

        let before = index.snapshot();
        // On one, two or three threads, each merging a range of the terms.
        index.merge_on(seed as usize % 3 + 1).unwrap();
        assert_eq!(index.snapshot().segments(), 1);
        compare(&index.snapshot(), &conn, &queries, &format!("seed {seed}, merged"));
        compare(&before, &conn, &queries, &format!("seed {seed}, a snapshot from before the merge"));
        drop(before);

        drop(index);
        let index = TextIndex::open(dir.path()).unwrap();
        compare(&index.snapshot(), &conn, &queries, &format!("seed {seed}, opened again"));
        terms_as_in_fts5(&index.snapshot(), &conn);
    }
}

/// Merged, the index's terms and their documents are FTS5's vocabulary.
fn terms_as_in_fts5(snapshot: &Snapshot, conn: &Connection) {
    conn.execute_batch("CREATE VIRTUAL TABLE IF NOT EXISTS vocabulary USING fts5vocab(t, row);").unwrap();
    let mut stmt = conn.prepare("SELECT term, doc FROM vocabulary ORDER BY term").unwrap();
    let theirs: Vec<(Vec<u8>, u64)> = stmt
        .query_map([], |r| Ok((r.get_ref(0)?.as_bytes()?.to_vec(), r.get::<_, i64>(1)? as u64)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let ours: Vec<(Vec<u8>, u64)> = snapshot.terms().map(|t| t.map(|(term, n)| (term.to_vec(), n)).unwrap()).collect();
    assert_eq!(ours.len(), theirs.len());
    assert_eq!(ours, theirs);
    for (term, docs) in theirs.iter().step_by(7) {
        assert_eq!(snapshot.doc_count(term).unwrap(), *docs);
        let with_prefix: Vec<Vec<u8>> = snapshot.terms_with_prefix(term).map(|t| t.unwrap().0.to_vec()).collect();
        let expected: Vec<Vec<u8>> =
            theirs.iter().filter(|(t, _)| t.starts_with(term)).map(|(t, _)| t.clone()).collect();
        assert_eq!(with_prefix, expected);
    }
}

//! The rows of the full-text index having each term, counted once for the whole store and kept in the
//! documents file, for the `text` similarity plugin.
//!
//! The plugin weighs a document's words by how many rows of the store have each one, and FTS5 keeps no such
//! number: counting a word's rows walks its whole list (90 ns a row), and the sixty-four words of a document
//! at 1M documents have a hundred thousand rows and more between them, 10–25 ms before the plugin's query
//! runs. So in a large store every term's rows are counted in one walk of FTS5's vocabulary (24 s at 1M
//! documents here, 10 s of it on the processor), on a thread of its own ([`super::upkeep`]), and written to
//! `term_counts` with the sum of every scope's generation they were counted at. The plugin takes a word's rows
//! from there while that sum is the store's; otherwise (an import since, a store too small to count ahead) it
//! counts them as before.
//! Terms in fewer than 64 rows (the default of [`crate::Tuning::term_counts_stored_from`]) are
//! left out: a count of one stops within a few microseconds.

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

use super::stamp::Stamp;
use crate::error::EngineError;

/// Rows a term must be in to be kept, by default.
#[cfg(test)]
pub(crate) const STORED_FROM: u64 = crate::tuning::Tuning::DEFAULT.term_counts_stored_from;

/// The rows of the store having `term` as last counted (the caller checks they are [`current`]); `None` for
/// a term in fewer rows than the count kept.
pub(crate) fn rows(conn: &Connection, term: &str) -> Result<Option<u64>, EngineError> {
    let rows: Option<i64> = conn
        .prepare_cached("SELECT rows FROM term_counts WHERE term = ?1")?
        .query_row([term], |r| r.get(0))
        .optional()?;
    Ok(rows.map(|r| r.max(0) as u64))
}

/// Whether the kept counts are those of the store at `generations`.
pub(crate) fn current(conn: &Connection, generations: i64) -> Result<bool, EngineError> {
    let made: Option<i64> = conn
        .prepare_cached("SELECT generations FROM term_counts_made WHERE id = 1")?
        .query_row([], |r| r.get(0))
        .optional()?;
    Ok(made == Some(generations))
}

/// Counts every term's rows in one read of the store and keeps those of the terms in at least `stored_from`
/// rows, unless they are current already or the
/// store changed while they were counted (the next call counts again). Returns whether it wrote them.
/// `conn` is a connection to the documents file (its tables unqualified).
pub(crate) fn count(conn: &mut Connection, stored_from: u64) -> Result<bool, EngineError> {
    let (generations, terms) = {
        let tx = conn.transaction()?;
        let generations = Stamp::read(&tx)?.generations;
        if current(&tx, generations)? {
            return Ok(false);
        }
        let mut terms: Vec<(String, i64)> = Vec::new();
        let mut vocabulary = tx.prepare("SELECT term, doc FROM documents_fts_terms")?;
        let mut each = vocabulary.query([])?;
        while let Some(row) = each.next()? {
            let rows: i64 = row.get(1)?;
            if rows >= i64::try_from(stored_from).unwrap_or(i64::MAX) {
                terms.push((row.get(0)?, rows));
            }
        }
        (generations, terms)
    };
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if Stamp::read(&tx)?.generations != generations {
        return Ok(false);
    }
    tx.execute("DELETE FROM term_counts", [])?;
    {
        let mut insert = tx.prepare("INSERT INTO term_counts (term, rows) VALUES (?1, ?2)")?;
        for (term, rows) in &terms {
            insert.execute(params![term, rows])?;
        }
    }
    tx.execute(
        "INSERT INTO term_counts_made (id, generations) VALUES (1, ?1)
         ON CONFLICT (id) DO UPDATE SET generations = excluded.generations",
        [generations],
    )?;
    tx.commit()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::{count, current, rows, STORED_FROM};
    use crate::stamp::Stamp;
    use crate::test_documents::TestFiles;

    /// The kept counts are FTS5's count of every term in enough rows, used only while no import changed the
    /// store, and counted again after one.
    #[test]
    fn kept_counts_are_the_stores_and_only_while_it_is_unchanged() {
        let files = TestFiles::news();
        let conn = files.conn();
        let mut reader = crate::reader::documents_reader(&conn).unwrap().expect("a documents file");
        let vocabulary = |conn: &rusqlite::Connection| -> Vec<(String, u64)> {
            conn.prepare("SELECT term, doc FROM documents_fts_terms ORDER BY term")
                .unwrap()
                .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64)))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        };
        let before = Stamp::read(&conn).unwrap().generations;
        assert!(!current(&conn, before).unwrap(), "nothing is counted before the first count");

        assert!(count(&mut reader, STORED_FROM).unwrap(), "the first count is written");
        assert!(current(&conn, before).unwrap());
        assert!(!count(&mut reader, STORED_FROM).unwrap(), "a second one finds them current");
        let every = vocabulary(&conn);
        let (kept, left_out): (Vec<_>, Vec<_>) = every.iter().partition(|(_, rows)| *rows >= STORED_FROM);
        assert!(kept.len() > 50 && !left_out.is_empty(), "{} terms kept, {} left out", kept.len(), left_out.len());
        for (term, rows) in &kept {
            assert_eq!(super::rows(&conn, term).unwrap(), Some(*rows), "rows having {term}");
        }
        for (term, _) in left_out.iter().take(50) {
            assert_eq!(rows(&conn, term).unwrap(), None, "{term} is rare");
        }

        // Another search space gets documents with the most common term: the counts no longer hold.
        let (common, most) = kept.iter().max_by_key(|(_, rows)| *rows).unwrap();
        let line = format!("{{\"id\": \"x\", \"title\": \"{common}\", \"content\": \"{common}\"}}\n");
        files.import_lines("elsewhere", &line);
        let after = Stamp::read(&conn).unwrap().generations;
        assert_ne!(before, after);
        assert!(!current(&conn, after).unwrap(), "counts of an older store are not used");
        assert!(count(&mut reader, STORED_FROM).unwrap(), "counted again");
        assert!(current(&conn, after).unwrap());
        assert_eq!(rows(&conn, common).unwrap(), Some(most + 1));
    }
}

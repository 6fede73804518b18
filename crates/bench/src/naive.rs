//! The naive SQLite approach the comparison measures against: FTS5 joined with a denormalised facet table
//! (every annotation with its broader concepts, one row each), `GROUP BY` for the counts, one statement
//! per facet field for drill-sideways counts.
//!
//! It reads the benchmark's store's documents file (`documents` with their facet lists, `concepts`,
//! `concept_broader`, as the engine's schema defines them), attached to a scratch file of its own beside the
//! store, which holds its own tables: an FTS5 index of the documents' text, built before its clock (the store's
//! full-text index is the engine's own, which SQLite cannot join), and the facet table, built on its clock. It
//! parses text with the engine's own [`TextQuery`], so that both approaches match the same words.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::types::Value as SqlValue;
use rusqlite::Connection;

use studio_local::search::TextQuery;
use studio_local::Store;

use crate::clock::Clock;
use crate::compare::{Comparator, Found};
use crate::corpus::{SynthCorpus, FIELDS};
use crate::error::BenchError;
use crate::workload::{groups, Answer, Query};

/// The scratch file's name, beside the store's files.
const SCRATCH: &str = "naive-sqlite.db";

/// FTS5's index ([`crate::fts5::SCHEMA`]) of every document's text, read from the documents file, merged into one
/// segment.
const FTS: &str = "
INSERT INTO documents_fts (rowid, title, description, body) SELECT num, title, description, body FROM docs.documents;
INSERT INTO documents_fts (documents_fts) VALUES ('optimize');
";

const BUILD: &str = "
DROP TABLE IF EXISTS naive_facets;
CREATE TEMP TABLE naive_closure (concept TEXT NOT NULL, ancestor TEXT NOT NULL, PRIMARY KEY (concept, ancestor));
WITH RECURSIVE up(concept, ancestor) AS (
    SELECT uri, uri FROM concepts
    UNION SELECT up.concept, b.broader FROM up JOIN concept_broader b ON b.narrower = up.ancestor
)
INSERT OR IGNORE INTO naive_closure SELECT concept, ancestor FROM up;
CREATE TEMP TABLE naive_values AS
    SELECT d.num AS doc, g.value ->> 'field' AS field, r.value ->> 'label' AS label, r.value ->> 'value' AS value
    FROM documents d, json_each(d.facet_list) g, json_tree(g.value, '$.facets') r
    WHERE r.type = 'object' AND g.value ->> 'field' <> 'dyn_uri_all_concepts';
CREATE TABLE naive_facets (doc INTEGER NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL);
INSERT INTO naive_facets SELECT doc, field, label FROM naive_values WHERE field NOT LIKE 'dyn_uri_%';
INSERT INTO naive_facets SELECT DISTINCT f.doc, f.field, c.ancestor
    FROM naive_values f JOIN naive_closure c ON c.concept = f.value WHERE f.field LIKE 'dyn_uri_%';
INSERT INTO naive_facets SELECT DISTINCT f.doc, 'dyn_uri_all_concepts', c.ancestor
    FROM naive_values f JOIN naive_closure c ON c.concept = f.value WHERE f.field LIKE 'dyn_uri_%';
CREATE INDEX naive_by_value ON naive_facets (field, value, doc);
CREATE INDEX naive_by_doc ON naive_facets (doc, field, value);
DROP TABLE naive_closure;
DROP TABLE naive_values;
ANALYZE;
";

/// FTS5 + a facet table + GROUP BY, over the benchmark's own store.
pub struct NaiveSqlite {
    store: Store,
    /// Its scratch file with the store's documents file attached, once [`Comparator::prepare`] made it.
    conn: Option<Connection>,
}

impl NaiveSqlite {
    /// The naive engine over `store` (its FTS5 index is built by [`Comparator::prepare`], its facet table by
    /// [`Comparator::build`]).
    pub fn new(store: Store) -> Self {
        NaiveSqlite { store, conn: None }
    }

    fn conn(&self) -> Result<&Connection, BenchError> {
        self.conn.as_ref().ok_or(BenchError::NotBuilt("naive"))
    }
}

/// The SQL selecting the matching documents' numbers, leaving out the selection of field `except`.
fn matching(query: &Query, except: Option<usize>, params: &mut Vec<SqlValue>) -> String {
    let mut sql = String::from("SELECT d.num FROM documents d");
    if let Some(expression) = TextQuery::parse(&query.words.join(" ")).to_fts() {
        sql.push_str(" JOIN documents_fts ON documents_fts.rowid = d.num AND documents_fts MATCH ?");
        params.push(SqlValue::Text(expression));
    }
    sql.push_str(" WHERE 1");
    let mut by_field: Vec<(usize, Vec<&str>)> = Vec::new();
    for (f, v) in query.selected.iter().filter(|(f, _)| Some(*f) != except) {
        match by_field.iter_mut().find(|(g, _)| g == f) {
            Some((_, values)) => values.push(v),
            None => by_field.push((*f, vec![v])),
        }
    }
    for (f, values) in by_field {
        let marks = vec!["?"; values.len()].join(",");
        sql.push_str(&format!(" AND d.num IN (SELECT doc FROM naive_facets WHERE field = ? AND value IN ({marks}))"));
        params.push(SqlValue::Text(FIELDS[f].to_owned()));
        params.extend(values.into_iter().map(|v| SqlValue::Text(v.to_owned())));
    }
    sql
}

fn counts(conn: &Connection, query: &Query, field: &str) -> Result<HashMap<String, u64>, BenchError> {
    let own = FIELDS.iter().position(|f| *f == field);
    let mut params = Vec::new();
    let inner = matching(query, own, &mut params);
    let sql = format!("SELECT value, count(*) FROM naive_facets WHERE field = ? AND doc IN ({inner}) GROUP BY value");
    params.insert(0, SqlValue::Text(field.to_owned()));
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows =
        stmt.query_map(rusqlite::params_from_iter(params), |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    let mut out = HashMap::new();
    for row in rows {
        let (value, count) = row?;
        out.insert(value, count.max(0) as u64);
    }
    Ok(out)
}

impl Comparator for NaiveSqlite {
    fn name(&self) -> &str {
        "naive"
    }

    fn prepare(&mut self, _corpus: &SynthCorpus, _docs: usize, dir: &Path) -> Result<(), BenchError> {
        self.conn = None;
        let scratch = dir.join(SCRATCH);
        // What an earlier run left.
        for suffix in ["", "-journal"] {
            let mut name = scratch.clone().into_os_string();
            name.push(suffix);
            let path = PathBuf::from(name);
            match std::fs::remove_file(&path) {
                Err(source) if source.kind() != std::io::ErrorKind::NotFound => {
                    return Err(BenchError::File { what: "remove", path, source })
                }
                _ => {}
            }
        }
        let conn = Connection::open(&scratch)?;
        conn.execute("ATTACH DATABASE ?1 AS docs", [self.store.documents_path().to_string_lossy()])?;
        conn.execute_batch(crate::fts5::SCHEMA)?;
        conn.execute_batch(FTS)?;
        self.conn = Some(conn);
        Ok(())
    }

    fn build(&mut self, clock: &mut Clock) -> Result<(), BenchError> {
        let conn = self.conn()?;
        clock.phase("facet_table", || Ok(conn.execute_batch(BUILD)?))
    }

    fn set_threads(&mut self, _threads: usize) -> Result<bool, BenchError> {
        Ok(false)
    }

    fn search(&mut self, query: &Query) -> Result<Found, BenchError> {
        Ok(Box::new(self.run_query(query)?))
    }

    fn answer(&self, found: Found) -> Result<Answer, BenchError> {
        found.downcast::<Answer>().map(|a| *a).map_err(|_| BenchError::NotBuilt("naive"))
    }
}

impl NaiveSqlite {
    /// One query's total, page and counts (its statements give the counts as labels already).
    fn run_query(&self, query: &Query) -> Result<Answer, BenchError> {
        let conn = self.conn()?;
        let mut params = Vec::new();
        let inner = matching(query, None, &mut params);
        let total: i64 = conn
            .prepare_cached(&format!("SELECT count(*) FROM ({inner})"))?
            .query_row(rusqlite::params_from_iter(params.clone()), |r| r.get(0))?;
        // The page: best bm25 first for a text query, else newest first.
        let order =
            if query.words.is_empty() { "d.date DESC, d.id" } else { "bm25(documents_fts, 5.0, 2.0, 1.0), d.num" };
        let page_sql = format!("{} ORDER BY {order} LIMIT 10", inner.replacen("SELECT d.num", "SELECT d.num, d.id", 1));
        let page: Vec<i64> = conn
            .prepare_cached(&page_sql)?
            .query_map(rusqlite::params_from_iter(params), |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut fetch =
            conn.prepare_cached("SELECT id, title, description, facet_list FROM documents WHERE num = ?1")?;
        for num in page {
            fetch.query_row([num], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(3)?)))?;
        }
        let mut by_field: HashMap<String, HashMap<String, u64>> = HashMap::new();
        let mut out = Vec::new();
        for g in groups() {
            if !by_field.contains_key(&g.field) {
                by_field.insert(g.field.clone(), counts(conn, query, &g.field)?);
            }
            let all = by_field.get(&g.field).cloned().unwrap_or_default();
            out.push(all);
        }
        Ok(Answer { total: total.max(0) as u64, groups: out })
    }
}

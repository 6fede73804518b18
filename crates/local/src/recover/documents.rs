//! Copying the documents that can still be read from a damaged file into the new store, and telling how
//! many each search space had (their documents must be imported, or pulled, again: `lost.rs` says how).
//!
//! The persisted index snapshots are not copied (they are a cache); every generation is bumped, so that no index
//! built from the old file is used, and `recover` builds the full-text index again from the copied documents.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::types::Value;
use rusqlite::{params_from_iter, Connection};

use super::salvage::{columns, each_row, text};
use crate::error::StoreError;

/// The document tables copied, parents before children.
const TABLES: [&str; 5] = ["documents", "facet_fields", "concepts", "concept_broader", "generations"];

/// Rows written per transaction.
const BATCH: usize = 5_000;

/// What a copy found.
#[derive(Debug, Default)]
pub(crate) struct Copied {
    /// The search spaces that may have lost documents, with how many documents each had in the damaged file
    /// (`None`: the file cannot tell). A space the copy read whole is not among them.
    pub expected: BTreeMap<String, Option<usize>>,
}

/// Copies every readable row of the document tables of `source` into `target`. `spaces` are the search
/// spaces the store knows (its configurations and pulls): when the source cannot even say how many
/// documents each space had, those are the spaces named.
pub(crate) fn copy(
    source: &Connection,
    target: &mut Connection,
    spaces: &BTreeSet<String>,
) -> Result<Copied, StoreError> {
    let expected = counts(source);
    let mut per_space: BTreeMap<String, usize> = BTreeMap::new();
    let mut incomplete = false;
    for table in TABLES {
        let Some(wanted) = columns(target, table) else { continue };
        // The source's columns that the target has, in the source's order (as `each_row` reads them).
        let Some(mut shared) = columns(source, table) else {
            incomplete |= table == "documents";
            continue;
        };
        shared.retain(|c| wanted.contains(c));
        let mut writer = Writer::new(target, table, shared.clone());
        let result = each_row(source, table, Some(&shared), |row| writer.push(row));
        let counted = writer.finish()?;
        if table == "documents" {
            per_space = counted;
            incomplete |= !result.complete();
        }
    }
    target.execute_batch("UPDATE generations SET generation = generation + 1;")?;
    let expected = match expected {
        Some(expected) => expected
            .into_iter()
            .filter(|(space, n)| per_space.get(space).copied().unwrap_or(0) < *n)
            .map(|(space, n)| (space, Some(n)))
            .collect(),
        None if incomplete || per_space.is_empty() => {
            spaces.iter().chain(per_space.keys()).filter(|s| !s.is_empty()).map(|s| (s.clone(), None)).collect()
        }
        None => BTreeMap::new(),
    };
    Ok(Copied { expected })
}

/// How many documents each search space had, if the damaged file can still say: read from the index of
/// (search space, id) first, which a damaged page of the table's own rows leaves whole, else from the table.
fn counts(source: &Connection) -> Option<BTreeMap<String, usize>> {
    let by = |from: &str| -> Option<BTreeMap<String, usize>> {
        let sql = format!("SELECT search_space, count(*) FROM documents {from} GROUP BY search_space");
        let mut stmt = source.prepare(&sql).ok()?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))).ok()?;
        rows.map(|r| r.map(|(s, n)| (s, n as usize))).collect::<Result<_, _>>().ok()
    };
    by("INDEXED BY sqlite_autoindex_documents_1").or_else(|| by("NOT INDEXED"))
}

/// Writes rows in batches, one transaction each; a row the target refuses (a facet of a document that
/// was lost) is left out. Counts the rows written per search space.
struct Writer<'c> {
    conn: &'c mut Connection,
    sql: String,
    space: Option<usize>,
    pending: Vec<Vec<Value>>,
    per_space: BTreeMap<String, usize>,
    error: Option<StoreError>,
}

impl<'c> Writer<'c> {
    fn new(conn: &'c mut Connection, table: &str, columns: Vec<String>) -> Self {
        let names: Vec<String> = columns.iter().map(|c| format!("\"{c}\"")).collect();
        let marks = vec!["?"; columns.len()].join(", ");
        let sql = format!("INSERT OR IGNORE INTO \"{table}\" ({}) VALUES ({marks})", names.join(", "));
        let space = columns.iter().position(|c| c == "search_space");
        Writer { conn, sql, space, pending: Vec::new(), per_space: BTreeMap::new(), error: None }
    }

    fn push(&mut self, row: Vec<Value>) {
        self.pending.push(row);
        if self.pending.len() >= BATCH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.error.is_some() || self.pending.is_empty() {
            return;
        }
        let rows = std::mem::take(&mut self.pending);
        if let Err(e) = self.write(&rows) {
            self.error = Some(e);
        }
    }

    fn write(&mut self, rows: &[Vec<Value>]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(&self.sql)?;
            for row in rows {
                if let Ok(1) = stmt.execute(params_from_iter(row.iter())) {
                    if let Some(space) = text(row, self.space) {
                        *self.per_space.entry(space.to_owned()).or_default() += 1;
                    }
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn finish(mut self) -> Result<BTreeMap<String, usize>, StoreError> {
        self.flush();
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.per_space),
        }
    }
}

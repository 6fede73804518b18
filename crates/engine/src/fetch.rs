//! Reading the documents of a page (or a similar/recommended list) back from SQLite in the API's shape (docs/api.md, Documents), as
//! the configuration of the operation shapes them ([`DocumentShape`]). Search, getSimilar and
//! getRecommendations all return their documents through [`documents`].

use rusqlite::{Connection, OptionalExtension};
use serde_json::value::RawValue;
use studio_model::{Config, Document};

use super::index::SpaceIndex;
use super::shape::{DocumentShape, StoredRow};
use crate::error::EngineError;

/// The documents with these dense numbers, in the given order, shaped by `config` (its details and facets).
/// A document deleted since the index was built is left out.
pub(crate) fn documents(
    conn: &Connection,
    index: &SpaceIndex,
    config: &Config,
    docs: &[u32],
) -> Result<Vec<Document>, EngineError> {
    Ok(each(conn, index, config, docs)?.into_iter().flatten().collect())
}

/// As [`documents`], one entry per number: `None` for a document deleted since the index was built, so that
/// what was worked out per number (an explanation) stays with its document. Each is its written form read
/// back ([`written`]): the one shaping of a document.
pub(crate) fn each(
    conn: &Connection,
    index: &SpaceIndex,
    config: &Config,
    docs: &[u32],
) -> Result<Vec<Option<Document>>, EngineError> {
    let mut out = Vec::with_capacity(docs.len());
    for doc in written(conn, index, config, docs)? {
        out.push(doc.map(|d| serde_json::from_str(d.get())).transpose()?);
    }
    Ok(out)
}

/// As [`each`], each document as written for the API (docs/api.md, Documents) straight from its row.
pub(crate) fn written(
    conn: &Connection,
    index: &SpaceIndex,
    config: &Config,
    docs: &[u32],
) -> Result<Vec<Option<Box<RawValue>>>, EngineError> {
    let shape = DocumentShape::new(index, config);
    // One read of the store for the whole list, so that its documents come from one state of it, and the file's
    // shared lock is taken once rather than once per document.
    let _one_read = conn.is_autocommit().then(|| conn.unchecked_transaction()).transpose()?;
    let mut stmt = conn.prepare_cached(
        "SELECT id, link, title, description, date, image, type, facet_list FROM documents WHERE num = ?1",
    )?;
    let mut out = Vec::with_capacity(docs.len());
    for &d in docs {
        let Some(&rowid) = index.rowids.get(d as usize) else {
            out.push(None);
            continue;
        };
        let mut rows = stmt.query([rowid])?;
        let Some(r) = rows.next()? else {
            out.push(None);
            continue;
        };
        let text = |i: usize| r.get_ref(i)?.as_str().map_err(rusqlite::Error::from);
        let row = StoredRow {
            id: text(0)?,
            link: text(1)?,
            title: text(2)?,
            description: text(3)?,
            date: r.get(4)?,
            image: r.get_ref(5)?.as_str_or_null().map_err(rusqlite::Error::from)?,
            kind: text(6)?,
            facet_list: text(7)?,
        };
        out.push(Some(shape.write(&row, &index.space)?));
    }
    Ok(out)
}

/// The full text of one document (title, description, body), for the `text` similarity plugin.
pub(crate) fn text_of(conn: &Connection, index: &SpaceIndex, doc: u32) -> Result<String, EngineError> {
    let Some(&rowid) = index.rowids.get(doc as usize) else { return Ok(String::new()) };
    let text: Option<String> = conn
        .query_row("SELECT title || ' ' || description || ' ' || body FROM documents WHERE num = ?1", [rowid], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(text.unwrap_or_default())
}

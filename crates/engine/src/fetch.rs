//! Reading the documents of a page (or a similar/recommended list) back from SQLite in the API's shape (docs/api.md, Documents), as
//! the configuration of the operation shapes them ([`DocumentShape`]). Search, getSimilar and
//! getRecommendations all return their documents through [`documents`].

use rusqlite::{Connection, OptionalExtension};
use studio_model::{Config, Document};

use super::index::SpaceIndex;
use super::shape::DocumentShape;
use super::stored_facets;
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
/// what was worked out per number (an explanation) stays with its document.
pub(crate) fn each(
    conn: &Connection,
    index: &SpaceIndex,
    config: &Config,
    docs: &[u32],
) -> Result<Vec<Option<Document>>, EngineError> {
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
        let row = stmt
            .query_row([rowid], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, f64>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, String>(7)?,
                ))
            })
            .optional()?;
        let Some((id, link, title, description, date, image, kind, facet_list)) = row else {
            out.push(None);
            continue;
        };
        let mut facet_list = stored_facets::to_groups(&facet_list)?;
        let document_details = shape.apply(&mut facet_list)?;
        out.push(Some(Document {
            id,
            link,
            title,
            description,
            date,
            empty: false,
            image,
            search_space_id: index.space.clone(),
            kind,
            document_details,
            facet_list,
            explanation: None,
            extra: Default::default(),
        }));
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

//! Listing the search spaces of the store with their facet fields (`GET /api/searchspaces`, docs/api.md: Search spaces).
//!
//! A field's `uri` is `urn:searchstudio:field:<field id>`; a `facetsToShow` item may name a field by that
//! uri or by the bare id.

use rusqlite::Connection;
use studio_model::{FacetField, SearchSpace, ALL_CONCEPTS_FIELD, ALL_CONCEPTS_LABEL};

use super::field_index::{kind_of, CONCEPT_PREFIX};
use super::field_names::FIELD_URI_PREFIX;
use crate::error::EngineError;

/// Every search space holding documents, by id, with its document count and facet fields (sorted by id,
/// the derived `dyn_uri_all_concepts` included when the space has concept fields).
pub fn search_spaces(conn: &Connection) -> Result<Vec<SearchSpace>, EngineError> {
    let counts: Vec<(String, i64)> = conn
        .prepare_cached("SELECT search_space, count(*) FROM documents GROUP BY search_space ORDER BY search_space")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(counts.len());
    for (id, documents) in counts {
        let fields = fields_of(conn, &id)?;
        out.push(SearchSpace { id, documents, fields });
    }
    Ok(out)
}

/// The facet fields of search space `space` as [`search_spaces`] lists them.
pub(crate) fn fields_of(conn: &Connection, space: &str) -> Result<Vec<FacetField>, EngineError> {
    let mut stmt =
        conn.prepare_cached("SELECT field, label FROM facet_fields WHERE search_space = ?1 ORDER BY field")?;
    let mut fields: Vec<FacetField> = stmt
        .query_map([space], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
        .map(|row| row.map(|(field, label)| field_of(field, label)))
        .collect::<Result<_, _>>()?;
    if fields.iter().any(|f| f.field.starts_with(CONCEPT_PREFIX)) {
        fields.push(field_of(ALL_CONCEPTS_FIELD.to_owned(), ALL_CONCEPTS_LABEL.to_owned()));
        fields.sort_by(|a, b| a.field.cmp(&b.field));
    }
    Ok(fields)
}

/// Whether the store holds a document of search space `space` (one look-up, where [`search_spaces`] counts
/// every document).
pub(crate) fn holds(conn: &Connection, space: &str) -> Result<bool, EngineError> {
    let mut stmt = conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM documents WHERE search_space = ?1)")?;
    Ok(stmt.query_row([space], |r| r.get(0))?)
}

fn field_of(field: String, label: String) -> FacetField {
    FacetField { uri: format!("{FIELD_URI_PREFIX}{field}"), kind: kind_of(&field), label, field }
}

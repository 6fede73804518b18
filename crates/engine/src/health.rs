//! Facet health (docs/api.md, Facet health): per facet field of a search space, how many documents carry it, how
//! many distinct values it has and how they nest, read off the search space's index. The levels are those a facet
//! answer nests values into: the top values (no broader one), then their narrower ones, level by level.

use roaring::MultiOps;
use rusqlite::Connection;
use studio_model::{FacetField, FacetHealth, FieldHealth};

use crate::error::EngineError;

use super::field_index::FieldIndex;
use super::index::SpaceIndex;
use super::spaces::{fields_of, holds};

/// Deepest level counted, as in a facet answer: a concept scheme with a cycle would otherwise never end.
const MAX_DEPTH: usize = 32;

/// The facet fields of search space `space` as the search-space listing gives them; `NotFound` when the store
/// holds no document of it.
pub(crate) fn listed(conn: &Connection, space: &str) -> Result<Vec<FacetField>, EngineError> {
    if !holds(conn, space)? {
        return Err(EngineError::NotFound(format!("search space {space} does not exist")));
    }
    fields_of(conn, space)
}

/// The facet health of every field of `listed` (in that order) over the index of its search space.
pub(crate) fn facet_health(index: &SpaceIndex, listed: Vec<FacetField>) -> FacetHealth {
    let fields = listed
        .into_iter()
        .map(|f| {
            let counts = index.field(&f.field).map(field_counts).unwrap_or_default();
            FieldHealth {
                field: f.field,
                label: f.label,
                kind: f.kind,
                documents: counts.documents,
                values: counts.values,
                depth: counts.by_depth.len() as i32,
                values_by_depth: counts.by_depth,
                largest_value_documents: counts.largest,
            }
        })
        .collect();
    FacetHealth { search_space: index.space.clone(), documents: index.len() as i64, fields }
}

#[derive(Default)]
struct Counts {
    documents: i64,
    values: i64,
    by_depth: Vec<i64>,
    largest: i64,
}

fn field_counts(field: &FieldIndex) -> Counts {
    let used = |v: u32| !field.values[v as usize].docs.is_empty();
    let documents = field.values.iter().map(|v| &v.docs).union().len() as i64;
    let values = (0..field.values.len() as u32).filter(|&v| used(v)).count() as i64;
    let mut level: Vec<u32> =
        (0..field.values.len() as u32).filter(|&v| used(v) && field.values[v as usize].parents.is_empty()).collect();
    let largest = level.iter().map(|&v| field.values[v as usize].docs.len() as i64).max().unwrap_or(0);
    let mut by_depth = Vec::new();
    while !level.is_empty() && by_depth.len() < MAX_DEPTH {
        by_depth.push(level.len() as i64);
        let mut next: Vec<u32> = level
            .iter()
            .flat_map(|&v| field.values[v as usize].children.iter().copied())
            .filter(|&v| used(v))
            .collect();
        next.sort_unstable();
        next.dedup();
        level = next;
    }
    Counts { documents, values, by_depth, largest }
}

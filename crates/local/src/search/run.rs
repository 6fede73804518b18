//! The search operation: text candidates from FTS5 (queried on its own), facet filters as bitmap
//! AND/OR, ordering and paging, and the facet groups of the configuration.

use std::collections::HashMap;

use roaring::RoaringBitmap;
use rusqlite::Connection;
use studio_model::{Config, FacetGroup, SearchRequest, SearchResponse};

use super::facets::{count_values, facet_group, shown_values};
use super::fetch;
use super::index::{FieldIndex, SpaceIndex};
use super::query::TextQuery;
use crate::error::StoreError;

/// Prefix of the `uri` that `search_spaces` lists for a facet field: `urn:searchstudio:field:<field id>`.
pub const FIELD_URI_PREFIX: &str = "urn:searchstudio:field:";

/// Column weights of bm25 over (title, description, body).
pub(crate) const BM25: &str = "bm25(documents_fts, 5.0, 2.0, 1.0)";

/// Rowids and bm25 scores (lower is better) of the documents matching an FTS5 expression, in any search space.
pub(crate) fn fts_matches(conn: &Connection, expression: &str) -> Result<Vec<(i64, f64)>, StoreError> {
    let sql = format!("SELECT rowid, {BM25} FROM documents_fts WHERE documents_fts MATCH ?1");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([expression], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The field a `facetsToShow` item names: its id, or the uri `search_spaces` lists for it.
pub(crate) fn resolve_field<'a>(index: &'a SpaceIndex, uri: &str) -> Option<&'a FieldIndex> {
    index.field(uri).or_else(|| uri.strip_prefix(FIELD_URI_PREFIX).and_then(|id| index.field(id)))
}

/// One field's selection: the documents it allows and the values it selects.
struct FieldFilter {
    field: String,
    docs: RoaringBitmap,
    values: Vec<u32>,
}

fn filters(index: &SpaceIndex, request: &SearchRequest) -> Vec<FieldFilter> {
    let mut out: Vec<FieldFilter> = Vec::new();
    for item in &request.selected_facets {
        let pos = match out.iter().position(|f| f.field == item.field) {
            Some(p) => p,
            None => {
                out.push(FieldFilter { field: item.field.clone(), docs: RoaringBitmap::new(), values: Vec::new() });
                out.len() - 1
            }
        };
        let Some(field) = index.field(&item.field) else { continue };
        let matched: Vec<u32> = match (&item.value, &item.label) {
            // A refiner copied from a document's dyn_uri_all_concepts group has the URI in `label` and the
            // name in `value` (api.md); when `value` names no concept but `label` does, take it that way.
            (Some(uri), label) => match field.by_uri(uri) {
                Some(v) => vec![v],
                None => label.as_deref().and_then(|l| field.by_uri(l)).into_iter().collect(),
            },
            (None, Some(label)) => field.by_label(label).collect(),
            (None, None) => Vec::new(),
        };
        let filter = &mut out[pos];
        for v in matched {
            if !filter.values.contains(&v) {
                filter.values.push(v);
                filter.docs |= &field.values[v as usize].docs;
            }
        }
    }
    out
}

/// Runs a search of `config` over `index`.
pub(crate) fn search(conn: &Connection, index: &SpaceIndex, config: &Config, request: &SearchRequest) -> Result<SearchResponse, StoreError> {
    let query = TextQuery::parse(request.input.as_deref().unwrap_or(""));
    // (dense number, bm25) of every text match, in dense order.
    let mut scored: Vec<(u32, f64)> = Vec::new();
    let base = match query.to_fts() {
        None => index.all.clone(),
        Some(expression) => {
            scored = fts_matches(conn, &expression)?
                .into_iter()
                .filter_map(|(rowid, score)| index.dense(rowid).map(|d| (d, score)))
                .collect();
            scored.sort_unstable_by_key(|p| p.0);
            scored.dedup_by_key(|p| p.0);
            RoaringBitmap::from_sorted_iter(scored.iter().map(|p| p.0)).unwrap_or_default()
        }
    };
    let filters = filters(index, request);
    let mut result = base.clone();
    for f in &filters {
        result &= &f.docs;
    }
    let start = request.start.unwrap_or(0).max(0) as usize;
    let per_page = config.result.items_per_page.clamp(1, 1000) as usize;
    let page: Vec<u32> = if query.is_empty() {
        result.iter().skip(start).take(per_page).collect()
    } else {
        let everything = result.len() == base.len();
        let mut ranked: Vec<(f64, u32)> =
            scored.iter().filter(|(d, _)| everything || result.contains(*d)).map(|&(d, s)| (s, d)).collect();
        let cmp = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        let end = start.saturating_add(per_page).min(ranked.len());
        if end < ranked.len() && end > 0 {
            ranked.select_nth_unstable_by(end - 1, cmp);
            ranked.truncate(end);
        }
        ranked.sort_unstable_by(cmp);
        ranked.into_iter().skip(start).take(per_page).map(|(_, d)| d).collect()
    };
    let mut facets = Vec::new();
    // Counts per field and kind of group (all values, or those a hierarchy shows), shared by the groups
    // that show the same field.
    let mut memo: HashMap<(String, Option<Vec<u32>>), Vec<u64>> = HashMap::new();
    for setting in config.filter.facets_to_show.iter().filter(|s| s.show) {
        let name = if setting.uri.is_empty() { &setting.ref_id } else { &setting.uri };
        let Some(field) = resolve_field(index, name) else {
            facets.push(FacetGroup { field: name.clone(), label: setting.title.clone(), facets: Vec::new() });
            continue;
        };
        let mut scope = base.clone();
        let mut selected: &[u32] = &[];
        for f in &filters {
            if f.field == field.id {
                selected = &f.values;
            } else {
                scope &= &f.docs;
            }
        }
        let only = shown_values(field, setting, selected);
        let key = (field.id.clone(), only);
        if !memo.contains_key(&key) {
            let counts = count_values(field, &scope, key.1.as_deref());
            memo.insert(key.clone(), counts);
        }
        let counts = memo.get(&key).map(Vec::as_slice).unwrap_or_default();
        facets.push(facet_group(field, setting, counts, selected));
    }
    Ok(SearchResponse {
        concepts: Vec::new(),
        facets,
        result: fetch::documents(conn, index, &page)?,
        message: String::new(),
        total: result.len() as i64,
    })
}

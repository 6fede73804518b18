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
use super::rank;
use crate::error::StoreError;

/// Prefix of the `uri` that `search_spaces` lists for a facet field: `urn:searchstudio:field:<field id>`.
pub const FIELD_URI_PREFIX: &str = "urn:searchstudio:field:";

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
    let filters = filters(index, request);
    // The documents every selection allows; None without selections.
    let allowed = filters.iter().map(|f| &f.docs).fold(None, |acc: Option<RoaringBitmap>, docs| {
        Some(match acc {
            None => docs.clone(),
            Some(acc) => acc & docs,
        })
    });
    // (dense number, score) of every text match, in dense order; only the allowed ones are scored.
    let mut scored: Vec<(u32, Option<f64>)> = Vec::new();
    let text_matches;
    let base: &RoaringBitmap = match query.to_fts() {
        None => &index.all,
        Some(expression) => {
            scored = rank::matches(conn, index, &expression, allowed.as_ref())?;
            text_matches = RoaringBitmap::from_sorted_iter(scored.iter().map(|p| p.0)).unwrap_or_default();
            &text_matches
        }
    };
    let result = match &allowed {
        None => base.clone(),
        Some(allowed) => base & allowed,
    };
    let start = request.start.unwrap_or(0).max(0) as usize;
    let per_page = config.result.items_per_page.clamp(1, 1000) as usize;
    let page: Vec<u32> = if query.is_empty() {
        result.iter().skip(start).take(per_page).collect()
    } else {
        let mut ranked: Vec<(f64, u32)> = scored.iter().filter_map(|&(d, s)| s.map(|s| (s, d))).collect();
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
        let own = filters.iter().find(|f| f.field == field.id);
        let selected: &[u32] = own.map_or(&[], |f| &f.values);
        let only = shown_values(field, setting, selected);
        let key = (field.id.clone(), only);
        if !memo.contains_key(&key) {
            // Counted over the result, or for a field with a selection over what the other selections allow.
            let counts = match own {
                None => count_values(field, &result, key.1.as_deref()),
                Some(_) => {
                    let mut scope = base.clone();
                    for f in filters.iter().filter(|f| f.field != field.id) {
                        scope &= &f.docs;
                    }
                    count_values(field, &scope, key.1.as_deref())
                }
            };
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

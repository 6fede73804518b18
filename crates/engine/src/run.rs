//! The search operation: text candidates from the full-text index (queried on its own), facet filters as bitmap
//! AND/OR, ordering and paging, and the facet groups of the configuration.

use std::borrow::Cow;

use roaring::RoaringBitmap;
use rusqlite::Connection;
use studio_model::{Config, FacetGroup, FacetSetting, SearchRequest};

use super::counting::schedule::count_all;
use super::counting::{cut_of, CountJob};
use super::facets::{facet_group, shown_values};
use super::field_index::FieldIndex;
use super::field_names::{item_name, resolve_field};
use super::index::SpaceIndex;
use super::query::TextQuery;
use super::score;
use super::text_matches;
use super::tuning::Tuned;
use crate::error::EngineError;

/// A shown group's field, its selected values and its count job.
type ShownField<'a> = (&'a FieldIndex, &'a [u32], usize);

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
            // name in `value` (docs/api.md, Documents); when `value` names no concept but `label` does, take it that way.
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

/// Membership of a set of dense numbers, one bit each: a test per scored match costs a shift and a mask.
struct Membership(Vec<u64>);

impl Membership {
    fn of(docs: &RoaringBitmap, documents: usize) -> Membership {
        let mut bits = vec![0u64; documents.div_ceil(64)];
        for doc in docs {
            if let Some(word) = bits.get_mut(doc as usize / 64) {
                *word |= 1 << (doc % 64);
            }
        }
        Membership(bits)
    }

    fn has(&self, doc: u32) -> bool {
        self.0.get(doc as usize / 64).is_some_and(|word| word & (1 << (doc % 64)) != 0)
    }
}

/// What a search found: the facet groups, the dense numbers of the page's documents in order, and how many match.
#[derive(Debug, PartialEq)]
pub(crate) struct Found {
    pub(crate) facets: Vec<FacetGroup>,
    pub(crate) page: Vec<u32>,
    pub(crate) total: i64,
}

/// The page from rank `start` of `docs` in their order (dense numbers follow the order of a search without text):
/// its first document found by rank, from the containers' population counts, rather than by stepping over every
/// document before it, which each of a pull's last pages did.
fn page_in_order(docs: &RoaringBitmap, start: usize, per_page: usize) -> Vec<u32> {
    u32::try_from(start)
        .ok()
        .and_then(|start| docs.select(start))
        .map_or_else(Vec::new, |first| docs.range(first..).take(per_page).collect())
}

/// Runs a search of `config` over `index`, with the thresholds of `tuned`.
pub(crate) fn search(
    conn: &Connection,
    index: &SpaceIndex,
    config: &Config,
    request: &SearchRequest,
    tuned: Tuned,
) -> Result<Found, EngineError> {
    let query = TextQuery::parse(request.input.as_deref().unwrap_or(""));
    let filters = filters(index, request);
    // The documents every selection allows; None without selections.
    let allowed = filters.iter().map(|f| &f.docs).fold(None, |acc: Option<RoaringBitmap>, docs| {
        Some(match acc {
            None => docs.clone(),
            Some(acc) => acc & docs,
        })
    });
    // Every text match, with the scores of (at least) those the filters allow.
    let found = text_matches::matches(conn, index, &query, allowed.as_ref(), tuned)?;
    let base: &RoaringBitmap = found.as_ref().map_or(&index.all, |f| &f.matches.all);
    let result = match &allowed {
        None => base.clone(),
        Some(allowed) => base & allowed,
    };
    let start = request.start.unwrap_or(0).max(0) as usize;
    let per_page = config.result.items_per_page.clamp(1, 1000) as usize;
    let page: Vec<u32> = match &found {
        None => page_in_order(&result, start, per_page),
        Some(found) => {
            let scored = found.matches.scored.iter().copied();
            match &allowed {
                // Kept matches scored more than this search allows.
                Some(allowed) if !found.exact => {
                    let allows = Membership::of(allowed, index.rowids.len());
                    score::page(scored.filter(|&(doc, _)| allows.has(doc)), start, per_page)
                }
                _ => score::page(scored, start, per_page),
            }
        }
    };
    // One count per field and kind of group (all values, or those a hierarchy shows), shared by the groups
    // that show the same field: over the result, or for a field with a selection over what the other
    // selections allow.
    let mut jobs: Vec<CountJob> = Vec::new();
    // Per group shown: its setting, and the field it shows with the selected values and the count job.
    let mut groups: Vec<(&FacetSetting, Option<ShownField>)> = Vec::new();
    for setting in config.filter.facets_to_show.iter().filter(|s| s.show) {
        let Some(field) = resolve_field(index, item_name(&setting.uri, &setting.ref_id)) else {
            groups.push((setting, None));
            continue;
        };
        let own = filters.iter().find(|f| f.field == field.id);
        let selected: &[u32] = own.map_or(&[], |f| &f.values);
        let only = shown_values(field, setting, selected);
        let cut = cut_of(field, setting);
        let job = match jobs.iter().position(|j| j.field.id == field.id && j.only == only && j.cut == cut) {
            Some(job) => job,
            None => {
                let scope = match own {
                    None => Cow::Borrowed(&result),
                    Some(_) => {
                        let mut scope = base.clone();
                        for f in filters.iter().filter(|f| f.field != field.id) {
                            scope &= &f.docs;
                        }
                        Cow::Owned(scope)
                    }
                };
                jobs.push(CountJob { field, scope, only, cut, selected });
                jobs.len() - 1
            }
        };
        groups.push((setting, Some((field, selected, job))));
    }
    let counts = count_all(&jobs, Some(index), tuned);
    let facets = groups
        .into_iter()
        .map(|(setting, group)| match group {
            Some((field, selected, job)) => facet_group(field, setting, &counts[job], selected),
            None => FacetGroup {
                field: item_name(&setting.uri, &setting.ref_id).to_owned(),
                label: setting.title.clone(),
                facets: Vec::new(),
            },
        })
        .collect();
    Ok(Found { facets, page, total: result.len() as i64 })
}

#[cfg(test)]
mod tests {
    use roaring::RoaringBitmap;

    use super::page_in_order;

    /// Pages taken by rank agree with stepping through the documents one by one, at every start that matters,
    /// over documents held in each kind of container (a sparse list, a dense bitmap, runs) across three of them.
    #[test]
    fn a_page_by_rank_is_the_page_stepped_to() {
        let mut docs: RoaringBitmap = (0..70_000).step_by(3).collect();
        docs.extend(70_000..131_072);
        docs.extend((131_072..140_000).step_by(1_000));
        docs.optimize();
        let len = docs.len() as usize;
        for start in [0, 1, 99, 23_333, 23_334, len - 101, len - 100, len - 1, len, len + 1, usize::MAX] {
            for per_page in [1, 10, 100] {
                let stepped: Vec<u32> = docs.iter().skip(start).take(per_page).collect();
                assert_eq!(page_in_order(&docs, start, per_page), stepped, "start {start}, {per_page} a page");
            }
        }
        assert!(page_in_order(&RoaringBitmap::new(), 0, 10).is_empty());
    }
}

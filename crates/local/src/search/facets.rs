//! Facet groups of a search response: counts over the documents that match everything except the field's
//! own selection (drill-sideways), then sorting, the `maximumTerms` cut (selected refiners always kept),
//! and flat or hierarchical nesting, as decisions.md §4 describes.

use std::cmp::Ordering;

use roaring::RoaringBitmap;
use studio_model::{FacetGroup, FacetSetting, Refiner};

use super::index::{FacetValue, FieldIndex};

/// Counts, per value of `field`, the documents of `scope` having it (directly or through a descendant).
pub(crate) fn count_values(field: &FieldIndex, scope: &RoaringBitmap) -> Vec<u64> {
    let mut counts = vec![0u64; field.values.len()];
    if scope.len() < 4 * field.values.len() as u64 {
        // Few documents: walk their value lists, marking each value once per document.
        let mut stamp = vec![u32::MAX; field.values.len()];
        for doc in scope {
            for &v in field.direct_values(doc) {
                for &w in std::iter::once(&v).chain(&field.values[v as usize].ancestors) {
                    if stamp[w as usize] != doc {
                        stamp[w as usize] = doc;
                        counts[w as usize] += 1;
                    }
                }
            }
        }
    } else {
        for (count, value) in counts.iter_mut().zip(&field.values) {
            *count = scope.intersection_len(&value.docs);
        }
    }
    counts
}

/// How refiners of one group are ordered and cut.
struct Arrange<'a> {
    field: &'a FieldIndex,
    counts: &'a [u64],
    selected: &'a [u32],
    alphabetical: bool,
    ascending: bool,
    maximum: usize,
    depth: usize,
    hierarchical: bool,
}

impl Arrange<'_> {
    fn compare(&self, a: u32, b: u32) -> Ordering {
        let (va, vb): (&FacetValue, &FacetValue) = (&self.field.values[a as usize], &self.field.values[b as usize]);
        let by_label = va.label.to_lowercase().cmp(&vb.label.to_lowercase()).then_with(|| va.label.cmp(&vb.label));
        let primary = if self.alphabetical {
            by_label
        } else {
            self.counts[a as usize].cmp(&self.counts[b as usize])
        };
        let primary = if self.ascending { primary } else { primary.reverse() };
        let rest = if self.alphabetical { Ordering::Equal } else { by_label };
        primary.then(rest).then_with(|| va.uri.cmp(&vb.uri))
    }

    /// Sorted, cut refiners among `candidates`, nested below `level` (1 = top) when hierarchical.
    fn level(&self, candidates: &[u32], level: usize, shown: &mut Vec<bool>) -> Vec<Refiner> {
        let mut list: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|&v| self.counts[v as usize] > 0 || self.selected.contains(&v))
            .collect();
        list.sort_by(|&a, &b| self.compare(a, b));
        list.dedup();
        list.into_iter()
            .enumerate()
            .filter(|&(rank, v)| rank < self.maximum || self.selected.contains(&v))
            .map(|(_, v)| {
                shown[v as usize] = true;
                let value = &self.field.values[v as usize];
                let children = (self.hierarchical && level < self.depth && !value.children.is_empty())
                    .then(|| self.level(&value.children, level + 1, shown));
                self.refiner(v, children)
            })
            .collect()
    }

    fn refiner(&self, v: u32, children: Option<Vec<Refiner>>) -> Refiner {
        let value = &self.field.values[v as usize];
        Refiner { count: self.counts[v as usize] as i64, label: value.label.clone(), value: value.uri.clone(), children }
    }
}

/// The group of one `facetsToShow` item over `scope` (the documents matching every other field's
/// selection). `selected` are the values of this field the request selects.
pub(crate) fn facet_group(field: &FieldIndex, setting: &FacetSetting, scope: &RoaringBitmap, selected: &[u32]) -> FacetGroup {
    let counts = count_values(field, scope);
    let hierarchical = setting.facet_mode == "hierarchical";
    let arrange = Arrange {
        field,
        counts: &counts,
        selected,
        alphabetical: setting.sorting == "alphabetical",
        ascending: setting.sorting_order == "asc",
        maximum: setting.maximum_terms.max(1) as usize,
        depth: setting.hierarchical_depth.clamp(1, 32) as usize,
        hierarchical,
    };
    let candidates: Vec<u32> = (0..field.values.len() as u32)
        .filter(|&v| !hierarchical || field.values[v as usize].parents.is_empty())
        .collect();
    let mut shown = vec![false; field.values.len()];
    let mut facets = arrange.level(&candidates, 1, &mut shown);
    // A selected refiner the tree does not reach (deeper than hierarchicalDepth) is still offered, at the top.
    let mut hidden: Vec<u32> = selected.iter().copied().filter(|&v| !shown[v as usize]).collect();
    hidden.sort_by(|&a, &b| arrange.compare(a, b));
    hidden.dedup();
    facets.extend(hidden.into_iter().map(|v| arrange.refiner(v, None)));
    FacetGroup { field: field.id.clone(), label: setting.title.clone(), facets }
}

//! Facet groups of a search response from the counts of crate::counting: sorting, the
//! `maximumTerms` cut (selected refiners always kept), and flat or hierarchical nesting, as docs/api.md (Facets
//! in the answer) describes.

use std::cmp::Ordering;

use studio_model::{FacetGroup, FacetSetting, Refiner, HIERARCHICAL};

use super::field_index::{FacetValue, FieldIndex};

/// The values a group can show: in hierarchical mode the top concepts and their narrower ones down to
/// `depth` levels, and the selected ones; `None` (all of them) in flat mode.
pub(crate) fn shown_values(field: &FieldIndex, setting: &FacetSetting, selected: &[u32]) -> Option<Vec<u32>> {
    if setting.facet_mode != HIERARCHICAL {
        return None;
    }
    let depth = setting.hierarchical_depth.clamp(1, 32) as usize;
    let mut out: Vec<u32> =
        (0..field.values.len() as u32).filter(|&v| field.values[v as usize].parents.is_empty()).collect();
    let mut level = out.clone();
    for _ in 1..depth {
        level = level.iter().flat_map(|&v| field.values[v as usize].children.iter().copied()).collect();
        if level.is_empty() {
            break;
        }
        out.extend(&level);
    }
    out.extend(selected);
    out.sort_unstable();
    out.dedup();
    Some(out)
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
        let (ra, rb) = (self.field.label_rank[a as usize], self.field.label_rank[b as usize]);
        let by_label = ra.cmp(&rb);
        let primary = if self.alphabetical { by_label } else { self.counts[a as usize].cmp(&self.counts[b as usize]) };
        let primary = if self.ascending { primary } else { primary.reverse() };
        let rest = if self.alphabetical { Ordering::Equal } else { by_label };
        primary.then(rest).then_with(|| {
            let (va, vb): (&FacetValue, &FacetValue) = (&self.field.values[a as usize], &self.field.values[b as usize]);
            va.uri.cmp(&vb.uri)
        })
    }

    /// Sorted, cut refiners among `candidates`, nested below `level` (1 = top) when hierarchical.
    fn level(&self, candidates: &[u32], level: usize, shown: &mut Vec<bool>) -> Vec<Refiner> {
        let mut list: Vec<u32> =
            candidates.iter().copied().filter(|&v| self.counts[v as usize] > 0 || self.selected.contains(&v)).collect();
        list.sort_unstable();
        list.dedup();
        let cmp = |a: &u32, b: &u32| self.compare(*a, *b);
        if list.len() > self.maximum {
            // Only the first `maximum` need ordering, then the selected ones past them.
            list.select_nth_unstable_by(self.maximum - 1, cmp);
            let mut rest: Vec<u32> = list.split_off(self.maximum);
            rest.retain(|v| self.selected.contains(v));
            list.sort_by(cmp);
            rest.sort_by(cmp);
            list.extend(rest);
        } else {
            list.sort_by(cmp);
        }
        list.into_iter()
            .map(|v| {
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
        Refiner {
            count: self.counts[v as usize] as i64,
            label: value.label.clone(),
            value: value.uri.clone(),
            children,
        }
    }
}

/// The group of one `facetsToShow` item over `scope` (the documents matching every other field's
/// selection). `selected` are the values of this field the request selects.
/// `counts` are those of [`count_values`] over that scope, for at least [`shown_values`].
pub(crate) fn facet_group(field: &FieldIndex, setting: &FacetSetting, counts: &[u64], selected: &[u32]) -> FacetGroup {
    let hierarchical = setting.facet_mode == HIERARCHICAL;
    let arrange = Arrange {
        field,
        counts,
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use studio_model::FacetSetting;

    use super::facet_group;
    use crate::field_index::{FacetValue, FieldIndex};

    /// Labels order groups as docs/api.md says, whatever the values' order in the index: lower-cased label,
    /// then the label itself, then the value ascending (also when the labels are sorted descending), and by
    /// label among equal counts.
    #[test]
    fn labels_order_groups_by_case_folded_label_then_label_then_value() {
        let labels = [("b", "u1"), ("B", "u2"), ("a", "u4"), ("a", "u3"), ("A", "u5"), ("c", "u0")];
        let values = labels
            .iter()
            .map(|(label, uri)| FacetValue {
                label: (*label).into(),
                label_lower: label.to_lowercase(),
                uri: Some((*uri).into()),
                docs: (0..3).collect(),
                children: Vec::new(),
                parents: Vec::new(),
                ancestors: Vec::new(),
            })
            .collect();
        let field = FieldIndex::from_parts("f".into(), values, HashMap::new(), vec![0, 0, 0, 0], Vec::new());
        let shown = |sorting: &str, order: &str, counts: &[u64]| -> Vec<String> {
            let setting = FacetSetting {
                facet_mode: "flat".into(),
                sorting: sorting.into(),
                sorting_order: order.into(),
                maximum_terms: 10,
                ..Default::default()
            };
            facet_group(&field, &setting, counts, &[])
                .facets
                .into_iter()
                .map(|r| format!("{} {}", r.label, r.value.unwrap_or_default()))
                .collect()
        };
        let even = [1; 6];
        let rising = ["A u5", "a u3", "a u4", "B u2", "b u1", "c u0"];
        assert_eq!(shown("alphabetical", "asc", &even), rising);
        assert_eq!(shown("alphabetical", "desc", &even), ["c u0", "b u1", "B u2", "a u3", "a u4", "A u5"]);
        assert_eq!(shown("count", "desc", &even), rising);
        assert_eq!(shown("count", "desc", &[1, 2, 1, 2, 1, 0]), ["a u3", "B u2", "A u5", "a u4", "b u1"]);
    }
}

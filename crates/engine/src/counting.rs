//! Facet value counts over the documents that match everything except a field's own selection
//! (drill-sideways): by bitmap sizes over the whole space, by walking the scope's documents or intersecting
//! the values' bitmaps (whichever costs less), by a cut that counts only what a group can show, several
//! groups walking one scope together, and the work shared between two threads (how a search's counts are
//! scheduled: [`schedule`]).

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::RangeBounds;

use roaring::RoaringBitmap;
use studio_model::{FacetSetting, HIERARCHICAL};

use super::field_index::FieldIndex;
use super::tally::Tally;
use super::visit::for_each_in;

/// Counts, per value of `field`, the documents of `scope` having it (directly or through a descendant).
/// With `only`, values outside it may be left at 0 when that saves work.
pub(crate) fn count_values(field: &FieldIndex, scope: &RoaringBitmap, only: Option<&[u32]>) -> Vec<u64> {
    if is_whole_space(field, scope) {
        // Every document counts (the preview as opened: no text, no selection): a value's count is the size of
        // its documents' bitmap, which holds its descendants' documents too.
        return field.sizes.clone();
    }
    let wanted = only.map_or(field.values.len(), <[u32]>::len);
    if walk_is_cheaper(field, scope, wanted) {
        return walk(field, scope, ..);
    }
    let mut counts = vec![0u64; field.values.len()];
    if let Some(only) = only {
        for &v in only {
            counts[v as usize] = scope.intersection_len(&field.values[v as usize].docs);
        }
    } else {
        for (count, value) in counts.iter_mut().zip(&field.values) {
            *count = scope.intersection_len(&value.docs);
        }
    }
    counts
}

/// Counts, per value of `field`, the documents of `scope` in `range` having it (directly or through a descendant),
/// by walking them.
fn walk(field: &FieldIndex, scope: &RoaringBitmap, range: impl RangeBounds<u32>) -> Vec<u64> {
    if field.flat {
        // A document's direct values are distinct, and without ancestors each counts once.
        let mut counts = vec![0u64; field.values.len()];
        for_each_in(scope, range, |doc| {
            for &v in field.direct_values(doc) {
                counts[v as usize] += 1;
            }
        });
        counts
    } else {
        let mut tally = Tally::new(field);
        for_each_in(scope, range, |doc| {
            for &v in field.direct_values(doc) {
                tally.add(field, doc, v);
            }
        });
        tally.finish(field)
    }
}

/// Whether `scope` holds every document of the search space (scopes only ever hold its dense numbers).
fn is_whole_space(field: &FieldIndex, scope: &RoaringBitmap) -> bool {
    let documents = field.documents();
    documents > 0 && scope.len() == documents
}

/// Whether walking the documents of `scope` costs no more than intersecting it with `wanted` values' bitmaps
/// (an empty scope is walked: nothing to do).
fn walk_is_cheaper(field: &FieldIndex, scope: &RoaringBitmap, wanted: usize) -> bool {
    let (walk, intersect) = costs(field, scope, wanted);
    walk <= intersect
}

/// The cost of counting `wanted` values of `field` over `scope` by walking its documents and by intersecting
/// bitmaps, in walking steps. Walking costs one step per value (or ancestor) of each document; one
/// intersection as [`cut_steps`] says.
fn costs(field: &FieldIndex, scope: &RoaringBitmap, wanted: usize) -> (f64, f64) {
    let walk = scope.len() as f64 * field.values_per_doc.max(1.0);
    (walk, wanted as f64 * cut_steps(scope))
}

/// The cost of one value's intersection with `scope`, in walking steps: 256 per 65,536-document block of a
/// scope dense enough for roaring to hold its blocks as bitmaps (the factor with the lowest facet-only times of
/// `studio bench` at 100k documents among 8 to 4,096, docs/performance-journal.md), about half a step per document of a
/// sparser one, each of which is looked up in the value's block (measured at 1M: 0.02–0.03 ms an intersection
/// with half of the documents, 0.26 ms with 61,000 scattered ones).
fn cut_steps(scope: &RoaringBitmap) -> f64 {
    let (Some(first), Some(last)) = (scope.min(), scope.max()) else { return 0.0 };
    let blocks = f64::from((last >> 16) - (first >> 16) + 1);
    if is_sparse(scope) {
        scope.len() as f64 / 2.0
    } else {
        256.0 * blocks
    }
}

/// Whether `scope` is too sparse for roaring to hold its blocks as bitmaps (fewer than 4,096 documents in a
/// block of 65,536, on average over the blocks it spans).
fn is_sparse(scope: &RoaringBitmap) -> bool {
    let (Some(first), Some(last)) = (scope.min(), scope.max()) else { return false };
    let blocks = u64::from((last >> 16) - (first >> 16) + 1);
    scope.len() < 4096 * blocks
}

/// What a flat group shows that lets counting stop early: the `maximum` values with the most documents
/// (sorted by count, descending), or the first `maximum` values by label that have documents (alphabetical,
/// ascending). Other orders need every count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    MostDocuments(usize),
    FirstByLabel(usize),
}

/// The cut of a group showing `field` with `setting`, if its order allows one and the field has a hierarchy.
/// A concept's documents include its descendants', so a few broad concepts hold most documents and the
/// counting stops after them; the values of a field without one are often about equally common (400 sources),
/// which a cut would count almost all of, one intersection each, before its bound stops it (measured slower
/// than walking the documents at 1M: docs/performance-journal.md).
pub(crate) fn cut_of(field: &FieldIndex, setting: &FacetSetting) -> Option<Cut> {
    if setting.facet_mode == HIERARCHICAL || field.flat {
        return None;
    }
    let maximum = setting.maximum_terms.max(1) as usize;
    match (setting.sorting == "alphabetical", setting.sorting_order == "asc") {
        (false, false) => Some(Cut::MostDocuments(maximum)),
        (true, true) => Some(Cut::FirstByLabel(maximum)),
        _ => None,
    }
}

/// The counts a group cut by `cut` needs over `scope`: every value it can show and every `selected` one
/// counted exactly, the others left at 0 (a value left out has fewer documents in all than the last one
/// shown has in `scope`, or comes after the last one shown by label). Values are counted one by one by
/// intersecting bitmaps, most documents first or by label; `None` when that would cost more than walking
/// the scope's documents (as [`costs`] estimates both).
fn count_cut(field: &FieldIndex, scope: &RoaringBitmap, cut: Cut, selected: &[u32]) -> Option<Vec<u64>> {
    let (walk, _) = costs(field, scope, 1);
    let one = cut_steps(scope);
    let mut budget = if one > 0.0 { (walk / one / 4.0) as usize } else { 0 };
    let mut counts = vec![0u64; field.values.len()];
    // Which values are counted so far (a count of 0 is a count).
    let mut counted = vec![false; field.values.len()];
    let mut count = |v: u32, counts: &mut Vec<u64>, counted: &mut Vec<bool>| -> Option<u64> {
        if selected.contains(&v) {
            return Some(counts[v as usize]);
        }
        budget = budget.checked_sub(1)?;
        let c = scope.intersection_len(&field.values[v as usize].docs);
        counts[v as usize] = c;
        counted[v as usize] = true;
        Some(c)
    };
    for &v in selected {
        counts[v as usize] = scope.intersection_len(&field.values[v as usize].docs);
        counted[v as usize] = true;
    }
    match cut {
        Cut::MostDocuments(maximum) => {
            // The `maximum` best counts so far, the smallest on top.
            let mut best: BinaryHeap<Reverse<u64>> = BinaryHeap::with_capacity(maximum + 1);
            for &v in &field.by_size {
                let least = if best.len() == maximum { best.peek().map(|least| least.0) } else { None };
                if least.is_some_and(|least| field.sizes[v as usize] < least) {
                    break;
                }
                let value = &field.values[v as usize];
                // A value's documents include its descendants', so a value has no more documents in the scope
                // than any of its parents counted already.
                let parent = value.parents.iter().filter(|&&p| counted[p as usize]).map(|&p| counts[p as usize]).min();
                if least.zip(parent).is_some_and(|(least, parent)| parent < least) {
                    continue;
                }
                let c = count(v, &mut counts, &mut counted)?;
                if c > 0 {
                    best.push(Reverse(c));
                    if best.len() > maximum {
                        best.pop();
                    }
                }
            }
        }
        Cut::FirstByLabel(maximum) => {
            let mut found = 0;
            for &v in &field.by_name {
                if found == maximum {
                    break;
                }
                if count(v, &mut counts, &mut counted)? > 0 {
                    found += 1;
                }
            }
        }
    }
    Some(counts)
}

/// One count to make: `field`'s values (those of `only`, or all) over `scope`; with `cut`, only those a
/// group with that cut shows, and the `selected` ones.
pub(crate) struct CountJob<'a> {
    pub field: &'a FieldIndex,
    pub scope: Cow<'a, RoaringBitmap>,
    pub only: Option<Vec<u32>>,
    pub cut: Option<Cut>,
    pub selected: &'a [u32],
}

impl CountJob<'_> {
    fn count(&self) -> Vec<u64> {
        // Over the whole space every count is the size of a bitmap: nothing to cut.
        let cut = self.cut.filter(|_| !is_whole_space(self.field, &self.scope));
        if let Some(counts) = cut.and_then(|cut| count_cut(self.field, &self.scope, cut, self.selected)) {
            return counts;
        }
        count_values(self.field, &self.scope, self.only.as_deref())
    }

    /// Whether counting walks the scope's documents (no cut to try, not the whole space, walking cheaper than
    /// intersecting): such a count can be made in parts over ranges of the documents, which add up.
    fn walks(&self) -> bool {
        self.cut.is_none()
            && !is_whole_space(self.field, &self.scope)
            && walk_is_cheaper(self.field, &self.scope, self.only.as_ref().map_or(self.field.values.len(), Vec::len))
    }

    fn cost(&self) -> f64 {
        if is_whole_space(self.field, &self.scope) {
            return self.field.values.len() as f64;
        }
        let (walk, intersect) =
            costs(self.field, &self.scope, self.only.as_ref().map_or(self.field.values.len(), Vec::len));
        match self.cut {
            // A cut usually stops after a few values per value shown (else it falls back to walking): so
            // estimated, the two threads of `count_all` get work of about equal length.
            Some(Cut::MostDocuments(shown) | Cut::FirstByLabel(shown)) => {
                walk.min(intersect).min(4.0 * shown as f64 * cut_steps(&self.scope))
            }
            None => walk.min(intersect),
        }
    }
}

pub(crate) mod schedule;
#[cfg(test)]
pub(crate) mod tests;

//! getSimilar's default plugin, `concepts` (concept overlap weighted by inverse document frequency, broader
//! concepts counting half), and what it shares with the `text` plugin (text_similar.rs) and the
//! `related-concepts` recommender: documents ranked by the sums of weighted sets of documents, adding only
//! what can still reach the page. Both plugins return dense document numbers, best first, never the source
//! document.

use std::collections::HashMap;

use roaring::RoaringBitmap;
use studio_model::ALL_CONCEPTS_FIELD;

use super::field_index::FieldIndex;
use super::index::SpaceIndex;

/// Inverse document frequency of a value within the search space.
pub(crate) fn idf(index: &SpaceIndex, df: u64) -> f64 {
    (1.0 + index.len() as f64 / df.max(1) as f64).ln()
}

/// Documents scored by the sets of documents they are in: each set added gives its weight to each of its
/// documents, and [`Scores::best`] ranks them by the sums.
pub(crate) struct Scores<'a> {
    documents: usize,
    sets: Vec<(&'a RoaringBitmap, f64)>,
}

impl<'a> Scores<'a> {
    pub(crate) fn new(index: &SpaceIndex) -> Scores<'a> {
        Scores { documents: index.rowids.len(), sets: Vec::new() }
    }

    /// Gives `weight` (not negative) to every document of `docs`.
    pub(crate) fn add(&mut self, docs: &'a RoaringBitmap, weight: f64) {
        self.sets.push((docs, weight.max(0.0)));
    }

    /// The best documents by their sums, best first (equal sums by dense number: date descending, then id),
    /// without `source` and `exclude`, at most `limit`; each sum as adding the sets in the order they were given
    /// makes it.
    ///
    /// A broad concept's set holds hundreds of thousands of documents at 1M, and adding its weight to each of
    /// them was most of the time, though a few documents are asked for. So the sets are added heaviest first;
    /// once the weights of the sets left add up to less than the `limit`-th best sum so far, a document in none
    /// of the sets added cannot be among the best, and each set left is added only to the documents found that
    /// it could still lift to the last place (an intersection). The documents within a rounding of the last
    /// place are summed again in the given order.
    pub(crate) fn best(self, source: u32, exclude: &[u32], limit: usize) -> Vec<u32> {
        if limit == 0 {
            return Vec::new();
        }
        let sets = &self.sets;
        let left_out: RoaringBitmap = exclude.iter().copied().chain([source]).collect();
        let mut order: Vec<usize> = (0..sets.len()).collect();
        order.sort_by(|&a, &b| sets[b].1.total_cmp(&sets[a].1).then(sets[a].0.len().cmp(&sets[b].0.len())));
        // What the sets from the j-th of `order` on give a document, at most.
        let mut most_left = vec![0.0; order.len() + 1];
        for j in (0..order.len()).rev() {
            most_left[j] = most_left[j + 1] + sets[order[j]].1;
        }
        let mut score = vec![0.0f64; self.documents];
        let give = |score: &mut [f64], docs: &RoaringBitmap, weight: f64| {
            for d in docs {
                if let Some(s) = score.get_mut(d as usize) {
                    *s += weight;
                }
            }
        };
        let mut found = RoaringBitmap::new();
        let mut only_found = false;
        // Documents given a weight since the sums were last looked at.
        let mut given = 0;
        for (j, &i) in order.iter().enumerate() {
            let (docs, weight) = sets[i];
            if only_found {
                give(&mut score, &(&found & docs), weight);
                continue;
            }
            give(&mut score, docs, weight);
            found |= docs;
            given += docs.len();
            // No sum exceeds what the sets added give at most, so while that is below what the sets left give,
            // the sums need not be looked at (with a margin for rounding); and they are looked at again only once
            // as many documents as were found have been given a weight since, which keeps looking at them no
            // more work than the adding.
            let left = most_left[j + 1] * (1.0 + ROUNDING);
            if left < most_left[0] - most_left[j + 1] && given >= found.len() {
                given = 0;
                // Only a sum above what the sets left give matters here.
                let sums = found.iter().filter_map(|d| score.get(d as usize).filter(|&&s| s > left).map(|&s| (d, s)));
                let kth = kth_highest(sums.filter(|&(d, _)| !left_out.contains(d)).map(|(_, s)| s), limit);
                if let Some(kth) = kth {
                    // Only the documents that the sets left could still lift to the last place are followed.
                    let last = kth * (1.0 - ROUNDING);
                    found =
                        found.iter().filter(|&d| score.get(d as usize).is_some_and(|&s| s + left >= last)).collect();
                    only_found = true;
                }
            }
        }
        let sums = found.iter().filter(|&d| !left_out.contains(d)).filter_map(|d| score.get(d as usize).copied());
        let close = kth_highest(sums, limit).map_or(0.0, |kth| kth * (1.0 - ROUNDING));
        let mut ranked: Vec<(f64, u32)> = found
            .iter()
            .filter(|&d| score.get(d as usize).is_some_and(|&s| s >= close) && !left_out.contains(d))
            .map(|d| (sets.iter().filter(|(docs, _)| docs.contains(d)).fold(0.0, |sum, (_, w)| sum + w), d))
            .filter(|&(s, _)| s > 0.0)
            .collect();
        ranked.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        ranked.into_iter().take(limit).map(|(_, d)| d).collect()
    }
}

/// The `keep`-th highest of `values`, if there are that many.
pub(super) fn kth_highest(values: impl Iterator<Item = f64>, keep: usize) -> Option<f64> {
    let mut values: Vec<f64> = values.collect();
    if keep == 0 || values.len() < keep {
        return None;
    }
    let (_, kth, _) = values.select_nth_unstable_by(keep - 1, |a, b| b.total_cmp(a));
    Some(*kth)
}

/// How far apart, relatively, sums of the same numbers added in different orders may be, with room to spare:
/// pruning and the last place are judged with this margin, on the safe side.
pub(super) const ROUNDING: f64 = 1e-9;

/// The union concept field of the search space, if it has concepts at all.
pub(crate) fn concepts_field(index: &SpaceIndex) -> Option<&FieldIndex> {
    index.field(ALL_CONCEPTS_FIELD)
}

/// The concepts `doc` is scored by, by value: its own at full weight, those broader than one of them at half.
pub(crate) fn concept_weights(field: &FieldIndex, doc: u32) -> Vec<(u32, f64)> {
    let mut weights: HashMap<u32, f64> = HashMap::new();
    for &v in field.direct_values(doc) {
        weights.insert(v, 1.0);
        for &a in &field.values[v as usize].ancestors {
            weights.entry(a).or_insert(0.5);
        }
    }
    let mut weights: Vec<(u32, f64)> = weights.into_iter().collect();
    weights.sort_unstable_by_key(|w| w.0);
    weights
}

/// Documents sharing concepts with `doc`: each shared concept adds its IDF; a concept broader than one of
/// the document's adds half its IDF.
pub(crate) fn by_concepts(index: &SpaceIndex, doc: u32, limit: usize) -> Vec<u32> {
    let Some(field) = concepts_field(index) else { return Vec::new() };
    let mut scores = Scores::new(index);
    for (v, w) in concept_weights(field, doc) {
        let value = &field.values[v as usize];
        scores.add(&value.docs, w * idf(index, value.docs.len()));
    }
    scores.best(doc, &[], limit)
}

/// Pseudo-random numbers from `seed`, each below the bound it is asked with (tests of both plugins).
#[cfg(test)]
pub(crate) fn numbers(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |below| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % below.max(1)
    }
}

#[cfg(test)]
mod tests {
    use roaring::RoaringBitmap;

    use super::{numbers, Scores};

    /// The best documents by the sums of their sets' weights are those of summing every set for every document
    /// in the order given (ties by dense number), whatever sets are left out of the sums on the way, over random
    /// sets of every size with equal weights, documents left out and pages of every length.
    #[test]
    fn the_best_by_sets_are_those_of_summing_every_set() {
        let mut next = numbers(3);
        let documents = 3000u32;
        for case in 0..300 {
            let sets: Vec<(RoaringBitmap, f64)> = (0..1 + next(30))
                .map(|_| {
                    let broad = next(4) == 0;
                    let size = 1 + next(if broad { 2500 } else { 120 });
                    let docs: RoaringBitmap = (0..size).map(|_| next(u64::from(documents)) as u32).collect();
                    let weight = [0.5, 1.0][next(2) as usize] * (1.0 + f64::from(documents) / docs.len() as f64).ln();
                    (docs, weight)
                })
                .collect();
            let source = next(u64::from(documents)) as u32;
            let exclude: Vec<u32> = (0..next(4)).map(|_| next(u64::from(documents)) as u32).collect();
            let limit = [1, 3, 10, 100][next(4) as usize];
            let mut scores = Scores { documents: documents as usize, sets: Vec::new() };
            for (docs, weight) in &sets {
                scores.add(docs, *weight);
            }
            let mut every: Vec<(f64, u32)> = (0..documents)
                .filter(|d| *d != source && !exclude.contains(d))
                .map(|d| (sets.iter().filter(|(docs, _)| docs.contains(d)).fold(0.0, |sum, (_, w)| sum + w), d))
                .filter(|&(s, _)| s > 0.0)
                .collect();
            every.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let expected: Vec<u32> = every.into_iter().take(limit).map(|(_, d)| d).collect();
            assert_eq!(scores.best(source, &exclude, limit), expected, "case {case}");
        }
    }
}

//! The recommenders of getRecommendations: `related-concepts` (documents about concepts next to the
//! document's own in the hierarchy, leaving out the ones getSimilar already shows) and `same-author`.

use std::collections::HashMap;

use super::index::SpaceIndex;
use super::similar::{by_concepts, concepts_field, idf, Scores};

/// The literal field naming a document's authors.
pub(crate) const AUTHOR_FIELD: &str = "dyn_lit_author";

/// Documents about broader (half weight), narrower or sibling concepts of `doc`'s concepts, weighted by
/// IDF, without the `similar` most similar documents by concepts.
pub(crate) fn related_concepts(index: &SpaceIndex, doc: u32, similar: usize, limit: usize) -> Vec<u32> {
    let Some(field) = concepts_field(index) else { return Vec::new() };
    let own = field.direct_values(doc);
    let mut weights: HashMap<u32, f64> = HashMap::new();
    for &v in own {
        let value = &field.values[v as usize];
        for &p in &value.parents {
            weights.entry(p).or_insert(0.5);
            for &s in &field.values[p as usize].children {
                weights.insert(s, 1.0);
            }
        }
        for &c in &value.children {
            weights.insert(c, 1.0);
        }
    }
    let mut scores = Scores::new(index);
    let mut weights: Vec<(u32, f64)> = weights.into_iter().filter(|(v, _)| !own.contains(v)).collect();
    weights.sort_unstable_by_key(|w| w.0);
    for (v, w) in weights {
        let value = &field.values[v as usize];
        scores.add(&value.docs, w * idf(index, value.docs.len()));
    }
    let exclude = by_concepts(index, doc, similar);
    scores.best(doc, &exclude, limit)
}

/// Other documents by any author of `doc`, newest first.
pub(crate) fn same_author(index: &SpaceIndex, doc: u32, limit: usize) -> Vec<u32> {
    let Some(field) = index.field(AUTHOR_FIELD) else { return Vec::new() };
    let mut docs = roaring::RoaringBitmap::new();
    for &v in field.direct_values(doc) {
        docs |= &field.values[v as usize].docs;
    }
    docs.remove(doc);
    docs.iter().take(limit).collect()
}

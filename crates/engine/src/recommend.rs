//! The recommenders of getRecommendations: `related-concepts` (documents about concepts next to the
//! document's own in the hierarchy, leaving out the ones getSimilar already shows) and `same-author`.

use std::collections::HashMap;

use super::field_index::FieldIndex;
use super::index::SpaceIndex;
use super::similar::{by_concepts, concepts_field, idf, Scores};

/// The literal field naming a document's authors.
pub(crate) const AUTHOR_FIELD: &str = "dyn_lit_author";

/// How a concept is next to one of the document's own, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Relation {
    Broader,
    Sibling,
    Narrower,
}

impl Relation {
    fn weight(self) -> f64 {
        if self == Relation::Broader {
            0.5
        } else {
            1.0
        }
    }
}

/// The concepts next to `doc`'s own it is recommended by, by value: broader ones at half weight, siblings and
/// narrower ones at full weight, never its own. A concept next to several of them counts by its closest
/// relation (narrower, then sibling, then broader).
pub(crate) fn related_weights(field: &FieldIndex, doc: u32) -> Vec<(u32, f64, Relation)> {
    let own = field.direct_values(doc);
    let mut weights: HashMap<u32, Relation> = HashMap::new();
    let mut note = |v: u32, r: Relation| {
        let known = weights.entry(v).or_insert(r);
        *known = (*known).max(r);
    };
    for &v in own {
        let value = &field.values[v as usize];
        for &p in &value.parents {
            note(p, Relation::Broader);
            for &s in &field.values[p as usize].children {
                note(s, Relation::Sibling);
            }
        }
        for &c in &value.children {
            note(c, Relation::Narrower);
        }
    }
    let mut weights: Vec<(u32, f64, Relation)> =
        weights.into_iter().filter(|(v, _)| !own.contains(v)).map(|(v, r)| (v, r.weight(), r)).collect();
    weights.sort_unstable_by_key(|w| w.0);
    weights
}

/// Documents about broader (half weight), narrower or sibling concepts of `doc`'s concepts, weighted by
/// IDF, without the `similar` most similar documents by concepts.
pub(crate) fn related_concepts(index: &SpaceIndex, doc: u32, similar: usize, limit: usize) -> Vec<u32> {
    let Some(field) = concepts_field(index) else { return Vec::new() };
    let mut scores = Scores::new(index);
    for (v, w, _) in related_weights(field, doc) {
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

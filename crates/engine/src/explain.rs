//! "Why this document?" (docs/api.md, Similar documents and Recommendations): for each document a similarity
//! plugin or recommender returned, the things it shares with the source that scored, largest contribution
//! first. Worked out only when asked (`explain=true`), after the ranking, from the same weights the ranking used.

use roaring::RoaringBitmap;
use rusqlite::Connection;
use studio_model::{Explanation, Reason, MAX_REASONS};

use super::fetch;
use super::field_index::FieldIndex;
use super::index::SpaceIndex;
use super::recommend::{related_weights, Relation, AUTHOR_FIELD};
use super::similar::{concept_weights, concepts_field, idf};
use super::stamp::Stamp;
use super::text_similar::{distinctive_terms, has_term};
use super::tuning::Tuned;
use crate::error::EngineError;
use studio_text::Snapshot;

/// One reason with its part of the score, before sorting.
struct Scored {
    weight: f64,
    reason: Reason,
}

fn explanation(plugin: &str, mut scored: Vec<Scored>) -> Explanation {
    scored.sort_by(|a, b| b.weight.total_cmp(&a.weight).then_with(|| a.reason.value.cmp(&b.reason.value)));
    Explanation { plugin: plugin.to_owned(), reasons: scored.into_iter().take(MAX_REASONS).map(|s| s.reason).collect() }
}

fn concept(field: &FieldIndex, v: u32, kind: &str) -> Reason {
    let value = &field.values[v as usize];
    let uri = value.uri.clone().unwrap_or_else(|| value.label.clone());
    Reason { kind: kind.to_owned(), value: uri, label: value.label.clone() }
}

/// For each weighted concept that `doc` carries, its reason and part of the score.
fn shared(index: &SpaceIndex, field: &FieldIndex, weights: &[(u32, f64, &str)], doc: u32) -> Vec<Scored> {
    weights
        .iter()
        .filter(|(v, _, _)| field.values[*v as usize].docs.contains(doc))
        .map(|&(v, w, kind)| Scored {
            weight: w * idf(index, field.values[v as usize].docs.len()),
            reason: concept(field, v, kind),
        })
        .collect()
}

/// The `concepts` plugin: the source's concepts each document shares, and the broader ones (half weight).
pub(crate) fn by_concepts(index: &SpaceIndex, source: u32, docs: &[u32]) -> Vec<Explanation> {
    let Some(field) = concepts_field(index) else {
        return docs.iter().map(|_| explanation("concepts", Vec::new())).collect();
    };
    let weights: Vec<(u32, f64, &str)> = concept_weights(field, source)
        .into_iter()
        .map(|(v, w)| (v, w, if w < 1.0 { "broader-concept" } else { "concept" }))
        .collect();
    docs.iter().map(|&d| explanation("concepts", shared(index, field, &weights, d))).collect()
}

/// The `related-concepts` recommender: the concepts next to the source's own that each document carries.
pub(crate) fn by_related_concepts(index: &SpaceIndex, source: u32, docs: &[u32]) -> Vec<Explanation> {
    let plugin = "related-concepts";
    let Some(field) = concepts_field(index) else {
        return docs.iter().map(|_| explanation(plugin, Vec::new())).collect();
    };
    let weights: Vec<(u32, f64, &str)> = related_weights(field, source)
        .into_iter()
        .map(|(v, w, r)| {
            let kind = match r {
                Relation::Broader => "broader-concept",
                Relation::Sibling => "sibling-concept",
                Relation::Narrower => "narrower-concept",
            };
            (v, w, kind)
        })
        .collect();
    docs.iter().map(|&d| explanation(plugin, shared(index, field, &weights, d))).collect()
}

/// The `same-author` recommender: the source's authors each document has too.
pub(crate) fn by_same_author(index: &SpaceIndex, source: u32, docs: &[u32]) -> Vec<Explanation> {
    let plugin = "same-author";
    let Some(field) = index.field(AUTHOR_FIELD) else {
        return docs.iter().map(|_| explanation(plugin, Vec::new())).collect();
    };
    let authors: Vec<(&str, &RoaringBitmap)> = field
        .direct_values(source)
        .iter()
        .map(|&v| (field.values[v as usize].label.as_str(), &field.values[v as usize].docs))
        .collect();
    docs.iter()
        .map(|&d| {
            let scored = authors
                .iter()
                .filter(|(_, carrying)| carrying.contains(d))
                .map(|(name, _)| Scored {
                    weight: 1.0,
                    reason: Reason { kind: "author".into(), value: (*name).to_owned(), label: (*name).to_owned() },
                })
                .collect();
            explanation(plugin, scored)
        })
        .collect()
}

/// The `text` plugin: the source's distinctive words each document has, by their weight in the query.
pub(crate) fn by_text(
    conn: &Connection,
    index: &SpaceIndex,
    stamp: &Stamp,
    text: &Snapshot,
    source: u32,
    docs: &[u32],
    tuned: Tuned,
) -> Result<Vec<Explanation>, EngineError> {
    let terms = distinctive_terms(conn, index, source, stamp, text, tuned)?;
    docs.iter()
        .map(|&d| {
            let text = fetch::text_of(conn, index, d)?;
            let scored = terms
                .iter()
                .filter(|d| has_term(&text, &d.term))
                .map(|d| Scored {
                    weight: d.weight,
                    reason: Reason { kind: "term".into(), value: d.term.clone(), label: d.term.clone() },
                })
                .collect();
            Ok(explanation("text", scored))
        })
        .collect()
}

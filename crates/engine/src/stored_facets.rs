//! A document's facet list as the documents file keeps it (`documents.facet_list`): the API's facet groups
//! (docs/api.md, Documents) as JSON, without what the rest makes again: the derived all-concepts group, a `null`
//! value or `children`, and a count of 1. The import writes it ([`to_stored`]); the index build's scan reads it
//! borrowed ([`parse`]), and a result's document owned, with its all-concepts group made again ([`to_groups`]).
//! Facet lists written before this form (every count and null spelled out, the all-concepts group kept) read
//! alike.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use studio_model::{FacetGroup, Refiner, ALL_CONCEPTS_FIELD, ALL_CONCEPTS_LABEL, CONCEPT_PREFIX};

/// A facet group as stored, its strings borrowed where they need no unescaping.
#[derive(Serialize, Deserialize)]
pub(crate) struct StoredGroup<'a> {
    #[serde(borrow)]
    pub(crate) field: Cow<'a, str>,
    #[serde(borrow, default, skip_serializing_if = "str::is_empty")]
    pub(crate) label: Cow<'a, str>,
    #[serde(borrow, default)]
    pub(crate) facets: Vec<StoredRefiner<'a>>,
}

/// A refiner as stored, with the refiners below it.
#[derive(Serialize, Deserialize)]
pub(crate) struct StoredRefiner<'a> {
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub(crate) count: i64,
    #[serde(borrow, default)]
    pub(crate) label: Cow<'a, str>,
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub(crate) value: Option<Cow<'a, str>>,
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub(crate) children: Option<Vec<StoredRefiner<'a>>>,
}

fn one() -> i64 {
    1
}

fn is_one(count: &i64) -> bool {
    *count == 1
}

/// The stored form of a document's facet groups; an all-concepts group among them is left out.
pub fn to_stored(groups: &[FacetGroup]) -> Result<String, serde_json::Error> {
    fn refiner(r: &Refiner) -> StoredRefiner<'_> {
        StoredRefiner {
            count: r.count,
            label: Cow::Borrowed(&r.label),
            value: r.value.as_deref().map(Cow::Borrowed),
            children: r.children.as_ref().map(|c| c.iter().map(refiner).collect()),
        }
    }
    let stored: Vec<StoredGroup> = groups
        .iter()
        .filter(|g| g.field != ALL_CONCEPTS_FIELD)
        .map(|g| StoredGroup {
            field: Cow::Borrowed(&g.field),
            label: Cow::Borrowed(&g.label),
            facets: g.facets.iter().map(refiner).collect(),
        })
        .collect();
    serde_json::to_string(&stored)
}

/// The stored groups of a facet list, borrowed from `json`; an all-concepts group written by an earlier version is
/// left out.
pub(crate) fn parse(json: &str) -> Result<Vec<StoredGroup<'_>>, serde_json::Error> {
    let mut groups: Vec<StoredGroup> = serde_json::from_str(json)?;
    groups.retain(|g| g.field != ALL_CONCEPTS_FIELD);
    Ok(groups)
}

/// A document's facet groups in the API's shape: the stored ones, then the all-concepts group made from them when
/// they hold a concept.
pub(crate) fn to_groups(json: &str) -> Result<Vec<FacetGroup>, serde_json::Error> {
    fn refiner(r: StoredRefiner) -> Refiner {
        Refiner {
            count: r.count,
            label: r.label.into_owned(),
            value: r.value.map(Cow::into_owned),
            children: r.children.map(|c| c.into_iter().map(refiner).collect()),
        }
    }
    let mut groups: Vec<FacetGroup> = parse(json)?
        .into_iter()
        .map(|g| FacetGroup {
            field: g.field.into_owned(),
            label: g.label.into_owned(),
            facets: g.facets.into_iter().map(refiner).collect(),
        })
        .collect();
    let all = all_concepts(&groups);
    if !all.facets.is_empty() {
        groups.push(all);
    }
    Ok(groups)
}

/// The derived union of a document's concept annotations at any depth, each concept once: URI in `label`, name in
/// `value` (docs/api.md, Documents).
fn all_concepts(groups: &[FacetGroup]) -> FacetGroup {
    fn walk<'a>(refiners: &'a [Refiner], seen: &mut rustc_hash::FxHashSet<&'a str>, out: &mut Vec<Refiner>) {
        for r in refiners {
            if let Some(uri) = r.value.as_deref().filter(|v| !v.is_empty()) {
                if seen.insert(uri) {
                    out.push(Refiner { count: 1, label: uri.to_owned(), value: Some(r.label.clone()), children: None });
                }
            }
            if let Some(children) = &r.children {
                walk(children, seen, out);
            }
        }
    }
    let mut seen = rustc_hash::FxHashSet::default();
    let mut facets = Vec::new();
    for g in groups.iter().filter(|g| g.field.starts_with(CONCEPT_PREFIX)) {
        walk(&g.facets, &mut seen, &mut facets);
    }
    FacetGroup { field: ALL_CONCEPTS_FIELD.to_owned(), label: ALL_CONCEPTS_LABEL.to_owned(), facets }
}

#[cfg(test)]
mod tests {
    use super::{to_groups, to_stored};
    use serde_json::json;
    use studio_model::FacetGroup;

    fn groups(value: serde_json::Value) -> Vec<FacetGroup> {
        serde_json::from_value(value).unwrap()
    }

    /// A topic with a narrower one below it, an author, and a count other than 1.
    fn annotated() -> Vec<FacetGroup> {
        groups(json!([
            {"field": "dyn_uri_topic", "label": "Topic", "facets": [
                {"count": 1, "label": "Energy", "value": "urn:energy", "children": [
                    {"count": 1, "label": "Solar", "value": "urn:solar", "children": null}
                ]}
            ]},
            {"field": "dyn_lit_author", "label": "Author", "facets": [
                {"count": 3, "label": "Ana Orta", "value": null, "children": null},
                {"count": 1, "label": "", "value": "", "children": null}
            ]}
        ]))
    }

    fn with_all_concepts(mut list: Vec<FacetGroup>) -> Vec<FacetGroup> {
        list.extend(groups(json!([{"field": "dyn_uri_all_concepts", "label": "All concepts", "facets": [
            {"count": 1, "label": "urn:energy", "value": "Energy", "children": null},
            {"count": 1, "label": "urn:solar", "value": "Solar", "children": null}
        ]}])));
        list
    }

    #[test]
    fn a_stored_facet_list_reads_back_as_written_with_its_all_concepts_group() {
        let stored = to_stored(&with_all_concepts(annotated())).unwrap();
        assert!(!stored.contains("null") && !stored.contains("all_concepts"), "{stored}");
        assert!(!stored.contains("\"count\":1"), "{stored}");
        assert_eq!(to_groups(&stored).unwrap(), with_all_concepts(annotated()));
    }

    #[test]
    fn a_facet_list_stored_in_full_reads_alike() {
        let full = serde_json::to_string(&with_all_concepts(annotated())).unwrap();
        assert_eq!(to_groups(&full).unwrap(), with_all_concepts(annotated()));
        let literal = groups(json!([{"field": "dyn_lit_genre", "label": "Genre", "facets": [{"label": "Essay"}]}]));
        let read = to_groups(&to_stored(&literal).unwrap()).unwrap();
        assert_eq!((read.len(), read[0].facets[0].count), (1, 0), "no concept, no all-concepts group");
    }
}

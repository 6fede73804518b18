//! The concept hierarchies a pull copies: the first page of each run asks for every concept field's facet whole,
//! and the hierarchy is read from its answer as a concept scheme; a field whose answer fills what a search answer
//! gives is named as copied in part.

use serde_json::{json, Value};
use studio_model::{
    Backend, BackendError, Configuration, FacetGroup, FacetKind, Refiner, ALL_CONCEPTS_FIELD, CONCEPT_PREFIX,
    HIERARCHICAL, MAX_DEPTH, MAX_TERMS,
};

/// The facets the first page of a run asks for, so that its answer carries every concept hierarchy whole: each
/// facet of the configuration, and each other concept field of its search space that the server lists (when it
/// offers the listing), all shown, hierarchical (a facet the configuration shows flat too), at full depth and with
/// as many values a level as an answer gives.
///
/// A server that does not offer the listing gives the configuration's facets alone; one whose listing fails (an
/// error, a dead connection) fails the pull with that error, rather than copying the other concept fields without
/// their hierarchies and saying nothing.
pub(super) async fn hierarchy_facets(remote: &dyn Backend, config: &Configuration) -> Result<Vec<Value>, BackendError> {
    let configured = &config.config.filter.facets_to_show;
    let mut facets: Vec<Value> = configured.iter().filter_map(|f| serde_json::to_value(f).ok()).collect();
    let spaces = match remote.search_spaces().await {
        Err(BackendError::NotOffered(_)) => Vec::new(),
        listed => listed?,
    };
    let listed = spaces.iter().filter(|s| s.id == config.config.search_space).flat_map(|s| &s.fields);
    for field in listed.filter(|f| f.kind == FacetKind::Concept) {
        let names = [field.field.as_str(), field.uri.as_str()];
        if !configured.iter().any(|c| names.contains(&c.uri.as_str()) || names.contains(&c.ref_id.as_str())) {
            facets.push(json!({ "uri": field.uri, "refId": field.field, "title": field.label }));
        }
    }
    for f in &mut facets {
        f["show"] = json!(true);
        f["facetMode"] = json!(HIERARCHICAL);
        f["maximumTerms"] = json!(MAX_TERMS);
        f["hierarchicalDepth"] = json!(MAX_DEPTH);
    }
    Ok(facets)
}

/// The concept fields of the answer's facets whose hierarchy it may give in part: a level with as many refiners as
/// a search gives ([`MAX_TERMS`]; there may be more), or refiners at the deepest level it nests ([`MAX_DEPTH`];
/// there may be narrower ones). Their concepts beyond those are copied without their broader ones, and show at the
/// top of the hierarchy offline.
pub(super) fn partial_hierarchies(groups: &[FacetGroup]) -> Vec<String> {
    fn partial(refiners: &[Refiner], depth: i64) -> bool {
        refiners.len() as i64 >= MAX_TERMS
            || (!refiners.is_empty() && depth >= MAX_DEPTH)
            || refiners.iter().any(|r| partial(r.children.as_deref().unwrap_or_default(), depth + 1))
    }
    concept_groups(groups).filter(|g| partial(&g.facets, 1)).map(|g| g.field.clone()).collect()
}

/// The answer's groups of concept fields, the derived all-concepts group left out.
fn concept_groups(groups: &[FacetGroup]) -> impl Iterator<Item = &FacetGroup> {
    groups.iter().filter(|g| g.field.starts_with(CONCEPT_PREFIX) && g.field != ALL_CONCEPTS_FIELD)
}

/// Concept lines (`{"uri","label","broader"}`) for every concept refiner of the answer's facets.
pub(super) fn concept_lines(groups: &[FacetGroup]) -> Vec<u8> {
    fn walk(refiners: &[Refiner], parent: Option<&str>, out: &mut Vec<u8>) {
        for r in refiners {
            let Some(uri) = r.value.as_deref() else { continue };
            let broader: Vec<&str> = parent.into_iter().collect();
            if let Ok(line) = serde_json::to_vec(&json!({ "uri": uri, "label": r.label, "broader": broader })) {
                out.extend(line);
                out.push(b'\n');
            }
            walk(r.children.as_deref().unwrap_or_default(), Some(uri), out);
        }
    }
    let mut out = Vec::new();
    for g in concept_groups(groups) {
        walk(&g.facets, None, &mut out);
    }
    out
}

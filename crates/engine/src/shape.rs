//! Documents as the production server of this API shapes them (docs/api.md, Documents; docs/choices.md, Real servers): `documentDetails` holds one
//! group per shown detail setting with the document's values of that field, and each `facetList` group is
//! titled as the configured facet of its field. One [`DocumentShape`] is made per operation from the
//! configuration it runs with and applied to every document it returns, so that search, similar documents and
//! recommendations agree.
//!
//! Shaping reads nothing from the store: everything comes from the document's own facetList, which every
//! returned document has already been read with. The refiners of `dyn_uri_all_concepts` keep their reversed
//! orientation (URI in `label`, name in `value`) in both lists.

use std::collections::HashMap;

use serde_json::Value;
use studio_model::{Config, FacetGroup, Refiner};

use super::field_names::{item_name, resolve_field};
use super::index::SpaceIndex;
use crate::error::EngineError;

/// What the configuration of one operation asks of every document it returns.
pub(crate) struct DocumentShape<'a> {
    /// Per detail setting with `show: true`, in order: the field id it names (its own name when it names no
    /// field of the search space) and its title.
    details: Vec<(&'a str, &'a str)>,
    /// Field id → title of the configured facet naming that field.
    facet_titles: HashMap<&'a str, &'a str>,
}

/// The field id a setting names: the field it resolves to in `index`, else the name itself.
fn field_id<'a>(index: &'a SpaceIndex, name: &'a str) -> &'a str {
    resolve_field(index, name).map_or(name, |f| f.id.as_str())
}

impl<'a> DocumentShape<'a> {
    pub(crate) fn new(index: &'a SpaceIndex, config: &'a Config) -> DocumentShape<'a> {
        let details = config
            .details
            .details_to_show
            .iter()
            .filter(|d| d.show)
            .map(|d| (field_id(index, item_name(&d.uri, &d.ref_id)), d.title.as_str()))
            .collect();
        // A field may be named by more than one facet: the first shown one titles it, else the first hidden
        // one (a hidden facet still names the field as the designer wants it called).
        let facets = &config.filter.facets_to_show;
        let mut facet_titles = HashMap::new();
        for f in facets.iter().filter(|f| f.show).chain(facets.iter().filter(|f| !f.show)) {
            facet_titles.entry(field_id(index, item_name(&f.uri, &f.ref_id))).or_insert(f.title.as_str());
        }
        DocumentShape { details, facet_titles }
    }

    /// Titles the groups of `facet_list` as configured and returns the document's `documentDetails`.
    pub(crate) fn apply(&self, facet_list: &mut [FacetGroup]) -> Result<Vec<Value>, EngineError> {
        let mut details = Vec::with_capacity(self.details.len());
        for &(field, title) in &self.details {
            let mut facets = Vec::new();
            if let Some(group) = facet_list.iter().find(|g| g.field == field) {
                flatten_into(&group.facets, &mut facets);
            }
            let group = FacetGroup { field: field.to_owned(), label: title.to_owned(), facets };
            details.push(serde_json::to_value(group)?);
        }
        for group in facet_list.iter_mut() {
            if let Some(title) = self.facet_titles.get(group.field.as_str()) {
                (*title).clone_into(&mut group.label);
            }
        }
        Ok(details)
    }
}

/// Every refiner of `refiners` at any depth, once, as a value of the document: `count` 1, no children.
fn flatten_into(refiners: &[Refiner], out: &mut Vec<Refiner>) {
    for r in refiners {
        if !out.iter().any(|o| o.label == r.label && o.value == r.value) {
            out.push(Refiner { count: 1, label: r.label.clone(), value: r.value.clone(), children: None });
        }
        if let Some(children) = &r.children {
            flatten_into(children, out);
        }
    }
}

//! Documents as the production server of this API shapes them (docs/api.md, Documents; docs/choices.md, Real servers): `documentDetails` holds one
//! group per shown detail setting with the document's values of that field, and each `facetList` group is
//! titled as the configured facet of its field. One [`DocumentShape`] is made per operation from the
//! configuration it runs with and applied to every document it returns, so that search, similar documents and
//! recommendations agree.
//!
//! Shaping reads nothing from the store but the document's row: everything comes from the document's own stored
//! facet list. The refiners of `dyn_uri_all_concepts` keep their reversed orientation (URI in `label`, name in
//! `value`) in both lists. The document is written here, in the one form [`studio_model::WrittenDocument`] defines;
//! a typed [`studio_model::Document`] is this written form read back (crates/engine/src/fetch.rs), so every
//! operation's documents are shaped by this one code.

use std::collections::HashMap;

use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use studio_model::{
    Config, Extra, WrittenDocument, WrittenGroup, WrittenRefiner, ALL_CONCEPTS_FIELD, ALL_CONCEPTS_LABEL,
};

use super::field_names::{item_name, resolve_field};
use super::index::SpaceIndex;
use super::stored_facets::{self, Concept, RawGroup, RawRefiner, Text};
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

    /// The document of `row`, of search space `space`, written in the API's shape: its stored facet groups titled
    /// as configured, then the all-concepts group made from them when they hold a concept, and a detail group per
    /// shown detail setting. Every text of the facet list is copied as stored, not read and escaped again.
    pub(crate) fn write(&self, row: &StoredRow, space: &str) -> Result<Box<RawValue>, EngineError> {
        let groups = stored_facets::parse_raw(row.facet_list)?;
        let concepts = stored_facets::all_concepts(&groups);
        let details: Vec<_> = self
            .details
            .iter()
            .map(|&(field, title)| WrittenGroup {
                field: Text::Plain(field),
                label: Text::Plain(title),
                facets: values_of(field, &groups, &concepts),
            })
            .collect();
        let document = WrittenDocument {
            id: row.id,
            link: row.link,
            title: row.title,
            description: row.description,
            date: row.date,
            empty: false,
            image: row.image,
            search_space_id: space,
            kind: row.kind,
            document_details: details,
            facet_list: FacetList { titles: &self.facet_titles, groups: &groups, concepts: &concepts },
            explanation: None,
            extra: &Extra::new(),
        };
        Ok(serde_json::value::to_raw_value(&document)?)
    }
}

/// A document's row as the store keeps it, its texts borrowed from the row read.
pub(crate) struct StoredRow<'r> {
    pub(crate) id: &'r str,
    pub(crate) link: &'r str,
    pub(crate) title: &'r str,
    pub(crate) description: &'r str,
    pub(crate) date: f64,
    pub(crate) image: Option<&'r str>,
    pub(crate) kind: &'r str,
    /// As stored (crates/engine/src/stored_facets.rs).
    pub(crate) facet_list: &'r str,
}

/// A document's facet list as written: its stored groups, each titled as the configured facet of its field, then
/// the all-concepts group when there are concepts.
struct FacetList<'r, 'a> {
    titles: &'r HashMap<&'r str, &'r str>,
    groups: &'r [RawGroup<'a>],
    concepts: &'r [Concept<'a>],
}

impl Serialize for FacetList<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let all = !self.concepts.is_empty();
        let mut list = serializer.serialize_seq(Some(self.groups.len() + usize::from(all)))?;
        for g in self.groups {
            let label = self.titles.get(&*g.field).map_or(Text::or_empty(g.label), |t| Text::Plain(t));
            list.serialize_element(&WrittenGroup { field: Text::Plain(&g.field), label, facets: &g.facets })?;
        }
        if all {
            let label = self.titles.get(ALL_CONCEPTS_FIELD).copied().unwrap_or(ALL_CONCEPTS_LABEL);
            let field = Text::Plain(ALL_CONCEPTS_FIELD);
            list.serialize_element(&WrittenGroup { field, label: Text::Plain(label), facets: self.concepts })?;
        }
        list.end()
    }
}

/// One value of a document's field in its details: `count` 1, no children.
struct DetailValue<'a> {
    label: Text<'a>,
    value: Option<Text<'a>>,
}

impl Serialize for DetailValue<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenRefiner { count: 1, label: self.label, value: self.value, children: stored_facets::NONE }
            .serialize(serializer)
    }
}

/// Every value of `field` in the document's groups, at any depth, once, in the order met; the all-concepts field
/// gives the concepts, oriented as in its group.
fn values_of<'a>(field: &str, groups: &[RawGroup<'a>], concepts: &[Concept<'a>]) -> Vec<DetailValue<'a>> {
    fn flatten_into<'a>(refiners: &[RawRefiner<'a>], out: &mut Vec<DetailValue<'a>>) {
        for r in refiners {
            push(out, DetailValue { label: Text::or_empty(r.label), value: r.value.map(Text::Stored) });
            if let Some(children) = &r.children {
                flatten_into(children, out);
            }
        }
    }
    fn push<'a>(out: &mut Vec<DetailValue<'a>>, value: DetailValue<'a>) {
        if !out.iter().any(|o| o.label == value.label && o.value == value.value) {
            out.push(value);
        }
    }
    let mut out = Vec::new();
    if field == ALL_CONCEPTS_FIELD {
        for c in concepts {
            push(&mut out, DetailValue { label: Text::Stored(c.uri), value: Some(Text::or_empty(c.name)) });
        }
    } else if let Some(group) = groups.iter().find(|g| g.field == field) {
        flatten_into(&group.facets, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde_json::json;
    use studio_model::FacetGroup;

    use super::FacetList;
    use crate::stored_facets::{all_concepts, parse_raw, to_stored};

    fn groups(value: serde_json::Value) -> Vec<FacetGroup> {
        serde_json::from_value(value).unwrap()
    }

    /// A document's facet list as written from its stored form, titled by `titles` (field → title).
    fn written(stored: &str, titles: &[(&str, &str)]) -> Vec<FacetGroup> {
        let titles: HashMap<&str, &str> = titles.iter().copied().collect();
        let groups = parse_raw(stored).unwrap();
        let concepts = all_concepts(&groups);
        let list = FacetList { titles: &titles, groups: &groups, concepts: &concepts };
        serde_json::from_str(&serde_json::to_string(&list).unwrap()).unwrap()
    }

    /// A topic with a narrower one below it, an author, a count other than 1, and texts that JSON escapes.
    fn annotated() -> Vec<FacetGroup> {
        groups(json!([
            {"field": "dyn_uri_topic", "label": "Topic", "facets": [
                {"count": 1, "label": "Energy \"green\"", "value": "urn:energy?a=\"1\"", "children": [
                    {"count": 1, "label": "Solar\n\u{e9}t\u{e9} \\ \u{1F31E}", "value": "urn:solar", "children": null}
                ]}
            ]},
            {"field": "dyn_lit_author", "label": "Author\t", "facets": [
                {"count": 3, "label": "Ana Orta", "value": null, "children": null},
                {"count": 1, "label": "", "value": "", "children": null}
            ]}
        ]))
    }

    fn with_all_concepts(mut list: Vec<FacetGroup>, title: &str) -> Vec<FacetGroup> {
        list.extend(groups(json!([{"field": "dyn_uri_all_concepts", "label": title, "facets": [
            {"count": 1, "label": "urn:energy?a=\"1\"", "value": "Energy \"green\"", "children": null},
            {"count": 1, "label": "urn:solar", "value": "Solar\n\u{e9}t\u{e9} \\ \u{1F31E}", "children": null}
        ]}])));
        list
    }

    #[test]
    fn a_stored_facet_list_is_written_as_imported_with_its_all_concepts_group() {
        let stored = to_stored(&with_all_concepts(annotated(), "All concepts")).unwrap();
        assert!(!stored.contains("null") && !stored.contains("all_concepts"), "{stored}");
        assert!(!stored.contains("\"count\":1"), "{stored}");
        assert_eq!(written(&stored, &[]), with_all_concepts(annotated(), "All concepts"));
    }

    #[test]
    fn a_facet_list_stored_in_full_is_written_alike() {
        let full = serde_json::to_string(&with_all_concepts(annotated(), "imported")).unwrap();
        assert_eq!(written(&full, &[]), with_all_concepts(annotated(), "All concepts"));
        let literal = groups(json!([{"field": "dyn_lit_genre", "label": "Genre", "facets": [{"label": "Essay"}]}]));
        let read = written(&to_stored(&literal).unwrap(), &[]);
        assert_eq!((read.len(), read[0].facets[0].count), (1, 0), "no concept, no all-concepts group");
    }

    #[test]
    fn groups_are_titled_as_configured_the_all_concepts_group_too() {
        let stored = to_stored(&annotated()).unwrap();
        let titles = [("dyn_lit_author", "Writers \"all\""), ("dyn_uri_all_concepts", "Everything")];
        let mut expected = with_all_concepts(annotated(), "Everything");
        expected[1].label = "Writers \"all\"".into();
        assert_eq!(written(&stored, &titles), expected);
    }
}

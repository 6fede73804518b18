//! A document's facet list as the documents file keeps it (`documents.facet_list`): the API's facet groups
//! (docs/api.md, Documents) as JSON, without what the rest makes again: the derived all-concepts group, a `null`
//! value or `children`, and a count of 1. The import writes it ([`to_stored`]); the index build's scan reads it
//! borrowed ([`parse`]), and a result's document is written from it with its texts as stored ([`parse_raw`]) and
//! its all-concepts group made again ([`all_concepts`]; crates/engine/src/shape.rs writes the document).
//! Facet lists written before this form (every count and null spelled out, the all-concepts group kept) read
//! alike.

use std::borrow::Cow;

use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;
use studio_model::{FacetGroup, Refiner, WrittenRefiner, ALL_CONCEPTS_FIELD, CONCEPT_PREFIX};

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

/// A facet group as stored, read to be written again: its label and its refiners' texts kept as the facet list
/// wrote them (JSON strings, escaped), so that writing a result's document copies them instead of reading each
/// into a `String` and escaping it again. An absent label is the empty one.
#[derive(Deserialize)]
pub(crate) struct RawGroup<'a> {
    #[serde(borrow)]
    pub(crate) field: Cow<'a, str>,
    #[serde(borrow, default)]
    pub(crate) label: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) facets: Vec<RawRefiner<'a>>,
}

/// A refiner as stored, its texts kept as written; `value` is `None` for a `null` or absent one.
#[derive(Deserialize)]
pub(crate) struct RawRefiner<'a> {
    #[serde(default = "one")]
    pub(crate) count: i64,
    #[serde(borrow, default)]
    pub(crate) label: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) value: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) children: Option<Vec<RawRefiner<'a>>>,
}

/// A text to write: a JSON string as the facet list wrote it, or text of the engine's own.
#[derive(Clone, Copy)]
pub(crate) enum Text<'a> {
    Stored(&'a RawValue),
    Plain(&'a str),
}

impl<'a> Text<'a> {
    /// A stored text; an absent one is empty.
    pub(crate) fn or_empty(raw: Option<&'a RawValue>) -> Text<'a> {
        raw.map_or(Text::Plain(""), Text::Stored)
    }
}

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Text::Stored(raw) => raw.serialize(serializer),
            Text::Plain(text) => text.serialize(serializer),
        }
    }
}

impl PartialEq for Text<'_> {
    /// Whether the two read the same. A text is always stored as serde_json writes it, so two stored texts are
    /// compared as written.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Text::Stored(a), Text::Stored(b)) => a.get() == b.get(),
            (Text::Plain(a), Text::Plain(b)) => a == b,
            (Text::Stored(raw), Text::Plain(text)) | (Text::Plain(text), Text::Stored(raw)) => {
                serde_json::from_str::<Cow<str>>(raw.get()).is_ok_and(|read| read == *text)
            }
        }
    }
}

impl Serialize for RawRefiner<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenRefiner {
            count: self.count,
            label: Text::or_empty(self.label),
            value: self.value.map(Text::Stored),
            children: self.children.as_ref(),
        }
        .serialize(serializer)
    }
}

/// The stored groups of a facet list, their texts kept as written; an all-concepts group written by an earlier
/// version is left out.
pub(crate) fn parse_raw(json: &str) -> Result<Vec<RawGroup<'_>>, serde_json::Error> {
    let mut groups: Vec<RawGroup> = serde_json::from_str(json)?;
    groups.retain(|g| g.field != ALL_CONCEPTS_FIELD);
    Ok(groups)
}

/// A concept of the derived all-concepts group: its URI and its name, as stored.
#[derive(Clone, Copy)]
pub(crate) struct Concept<'a> {
    pub(crate) uri: &'a RawValue,
    pub(crate) name: Option<&'a RawValue>,
}

/// The derived union of a document's concept annotations at any depth, each concept once, in the order met.
pub(crate) fn all_concepts<'a>(groups: &[RawGroup<'a>]) -> Vec<Concept<'a>> {
    fn walk<'a>(refiners: &[RawRefiner<'a>], seen: &mut FxHashSet<&'a str>, out: &mut Vec<Concept<'a>>) {
        for r in refiners {
            if let Some(uri) = r.value.filter(|v| v.get() != "\"\"") {
                if seen.insert(uri.get()) {
                    out.push(Concept { uri, name: r.label });
                }
            }
            if let Some(children) = &r.children {
                walk(children, seen, out);
            }
        }
    }
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    for g in groups.iter().filter(|g| g.field.starts_with(CONCEPT_PREFIX)) {
        walk(&g.facets, &mut seen, &mut out);
    }
    out
}

impl Serialize for Concept<'_> {
    /// As a refiner of the all-concepts group: URI in `label`, name in `value` (docs/api.md, Documents).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenRefiner {
            count: 1,
            label: Text::Stored(self.uri),
            value: Some(Text::or_empty(self.name)),
            children: NONE,
        }
        .serialize(serializer)
    }
}

/// No children, written as `null`.
pub(crate) const NONE: Option<&[RawRefiner<'static>]> = None;

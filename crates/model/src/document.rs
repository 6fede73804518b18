//! Documents and the three search operations of the API (search, similar documents, recommendations), plus
//! the search-space listing (docs/api.md, Search spaces).

use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::config::Extra;

/// The facet group that unites all concept annotations of a document. In a document's `facetList` its
/// refiners carry the concept URI in `label` and the name in `value`, the reverse of every other group.
pub const ALL_CONCEPTS_FIELD: &str = "dyn_uri_all_concepts";

/// The name of the [`ALL_CONCEPTS_FIELD`] group.
pub const ALL_CONCEPTS_LABEL: &str = "All concepts";

/// Prefix of the facet fields whose values are concepts (their URIs in `value`).
pub const CONCEPT_PREFIX: &str = "dyn_uri_";

/// A search result, similar document or recommendation. Written as [`WrittenDocument`] says.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct Document {
    /// URI identifying the document.
    pub id: String,
    pub link: String,
    pub title: String,
    pub description: String,
    /// Epoch milliseconds, written as a floating-point number.
    pub date: f64,
    pub empty: bool,
    pub image: Option<String>,
    pub search_space_id: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// The document's values of the fields its configuration's detail view shows: one facet group per
    /// `details.detailsToShow` item with `show: true`, in order (`field` the field id the item names, `label`
    /// the item's `title`), holding the document's refiners of that field with `count` 1 and `children` null,
    /// oriented as in `facetList`. Other servers may leave it empty or send other shapes.
    pub document_details: Vec<Value>,
    /// The document's values per facet field. The local engine, as the production server does, labels a group
    /// with the title of the configured facet of that field, else with the field's own label.
    pub facet_list: Vec<FacetGroup>,
    /// Why a similar or recommended document is there: only when the request asked for it (`explain=true`), and
    /// only from an engine that explains (this project's own). Read leniently: an unusable value is none.
    #[serde(deserialize_with = "lenient_explanation")]
    #[ts(optional)]
    pub explanation: Option<Explanation>,
    #[serde(flatten)]
    #[schema(ignore)]
    #[ts(skip)]
    pub extra: Extra,
}

/// How a document is written: the one definition of its written form. A [`Document`] is written through it, and
/// an engine writes a stored document through it straight from the store, its facet list and details any values
/// that write as [`FacetGroup`]s do (through [`WrittenGroup`] and [`WrittenRefiner`]), without making a
/// `Document` first.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WrittenDocument<'a, D, F> {
    pub id: &'a str,
    pub link: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    pub date: f64,
    pub empty: bool,
    pub image: Option<&'a str>,
    pub search_space_id: &'a str,
    #[serde(rename = "type")]
    pub kind: &'a str,
    pub document_details: D,
    pub facet_list: F,
    /// Left out when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<&'a Explanation>,
    #[serde(flatten)]
    pub extra: &'a Extra,
}

impl Serialize for Document {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenDocument {
            id: &self.id,
            link: &self.link,
            title: &self.title,
            description: &self.description,
            date: self.date,
            empty: self.empty,
            image: self.image.as_deref(),
            search_space_id: &self.search_space_id,
            kind: &self.kind,
            document_details: &self.document_details,
            facet_list: &self.facet_list,
            explanation: self.explanation.as_ref(),
            extra: &self.extra,
        }
        .serialize(serializer)
    }
}

/// The reasons a similar or recommended document scored, largest contribution first (docs/api.md, Documents).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Explanation {
    /// The similarity plugin or recommender that found the document.
    pub plugin: String,
    /// At most 10 (`MAX_REASONS`), largest contribution first, ties by value.
    pub reasons: Vec<Reason>,
}

/// Most reasons an explanation lists.
pub const MAX_REASONS: usize = 10;

/// One thing the document shares with the one it is similar to or recommended for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
pub struct Reason {
    /// `concept`, `broader-concept`, `narrower-concept`, `sibling-concept`, `term` or `author`.
    pub kind: String,
    /// The concept URI, the word or the author.
    pub value: String,
    /// The concept's label; the value itself for words and authors.
    pub label: String,
}

fn lenient_message<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(message) => message,
        _ => String::new(),
    })
}

fn lenient_explanation<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Explanation>, D::Error> {
    Ok(Option::<Value>::deserialize(d)?.and_then(|v| serde_json::from_value(v).ok()))
}

impl Default for Document {
    fn default() -> Self {
        Document {
            id: String::new(),
            link: String::new(),
            title: String::new(),
            description: String::new(),
            date: 0.0,
            empty: false,
            image: None,
            search_space_id: String::new(),
            kind: "User".to_owned(),
            document_details: Vec::new(),
            facet_list: Vec::new(),
            explanation: None,
            extra: Extra::new(),
        }
    }
}

/// A facet field with its refiners. Written as [`WrittenGroup`] says.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, ToSchema, TS)]
#[serde(default)]
pub struct FacetGroup {
    /// Facet field id, e.g. `dyn_lit_author` or `dyn_uri_topic`.
    pub field: String,
    /// Name of the facet.
    pub label: String,
    pub facets: Vec<Refiner>,
}

/// One value of a facet, with the number of results having it. Written as [`WrittenRefiner`] says.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, ToSchema, TS)]
#[serde(default)]
pub struct Refiner {
    pub count: i64,
    pub label: String,
    /// Concept URI, or null for literal values.
    pub value: Option<String>,
    #[schema(no_recursion)]
    pub children: Option<Vec<Refiner>>,
}

/// How a facet group is written, its texts (`S`) and refiners (`F`) any values that write as a string and a list
/// of [`WrittenRefiner`]s do: the one definition of a [`FacetGroup`]'s written form.
#[derive(Serialize)]
pub struct WrittenGroup<S, F> {
    pub field: S,
    pub label: S,
    pub facets: F,
}

/// How a refiner is written, its texts (`S`) and children (`C`) any values that write as a string and a list of
/// refiners do: the one definition of a [`Refiner`]'s written form.
#[derive(Serialize)]
pub struct WrittenRefiner<S, C> {
    pub count: i64,
    pub label: S,
    pub value: Option<S>,
    pub children: Option<C>,
}

impl Serialize for FacetGroup {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenGroup { field: self.field.as_str(), label: self.label.as_str(), facets: &self.facets }
            .serialize(serializer)
    }
}

impl Serialize for Refiner {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenRefiner {
            count: self.count,
            label: self.label.as_str(),
            value: self.value.as_deref(),
            children: self.children.as_ref(),
        }
        .serialize(serializer)
    }
}

/// One facet value selected as a filter. It matches by `value` when that is not null, else by `label`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(default)]
pub struct SelectedFacet {
    pub field: String,
    pub label: Option<String>,
    pub value: Option<String>,
}

/// The body of the search operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchRequest {
    pub input: Option<String>,
    pub selected_facets: Vec<SelectedFacet>,
    /// Number of results to skip; at least 0.
    pub start: Option<i32>,
    /// Search Studio extension: settings that stand in for the stored configuration's in this one search
    /// (an editor's unsaved settings), merged over them by the update rules; invalid keys are ignored.
    /// Servers that do not know it ignore it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub config: Option<Value>,
}

/// The answer of the search operation. Written as [`WrittenAnswer`] says.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, ToSchema, TS)]
#[serde(default)]
pub struct SearchResponse {
    /// Always empty.
    pub concepts: Vec<Value>,
    pub facets: Vec<FacetGroup>,
    pub result: Vec<Document>,
    /// `took N ms`.
    pub message: String,
    pub total: i64,
}

/// How the search operation's answer is written, its documents any values that write as documents do: the one
/// definition of a [`SearchResponse`]'s written form, which a [`SearchPage`] is written through too.
#[derive(Serialize)]
pub struct WrittenAnswer<'a, D> {
    pub concepts: &'a [Value],
    pub facets: &'a [FacetGroup],
    pub result: &'a [D],
    pub message: &'a str,
    pub total: i64,
}

impl Serialize for SearchResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenAnswer {
            concepts: &self.concepts,
            facets: &self.facets,
            result: &self.result,
            message: &self.message,
            total: self.total,
        }
        .serialize(serializer)
    }
}

/// One page of the search operation's answer with each document as the backend wrote it: what a pull copies
/// into the local store, without reading every document into a [`Document`] and writing it again, and what a
/// server sends, written as a [`SearchResponse`] is.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SearchPage {
    pub facets: Vec<FacetGroup>,
    /// The page's documents, each the JSON written for it.
    pub result: Vec<Box<serde_json::value::RawValue>>,
    /// `took N ms`. Read leniently: another server's `null` or other value is none.
    #[serde(deserialize_with = "lenient_message")]
    pub message: String,
    pub total: i64,
}

impl SearchPage {
    /// The page of a typed answer, its documents written anew.
    pub fn written(answer: SearchResponse) -> Result<Self, serde_json::Error> {
        let result = answer.result.iter().map(serde_json::value::to_raw_value).collect::<Result<_, _>>()?;
        Ok(SearchPage { facets: answer.facets, result, message: answer.message, total: answer.total })
    }
}

impl Serialize for SearchPage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WrittenAnswer {
            concepts: &[],
            facets: &self.facets,
            result: &self.result,
            message: &self.message,
            total: self.total,
        }
        .serialize(serializer)
    }
}

/// Query parameters of getSimilar.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, IntoParams, TS)]
#[into_params(parameter_in = Query)]
pub struct SimilarQuery {
    /// URI of the document to find similar documents for.
    #[param(example = "https://demo.searchstudio.dev/doc/000001")]
    pub uri: String,
    /// Maximum number of similar documents; defaults to the configuration's `numberOfSimilarDocuments`.
    #[param(example = 5)]
    pub number: Option<i32>,
    /// Similarity plugin: `concepts` (default) or `text`.
    #[param(example = "concepts")]
    pub similarity: Option<String>,
    /// With `true`, each document carries an `explanation` (an extension; other servers ignore it).
    // Left out of a serialized query when false: a query without it reads and writes as it always did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[param(required = false)]
    #[ts(as = "Option<bool>", optional)]
    pub explain: bool,
}

/// Query parameters of getRecommendations.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, IntoParams, TS)]
#[into_params(parameter_in = Query)]
pub struct RecommendQuery {
    /// URI of the document to get recommendations for.
    #[param(example = "https://demo.searchstudio.dev/doc/000001")]
    pub uri: String,
    /// Recommender plugin: `related-concepts` or `same-author`.
    #[param(example = "related-concepts")]
    pub recommender: String,
    /// With `true`, each document carries an `explanation` (an extension; other servers ignore it).
    // Left out of a serialized query when false: a query without it reads and writes as it always did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[param(required = false)]
    #[ts(as = "Option<bool>", optional)]
    pub explain: bool,
}

/// The answer of getRecommendations; every field is optional (docs/api.md, Recommendations).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct Recommendations {
    pub message: Option<String>,
    pub result: Vec<Document>,
    pub result_type: Option<String>,
    pub status: Option<i32>,
    pub success: Option<bool>,
    pub total: Option<i32>,
}

/// What kind of values a facet field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum FacetKind {
    /// Concept URIs from a concept scheme, possibly hierarchical (`dyn_uri_*`).
    Concept,
    /// Literal strings (`dyn_lit_*`).
    Literal,
    /// Numbers carried as text (`dyn_flt_*`).
    Numeric,
}

/// A facet field of a search space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct FacetField {
    pub field: String,
    pub label: String,
    pub uri: String,
    pub kind: FacetKind,
}

/// How well one facet field serves as a facet: the facet-health extension (docs/api.md, Facet health). Counts
/// are those a search with no query and no selection would give for the field as a facet with no limit of terms
/// or depth.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct FieldHealth {
    pub field: String,
    pub label: String,
    pub kind: FacetKind,
    /// Documents carrying at least one value of the field.
    #[ts(type = "number")]
    pub documents: i64,
    /// Distinct values at any depth.
    #[ts(type = "number")]
    pub values: i64,
    /// The deepest level of the field's hierarchy: 1 for a flat field, 0 for one without values.
    pub depth: i32,
    /// Distinct values at each level, from the top one.
    #[ts(type = "Array<number>")]
    pub values_by_depth: Vec<i64>,
    /// Documents of the field's most common top-level value.
    #[ts(type = "number")]
    pub largest_value_documents: i64,
}

/// The facet health of every facet field of a search space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct FacetHealth {
    pub search_space: String,
    /// Documents in the search space.
    #[ts(type = "number")]
    pub documents: i64,
    /// In the order `GET /api/searchspaces` lists the fields.
    pub fields: Vec<FieldHealth>,
}

/// A search space loaded in a store, with its facet fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct SearchSpace {
    pub id: String,
    pub documents: i64,
    pub fields: Vec<FacetField>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Document, SearchPage, SearchResponse};

    /// A document with every field set, an extension of another server's among them.
    fn document() -> Document {
        serde_json::from_value(json!({
            "id": "d1", "link": "https://example.com/1", "title": "One \"1\"", "description": "first", "date": 1.5,
            "empty": false, "image": null, "searchSpaceId": "s", "type": "User",
            "documentDetails": [{"field": "dyn_lit_author", "label": "By", "facets": []}],
            "facetList": [{"field": "dyn_uri_topic", "label": "Topic", "facets": [
                {"count": 2, "label": "A", "value": "urn:A", "children": [{"count": 1, "label": "B", "value": "urn:B", "children": null}]}
            ]}],
            "explanation": {"plugin": "concepts", "reasons": [{"kind": "concept", "value": "urn:A", "label": "A"}]},
            "score": 0.5
        }))
        .unwrap()
    }

    #[test]
    fn a_document_writes_every_field_and_reads_back_the_same() {
        let doc = document();
        let written = serde_json::to_value(&doc).unwrap();
        let keys: Vec<&str> = written.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "id",
                "link",
                "title",
                "description",
                "date",
                "empty",
                "image",
                "searchSpaceId",
                "type",
                "documentDetails",
                "facetList",
                "explanation",
                "score"
            ]
        );
        assert_eq!(serde_json::from_value::<Document>(written).unwrap(), doc);
        let plain = Document { explanation: None, ..doc };
        assert!(serde_json::to_value(&plain).unwrap().get("explanation").is_none(), "no explanation, no field");
    }

    #[test]
    fn a_page_of_written_documents_writes_as_the_typed_answer() {
        let answer = SearchResponse {
            concepts: Vec::new(),
            facets: document().facet_list,
            result: vec![document(), Document::default()],
            message: "took 1 ms".into(),
            total: 7,
        };
        let page = SearchPage::written(answer.clone()).unwrap();
        assert_eq!(serde_json::to_string(&page).unwrap(), serde_json::to_string(&answer).unwrap());
        let read: SearchPage = serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap();
        assert_eq!((read.result.len(), read.total, read.message.as_str()), (2, 7, "took 1 ms"));
        let other: SearchPage = serde_json::from_str(r#"{"message": null, "total": 1, "result": [{}]}"#).unwrap();
        assert_eq!((other.result.len(), other.message.as_str()), (1, ""), "another server's null message");
    }
}

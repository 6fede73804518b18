//! Documents and the three search operations of the API (search, similar documents, recommendations), plus
//! the search-space listing (docs/api.md, Search spaces).

use serde::{Deserialize, Serialize};
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

/// A search result, similar document or recommendation. Written as [`crate::WrittenDocument`] says.
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

/// A facet field with its refiners. Written as [`crate::WrittenGroup`] says.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, ToSchema, TS)]
#[serde(default)]
pub struct FacetGroup {
    /// Facet field id, e.g. `dyn_lit_author` or `dyn_uri_topic`.
    pub field: String,
    /// Name of the facet.
    pub label: String,
    pub facets: Vec<Refiner>,
}

/// One value of a facet, with the number of results having it. Written as [`crate::WrittenRefiner`] says.
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

/// The answer of the search operation. Written as [`crate::WrittenAnswer`] says.
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

    /// The typed answer of this page, its documents read back.
    pub fn read(self) -> Result<SearchResponse, serde_json::Error> {
        let result = self.result.iter().map(|d| serde_json::from_str(d.get())).collect::<Result<_, _>>()?;
        Ok(SearchResponse {
            concepts: Vec::new(),
            facets: self.facets,
            result,
            message: self.message,
            total: self.total,
        })
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

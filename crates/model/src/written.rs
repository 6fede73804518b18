//! How documents, facet groups and the search operation's answer are written: the one definition of each written
//! form (docs/api.md, Documents). The typed structs of [`crate::document`] write through these, and an engine
//! writes a stored document through them straight from its store, its texts and lists any values that write
//! alike, without making the typed struct first.

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::config::Extra;
use crate::document::{Document, Explanation, FacetGroup, Refiner, SearchPage, SearchResponse};

/// How a document is written, its facet list and details any values that write as [`FacetGroup`]s do (through
/// [`WrittenGroup`] and [`WrittenRefiner`]).
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::{Document, SearchPage, SearchResponse};

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

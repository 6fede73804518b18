//! The default template must be exactly the tables of docs/api.md (The configuration). The expected document is written out here by
//! hand from those tables, not derived from the code under test.

use serde_json::json;
use studio_model::Configuration;

#[test]
fn default_template_equals_the_api_tables_field_by_field() {
    let expected = json!({
        "id": null,
        "user": "anonymous",
        "created": null,
        "config": {
            "title": "",
            "searchSpace": "",
            "visible": true,
            "result": {
                "itemsPerPage": 10,
                "showResultCount": true,
                "summaryLength": 200,
                "showTags": true,
                "numberOfTags": 10,
                "titleAction": "detail_view",
                "dateFormat": "medium",
                "showSimilarDocuments": true,
                "numberOfSimilarDocuments": 5,
                "showDynamicSentiment": false,
                "showResultAsImage": false
            },
            "filter": { "facetsToShow": [], "hideEmptyFacets": true, "componentOrder": [] },
            "layout": {
                "basicActionColor": { "backgroundColor": "#1565c0", "fontColor": "#ffffff" },
                "focusActionColor": { "backgroundColor": "#f07d2e", "fontColor": "#ffffff" },
                "criticalActionColor": { "backgroundColor": "#ff0000", "fontColor": "#ffffff" },
                "navbar": { "backgroundColor": "#00adee", "fontColor": "#ffffff" },
                "facets": { "backgroundColor": "#fff", "fontColor": "#212121" },
                "documents": { "backgroundColor": "#fff", "fontColor": "#212121" },
                "logo": ""
            },
            "details": {
                "detailsToShow": [],
                "showSimilar": false,
                "showSimilarAsImage": false,
                "showRecommendations": false,
                "recommender": "",
                "numberOfRecommendations": 4,
                "numberOfSimilar": 4,
                "showRecommendedAsImage": false,
                "showConceptHighlighting": false
            }
        }
    });
    let actual = serde_json::to_value(Configuration::template()).unwrap();
    assert_eq!(actual, expected);
    // Same keys in the same order as the tables, so a diff of two exports reads like the spec.
    assert_eq!(serde_json::to_string(&actual).unwrap(), serde_json::to_string(&expected).unwrap());
}

#[test]
fn a_configuration_missing_show_concept_highlighting_reads_as_false_and_is_written() {
    let mut value = serde_json::to_value(Configuration::template()).unwrap();
    value["config"]["details"].as_object_mut().unwrap().remove("showConceptHighlighting");
    let read: Configuration = serde_json::from_value(value).unwrap();
    let written = serde_json::to_value(&read).unwrap();
    assert_eq!(written["config"]["details"]["showConceptHighlighting"], json!(false));
}

#[test]
fn unknown_fields_at_every_level_survive_a_read_write_round_trip() {
    let mut value = serde_json::to_value(Configuration::template()).unwrap();
    value["tenant"] = json!({"name": "acme"});
    value["config"]["theme"] = json!("dark");
    value["config"]["result"]["highlight"] = json!(true);
    value["config"]["layout"]["navbar"]["borderColor"] = json!("#000");
    value["config"]["filter"]["facetsToShow"] = json!([{
        "uri": "dyn_lit_author", "title": "Author", "show": true, "facetMode": "flat", "hierarchicalDepth": 3,
        "maximumTerms": 10, "sorting": "count", "sortingOrder": "desc", "showAllButton": false,
        "searchable": false, "refId": "dyn_lit_author", "icon": "person"
    }]);
    let read: Configuration = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(&read).unwrap(), value);
}

/// Numbers in unknown fields are written back exactly as they were read, however many digits they came
/// with (serde_json's default number parsing could land one step off, and the next read changed them).
#[test]
fn numbers_in_unknown_fields_read_back_exactly() {
    let long = "1".to_owned() + &"5".repeat(107);
    let text = format!(
        r#"{{"config": {{"filter": {{"order": ["search", {long}, 0.1, 2.2250738585072014e-308, 1.7976931348623157e308]}}}}}}"#
    );
    let mut value = serde_json::to_value(Configuration::template()).unwrap();
    value["config"]["filter"]["order"] =
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["config"]["filter"]["order"].clone();
    let read: Configuration = serde_json::from_value(value).unwrap();
    let written = serde_json::to_string(&read).unwrap();
    let again: Configuration = serde_json::from_str(&written).unwrap();
    assert_eq!(again, read, "{written}");
}

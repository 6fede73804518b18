//! Tolerant reading: optional fields may be missing, unknown fields are kept and written back unchanged,
//! `dyn_uri_all_concepts` keeps its reversed label/value; and the headers the API requires are sent.

use serde_json::{json, Value};
use studio_model::{Backend, Caller, RecommendQuery, SimilarQuery, ALL_CONCEPTS_FIELD};
use studio_remote::{RemoteBackend, RemoteOptions};
use studio_testkit::http::{json, FakeServer};

fn client(server: &FakeServer, token: Option<&str>) -> RemoteBackend {
    RemoteBackend::with_options(&server.base, token, RemoteOptions::default()).unwrap()
}

fn caller() -> Caller {
    Caller { user: "ana".into() }
}

#[tokio::test]
async fn accept_and_authorization_headers_are_sent() {
    let server = FakeServer::start(|_, _| json(200, json!({"configurations": []}))).await;
    client(&server, Some("s3cret")).list_configurations().await.unwrap();
    client(&server, None).list_configurations().await.unwrap();
    client(&server, Some("  ")).list_configurations().await.unwrap();
    let seen = server.seen();
    assert_eq!(seen[0].line, "GET /api/configurations HTTP/1.1");
    assert_eq!(seen[0].header("accept").as_deref(), Some("application/json"));
    assert_eq!(seen[0].header("authorization").as_deref(), Some("Bearer s3cret"));
    assert_eq!(seen[1].header("authorization"), None);
    assert_eq!(seen[2].header("authorization"), None, "a blank token is no token");
}

#[tokio::test]
async fn answers_missing_every_optional_field_are_read_with_defaults() {
    let server = FakeServer::start(|n, _| match n {
        0 => json(200, json!({"configuration": {"user": "bob", "config": {}}})),
        1 => json(200, json!({"configurations": [{"user": "bob", "config": {"title": "T"}}]})),
        2 => json(200, json!({"config": {"id": 3, "user": "bob", "config": {}}})),
        3 => json(200, json!({})),
        4 => json(200, json!({})),
        _ => json(200, json!({"result": [{"id": "urn:d1"}]})),
    })
    .await;
    let client = client(&server, None);
    let one = client.get_configuration(3).await.unwrap();
    assert_eq!((one.id, one.created.as_deref()), (None, None));
    assert_eq!(one.config.result.items_per_page, 10, "the API's defaults fill what is missing");
    assert!(!one.config.details.show_concept_highlighting);
    let list = client.list_configurations().await.unwrap();
    assert_eq!((list.configurations.len(), list.active_id), (1, None));
    let written = client.create_configuration(&caller(), json!({"config": {}})).await.unwrap();
    assert!(written.errors.is_empty());
    let search = client.search(3, Default::default()).await.unwrap();
    assert_eq!((search.total, search.result.len(), search.message.as_str()), (0, 0, ""));
    let rec = client
        .recommendations(3, RecommendQuery { uri: "urn:d1".into(), recommender: "r".into(), explain: false })
        .await
        .unwrap();
    assert_eq!((rec.total, rec.success, rec.result_type), (None, None, None));
    let similar = client
        .similar_documents(3, SimilarQuery { uri: "urn:d0".into(), number: Some(2), similarity: None, explain: false })
        .await
        .unwrap();
    assert_eq!(similar[0].id, "urn:d1");
    assert_eq!((similar[0].image.as_deref(), similar[0].facet_list.len()), (None, 0));
    let queries: Vec<String> = server.seen().iter().map(|s| s.line.clone()).collect();
    assert_eq!(queries[4], "GET /api/configurations/3/getRecommendations?uri=urn%3Ad1&recommender=r HTTP/1.1");
    assert_eq!(queries[5], "GET /api/configurations/3/getSimilar?uri=urn%3Ad0&number=2 HTTP/1.1");
}

#[tokio::test]
async fn the_all_concepts_group_keeps_uri_in_label_and_name_in_value() {
    let document = json!({
        "id": "urn:doc:1", "link": "https://example.org/1", "title": "Solar", "description": "d", "date": 1.6e12,
        "empty": false, "image": null, "searchSpaceId": "news", "type": "User", "documentDetails": [],
        "facetList": [
            {"field": "dyn_uri_topic", "label": "Topic", "facets": [{"count": 1, "label": "Energy", "value": "urn:c:energy", "children": null}]},
            {"field": ALL_CONCEPTS_FIELD, "label": "All concepts", "facets": [{"count": 1, "label": "urn:c:energy", "value": "Energy", "children": null}]},
            {"field": "dyn_flt_sentiment", "label": "Sentiment", "facets": [{"count": 1, "label": "0.25", "value": null, "children": null}]}
        ],
        "score": 0.93
    });
    let answer = json!({"message": "took 3 ms", "result": [document.clone()]});
    let server = FakeServer::start(move |_, _| json(200, answer.clone())).await;
    let similar = client(&server, None)
        .similar_documents(1, SimilarQuery { uri: "urn:doc:0".into(), ..Default::default() })
        .await
        .unwrap();
    let all = similar[0].facet_list.iter().find(|g| g.field == ALL_CONCEPTS_FIELD).unwrap();
    assert_eq!((all.facets[0].label.as_str(), all.facets[0].value.as_deref()), ("urn:c:energy", Some("Energy")));
    assert_eq!(serde_json::to_value(&similar[0]).unwrap(), document, "the document is kept whole, unknown `score` too");
}

#[tokio::test]
async fn a_configuration_with_unknown_fields_is_written_back_unchanged() {
    let stored = json!({
        "id": 7, "user": "ana", "created": "2024-05-01T10:00:00.000Z", "tenant": "acme",
        "config": {
            "title": "Shop", "searchSpace": "news", "visible": true, "experimentalRanking": {"boost": [1, 2]},
            "result": {"itemsPerPage": 20, "showResultCount": true, "summaryLength": 200, "showTags": true,
                "numberOfTags": 10, "titleAction": "detail_view", "dateFormat": "medium", "showSimilarDocuments": true,
                "numberOfSimilarDocuments": 5, "showDynamicSentiment": false, "showResultAsImage": false, "highlightColor": "#ff0"},
            "filter": {"facetsToShow": [{"uri": "dyn_lit_author", "title": "Author", "show": true, "facetMode": "flat",
                "hierarchicalDepth": 3, "maximumTerms": 10, "sorting": "count", "sortingOrder": "desc", "showAllButton": false,
                "searchable": true, "refId": "dyn_lit_author", "collapsed": true}],
                "hideEmptyFacets": true, "componentOrder": ["facets", "search", "saved-searches"]},
            "layout": {"basicActionColor": {"backgroundColor": "#1565c0", "fontColor": "#ffffff", "hover": "#000"},
                "focusActionColor": {"backgroundColor": "#f07d2e", "fontColor": "#ffffff"},
                "criticalActionColor": {"backgroundColor": "#ff0000", "fontColor": "#ffffff"},
                "navbar": {"backgroundColor": "#00adee", "fontColor": "#ffffff"},
                "facets": {"backgroundColor": "#fff", "fontColor": "#212121"},
                "documents": {"backgroundColor": "#fff", "fontColor": "#212121"}, "logo": "", "favicon": "f.ico"},
            "details": {"detailsToShow": [{"uri": "dyn_lit_author", "title": "Author", "show": true, "refId": "dyn_lit_author", "width": 2}],
                "showSimilar": false, "showSimilarAsImage": false, "showRecommendations": false, "recommender": "",
                "numberOfRecommendations": 4, "numberOfSimilar": 4, "showRecommendedAsImage": false,
                "showConceptHighlighting": false, "sidebar": null}
        }
    });
    let answer = stored.clone();
    let server = FakeServer::start(move |n, seen| match n {
        0 => json(200, json!({"configuration": answer.clone(), "message": "configuration 7"})),
        _ => json(200, json!({"message": "updated", "config": seen.json(), "errors": []})),
    })
    .await;
    let client = client(&server, None);
    let read = client.get_configuration(7).await.unwrap();
    let body: Value = serde_json::to_value(&read).unwrap();
    assert_eq!(body, stored, "nothing is lost or added in reading");
    let written = client.update_configuration(&caller(), 7, body).await.unwrap();
    assert_eq!(server.seen()[1].json(), stored, "what is written back is what was read");
    assert_eq!(serde_json::to_value(&written.config).unwrap(), stored);
}

//! What a user of the API sees: the document shape of docs/api.md (Documents) (with the reversed label/value of
//! `dyn_uri_all_concepts` in a document's facetList and name-in-label in the response's facets), documents
//! shaped by the configuration as the production server shapes them (documentDetails, facetList labels), and
//! hierarchical counts that are unions, with a selected parent matching its descendants' documents.

use serde_json::json;
use serde_json::Value;
use studio_local::{import_documents, LocalBackend, Store};
use studio_model::{Backend, Caller, Document, RecommendQuery, SearchRequest, SelectedFacet, SimilarQuery};

/// Concepts A > B > C and A > D, declared by nesting.
const DOCS: &str = r#"{"id": "d1", "title": "one", "date": 4000, "facetList": [{"field": "dyn_uri_topic", "label": "Topic", "facets": [{"count": 1, "label": "A", "value": "urn:A", "children": [{"count": 1, "label": "B", "value": "urn:B", "children": [{"count": 1, "label": "C", "value": "urn:C"}]}]}]}]}
{"id": "d2", "title": "two", "date": 3000, "facetList": [{"field": "dyn_uri_topic", "label": "Topic", "facets": [{"label": "B", "value": "urn:B"}]}]}
{"id": "d3", "title": "three", "date": 2000, "facetList": [{"field": "dyn_uri_topic", "label": "Topic", "facets": [{"label": "A", "value": "urn:A", "children": [{"label": "D", "value": "urn:D"}]}]}]}
{"id": "d4", "title": "four", "date": 1000, "facetList": [{"field": "dyn_uri_topic", "label": "Topic", "facets": [{"label": "C", "value": "urn:C"}, {"label": "D", "value": "urn:D"}]}]}
{"id": "d5", "title": "five", "date": 500, "description": "Nothing", "image": "data:image/svg+xml,%3Csvg/%3E", "link": "https://example.com/5", "content": "secret words", "facetList": [{"field": "dyn_lit_author", "label": "Author", "facets": [{"count": 1, "label": "Ana", "value": null}]}, {"field": "dyn_uri_region", "label": "Region", "facets": [{"count": 2, "label": "Lisbon", "value": "urn:lisbon"}]}, {"field": "dyn_uri_all_concepts", "label": "imported", "facets": [{"label": "urn:ignored", "value": "Ignored"}]}]}
"#;

fn facet(uri: &str, title: &str, mode: &str) -> Value {
    json!({"uri": uri, "title": title, "show": true, "facetMode": mode, "hierarchicalDepth": 3, "maximumTerms": 10,
           "sorting": "alphabetical", "sortingOrder": "asc", "refId": uri})
}

fn detail(uri: &str, title: &str, show: bool) -> Value {
    json!({"uri": uri, "title": title, "show": show, "refId": uri})
}

/// A store in a temp dir holding `docs` in search space `s`, and a configuration of `config` (over `s`).
async fn backend_with(docs: &str, config: Value) -> (tempfile::TempDir, LocalBackend, i32) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let report = import_documents(&store, "s", docs.as_bytes(), &mut |_| {}).unwrap();
    assert_eq!(report.imported, docs.lines().count() as u64, "{:?}", report.errors);
    let backend = LocalBackend::new(store);
    let mut body = json!({"config": {"title": "t", "searchSpace": "s"}});
    body["config"].as_object_mut().unwrap().extend(config.as_object().unwrap().clone());
    let id = backend.create_configuration(&Caller { user: "u".into() }, body).await.unwrap().config.id.unwrap();
    (dir, backend, id)
}

async fn backend() -> (tempfile::TempDir, LocalBackend, i32) {
    backend_with(
        DOCS,
        json!({"filter": {"facetsToShow": [
            facet("dyn_uri_topic", "Topics", "hierarchical"),
            facet("dyn_uri_all_concepts", "Everything", "flat"),
            facet("dyn_lit_author", "Authors", "flat"),
        ]}}),
    )
    .await
}

fn select(field: &str, value: &str) -> SearchRequest {
    SearchRequest {
        selected_facets: vec![SelectedFacet { field: field.into(), label: None, value: Some(value.into()) }],
        ..Default::default()
    }
}

#[tokio::test]
async fn parent_counts_are_unions_and_a_parent_selects_its_descendants() {
    let (_dir, backend, id) = backend().await;
    let all = backend.search(id, SearchRequest::default()).await.unwrap();
    let topics = &all.facets[0];
    assert_eq!(topics.label, "Topics");
    assert_eq!(topics.facets.len(), 1, "only A is a top concept");
    let a = &topics.facets[0];
    assert_eq!((a.label.as_str(), a.value.as_deref(), a.count), ("A", Some("urn:A"), 4), "d1..d4, not B + D = 5");
    let children: Vec<(&str, i64)> = a.children.as_ref().unwrap().iter().map(|r| (r.label.as_str(), r.count)).collect();
    assert_eq!(children, [("B", 3), ("D", 2)]);
    let b = &a.children.as_ref().unwrap()[0];
    assert_eq!(b.children.as_ref().unwrap()[0].count, 2, "C: d1 and d4");

    // A tag taken as it is from a document's dyn_uri_all_concepts group (URI in label) selects that concept.
    let reversed = SearchRequest {
        selected_facets: vec![SelectedFacet {
            field: "dyn_uri_all_concepts".into(),
            label: Some("urn:D".into()),
            value: Some("D".into()),
        }],
        ..Default::default()
    };
    assert_eq!(backend.search(id, reversed).await.unwrap().total, 2);

    let ids = |r: &studio_model::SearchResponse| r.result.iter().map(|d| d.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&backend.search(id, select("dyn_uri_topic", "urn:A")).await.unwrap()), ["d1", "d2", "d3", "d4"]);
    assert_eq!(ids(&backend.search(id, select("dyn_uri_topic", "urn:B")).await.unwrap()), ["d1", "d2", "d4"]);
    // A field's own selection does not narrow its own counts; it narrows the others'.
    let picked = backend.search(id, select("dyn_uri_topic", "urn:D")).await.unwrap();
    assert_eq!(picked.total, 2);
    assert_eq!(picked.facets[0].facets[0].count, 4);
    let everything: Vec<(&str, i64)> = picked.facets[1].facets.iter().map(|r| (r.label.as_str(), r.count)).collect();
    assert_eq!(everything, [("A", 2), ("B", 1), ("C", 1), ("D", 2)]);
}

#[tokio::test]
async fn documents_have_the_shape_of_the_api() {
    let (_dir, backend, id) = backend().await;
    let found = backend.search(id, SearchRequest { input: Some("five".into()), ..Default::default() }).await.unwrap();
    assert_eq!(found.total, 1);
    assert_eq!(found.concepts, Vec::<serde_json::Value>::new());
    assert!(found.message.starts_with("took ") && found.message.ends_with(" ms"));
    let doc = serde_json::to_value(&found.result[0]).unwrap();
    assert_eq!(
        doc,
        json!({
            "id": "d5", "link": "https://example.com/5", "title": "five", "description": "Nothing", "date": 500.0,
            "empty": false, "image": "data:image/svg+xml,%3Csvg/%3E", "searchSpaceId": "s", "type": "User",
            "documentDetails": [],
            "facetList": [
                {"field": "dyn_lit_author", "label": "Authors", "facets": [{"count": 1, "label": "Ana", "value": null, "children": null}]},
                {"field": "dyn_uri_region", "label": "Region", "facets": [{"count": 2, "label": "Lisbon", "value": "urn:lisbon", "children": null}]},
                {"field": "dyn_uri_all_concepts", "label": "Everything", "facets": [{"count": 1, "label": "urn:lisbon", "value": "Lisbon", "children": null}]}
            ]
        })
    );
    assert_eq!(
        backend.search(id, SearchRequest { input: Some("SECRET".into()), ..Default::default() }).await.unwrap().total,
        1,
        "content is searched"
    );

    // In the response's facets every group, dyn_uri_all_concepts included, has the name in label.
    let all = &found.facets[1];
    assert_eq!(all.field, "dyn_uri_all_concepts");
    assert_eq!(all.label, "Everything");
    assert_eq!((all.facets[0].label.as_str(), all.facets[0].value.as_deref()), ("Lisbon", Some("urn:lisbon")));
    assert_eq!(all.facets.len(), 1, "an imported dyn_uri_all_concepts group is ignored");
    assert_eq!(found.facets[2].facets[0].value, None, "literal refiners carry no value");

    let spaces = backend.search_spaces().await.unwrap();
    let fields: Vec<(&str, &str, &str)> =
        spaces[0].fields.iter().map(|f| (f.field.as_str(), f.label.as_str(), f.uri.as_str())).collect();
    assert_eq!(
        fields,
        [
            ("dyn_lit_author", "Author", "urn:searchstudio:field:dyn_lit_author"),
            ("dyn_uri_all_concepts", "All concepts", "urn:searchstudio:field:dyn_uri_all_concepts"),
            ("dyn_uri_region", "Region", "urn:searchstudio:field:dyn_uri_region"),
            ("dyn_uri_topic", "Topic", "urn:searchstudio:field:dyn_uri_topic"),
        ]
    );
    assert_eq!(serde_json::to_value(spaces[0].fields[0].kind).unwrap(), "literal");
    assert_eq!(spaces[0].documents, 5);
}

#[tokio::test]
async fn odd_input_never_fails_and_paging_follows_the_configuration() {
    let (_dir, backend, id) = backend().await;
    for input in [
        "\"",
        "\"\"",
        "*",
        "AND OR NOT",
        "title:one",
        "(one",
        "one\"",
        "NEAR(one two)",
        "é",
        "-",
        "^one",
        "\u{1E900}",
        "one \u{1E900}*",
        "\u{E000}",
        "\u{301}",
        "one\u{0}two",
        "🙂 one",
    ] {
        let r = backend.search(id, SearchRequest { input: Some(input.into()), ..Default::default() }).await;
        assert!(r.is_ok(), "{input}: {r:?}");
    }
    let page = backend.search(id, SearchRequest { start: Some(3), ..Default::default() }).await.unwrap();
    assert_eq!(page.total, 5);
    assert_eq!(page.result.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["d4", "d5"]);
    let past = backend.search(id, SearchRequest { start: Some(50), ..Default::default() }).await.unwrap();
    assert!(past.result.is_empty());
    assert_eq!(past.total, 5);
}

/// x1 has literal, hierarchical concept and numeric values; x2 shares an author and a concept with it.
const SHAPED: &str = r#"{"id": "x1", "title": "shaped", "date": 2000, "facetList": [{"field": "dyn_lit_author", "label": "Author", "facets": [{"count": 1, "label": "Ana", "value": null}, {"count": 1, "label": "Ben", "value": null}]}, {"field": "dyn_uri_topic", "label": "Topic", "facets": [{"count": 3, "label": "Energy", "value": "urn:energy", "children": [{"count": 1, "label": "Solar", "value": "urn:solar"}]}]}, {"field": "dyn_flt_sentiment", "label": "Sentiment", "facets": [{"count": 1, "label": "0.25", "value": null}]}]}
{"id": "x2", "title": "other", "date": 1000, "facetList": [{"field": "dyn_lit_author", "label": "Author", "facets": [{"label": "Ana"}]}, {"field": "dyn_uri_topic", "label": "Topic", "facets": [{"label": "Solar", "value": "urn:solar"}]}]}
{"id": "x3 \"odd\"", "title": "odd \u00e9\n", "description": "tab\there", "date": 1000.5, "facetList": [{"field": "dyn_lit_author", "label": "Author \"", "facets": [{"label": "Zo\u00eb \"Q\" \\ \ud83c\udf1e", "value": null}, {"label": "Zo\u00eb \"Q\" \\ \ud83c\udf1e"}]}, {"field": "dyn_uri_topic", "label": "Topic", "facets": [{"count": 2, "label": "Wind \"n\"", "value": "urn:wind?q=\"1\"", "children": [{"label": "", "value": ""}, {"label": "Gust\u0001", "value": "urn:gust"}]}]}]}
"#;

fn shaped_config() -> Value {
    let mut hidden = facet("dyn_lit_author", "Hidden authors", "flat");
    hidden["show"] = json!(false);
    json!({
        "filter": {"facetsToShow": [
            facet("urn:searchstudio:field:dyn_uri_topic", "Subjects", "hierarchical"),
            hidden,
            facet("dyn_lit_author", "Writers", "flat"),
        ]},
        "details": {"detailsToShow": [
            detail("dyn_lit_author", "By", true),
            detail("urn:searchstudio:field:dyn_uri_topic", "About", true),
            detail("dyn_flt_sentiment", "Mood", true),
            detail("dyn_lit_context", "Left out", false),
            detail("dyn_uri_all_concepts", "Concepts", true),
            detail("dyn_lit_nowhere", "Unknown", true),
        ]}
    })
}

fn doc<'a>(docs: &'a [Document], id: &str) -> &'a Document {
    docs.iter().find(|d| d.id == id).unwrap_or_else(|| panic!("{id} is not among the documents"))
}

fn labels(doc: &Document) -> Vec<(&str, &str)> {
    doc.facet_list.iter().map(|g| (g.field.as_str(), g.label.as_str())).collect()
}

#[tokio::test]
async fn documents_carry_the_configured_details_and_facet_titles() {
    let (_dir, backend, id) = backend_with(SHAPED, shaped_config()).await;
    let found = backend.search(id, SearchRequest::default()).await.unwrap();
    let x1 = serde_json::to_value(doc(&found.result, "x1")).unwrap();
    let value = |count: i64, label: &str, value: Option<&str>| json!({"count": count, "label": label, "value": value, "children": null});
    // One group per shown detail, in order, titled by it, with every value of the document once (count 1,
    // no children; dyn_uri_all_concepts keeps its URI in label); an unknown field gives an empty group.
    assert_eq!(
        x1["documentDetails"],
        json!([
            {"field": "dyn_lit_author", "label": "By", "facets": [value(1, "Ana", None), value(1, "Ben", None)]},
            {"field": "dyn_uri_topic", "label": "About", "facets": [value(1, "Energy", Some("urn:energy")), value(1, "Solar", Some("urn:solar"))]},
            {"field": "dyn_flt_sentiment", "label": "Mood", "facets": [value(1, "0.25", None)]},
            {"field": "dyn_uri_all_concepts", "label": "Concepts", "facets": [value(1, "urn:energy", Some("Energy")), value(1, "urn:solar", Some("Solar"))]},
            {"field": "dyn_lit_nowhere", "label": "Unknown", "facets": []}
        ])
    );
    // facetList groups take the title of the facet naming their field (a shown one before a hidden one);
    // fields without a facet keep their own label; the refiners stay as imported.
    assert_eq!(
        x1["facetList"],
        json!([
            {"field": "dyn_lit_author", "label": "Writers", "facets": [value(1, "Ana", None), value(1, "Ben", None)]},
            {"field": "dyn_uri_topic", "label": "Subjects", "facets": [
                {"count": 3, "label": "Energy", "value": "urn:energy", "children": [value(1, "Solar", Some("urn:solar"))]}
            ]},
            {"field": "dyn_flt_sentiment", "label": "Sentiment", "facets": [value(1, "0.25", None)]},
            {"field": "dyn_uri_all_concepts", "label": "All concepts", "facets": [value(1, "urn:energy", Some("Energy")), value(1, "urn:solar", Some("Solar"))]}
        ])
    );
    let x2 = doc(&found.result, "x2");
    let mood = serde_json::to_value(&x2.document_details[2]).unwrap();
    assert_eq!(
        mood,
        json!({"field": "dyn_flt_sentiment", "label": "Mood", "facets": []}),
        "a field the document lacks"
    );

    // Similar documents and recommendations are shaped the same way.
    let similar = backend
        .similar_documents(id, SimilarQuery { uri: "x2".into(), number: None, similarity: None, explain: false })
        .await
        .unwrap();
    assert_eq!(doc(&similar, "x1"), doc(&found.result, "x1"));
    let recommended = backend
        .recommendations(id, RecommendQuery { uri: "x2".into(), recommender: "same-author".into(), explain: false })
        .await
        .unwrap();
    assert_eq!(doc(&recommended.result, "x1"), doc(&found.result, "x1"));
}

#[tokio::test]
async fn a_search_with_config_overrides_shapes_documents_by_them() {
    let (_dir, backend, id) = backend_with(SHAPED, shaped_config()).await;
    let overrides = json!({
        "details": {"detailsToShow": [detail("dyn_flt_sentiment", "Feeling", true)]},
        "filter": {"facetsToShow": [{"uri": "dyn_flt_sentiment", "title": "Tone"}]}
    });
    let found = backend.search(id, SearchRequest { config: Some(overrides), ..Default::default() }).await.unwrap();
    let x1 = doc(&found.result, "x1");
    assert_eq!(
        serde_json::to_value(&x1.document_details).unwrap(),
        json!([{"field": "dyn_flt_sentiment", "label": "Feeling", "facets": [{"count": 1, "label": "0.25", "value": null, "children": null}]}])
    );
    assert_eq!(
        labels(x1),
        [
            ("dyn_lit_author", "Author"),
            ("dyn_uri_topic", "Topic"),
            ("dyn_flt_sentiment", "Tone"),
            ("dyn_uri_all_concepts", "All concepts")
        ]
    );
    // Without the overrides the stored configuration shapes them again.
    let stored = backend.search(id, SearchRequest::default()).await.unwrap();
    assert_eq!(doc(&stored.result, "x1").document_details.len(), 5);
}

/// Every search of `requests` answers alike typed and written as a server sends it: the same facets and total,
/// and each document of the page written exactly as the typed one writes.
async fn written_alike(backend: &LocalBackend, id: i32, requests: &[SearchRequest]) {
    for request in requests {
        let typed = backend.search(id, request.clone()).await.unwrap();
        let page = backend.search_written(id, request.clone()).await.unwrap();
        assert_eq!((&page.facets, page.total), (&typed.facets, typed.total), "{request:?}");
        let written: Vec<&str> = page.result.iter().map(|d| d.get()).collect();
        let typed_written: Vec<String> = typed.result.iter().map(|d| serde_json::to_string(d).unwrap()).collect();
        assert_eq!(written, typed_written, "{request:?}");
        // The page writes as the typed answer does, its message aside.
        let mut as_sent = serde_json::to_value(&page).unwrap();
        as_sent["message"] = json!(typed.message);
        assert_eq!(as_sent, serde_json::to_value(&typed).unwrap(), "{request:?}");
    }
}

#[tokio::test]
async fn a_page_written_straight_from_the_store_is_the_typed_answer_written() {
    let (_dir, backend, id) = backend_with(SHAPED, shaped_config()).await;
    let overrides = json!({"details": {"detailsToShow": [detail("dyn_lit_author", "Feeling", true)]}});
    let requests = [
        SearchRequest::default(),
        SearchRequest { input: Some("odd".into()), ..Default::default() },
        select("dyn_uri_topic", "urn:wind?q=\"1\""),
        SearchRequest { start: Some(1), ..Default::default() },
        SearchRequest { config: Some(overrides), ..Default::default() },
    ];
    written_alike(&backend, id, &requests).await;
    let odd =
        backend.search_written(id, SearchRequest { input: Some("odd".into()), ..Default::default() }).await.unwrap();
    assert_eq!(odd.total, 1);
    let written: Value = serde_json::from_str(odd.result[0].get()).unwrap();
    assert_eq!(written["id"], "x3 \"odd\"");
    let zoe =
        |count: i64| json!({"count": count, "label": "Zo\u{eb} \"Q\" \\ \u{1F31E}", "value": null, "children": null});
    assert_eq!(written["facetList"][0]["facets"], json!([zoe(0), zoe(0)]), "the refiners as imported");
    assert_eq!(written["documentDetails"][0]["facets"], json!([zoe(1)]), "a value given twice is one detail");
    assert_eq!(
        written["facetList"][2]["facets"],
        json!([
            {"count": 1, "label": "urn:wind?q=\"1\"", "value": "Wind \"n\"", "children": null},
            {"count": 1, "label": "urn:gust", "value": "Gust\u{1}", "children": null}
        ]),
        "the all-concepts group leaves out an empty value"
    );

    let (_other_dir, hierarchy, id) = self::backend().await;
    written_alike(&hierarchy, id, &[SearchRequest::default(), select("dyn_uri_topic", "urn:B")]).await;
}

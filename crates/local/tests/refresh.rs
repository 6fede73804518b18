//! The index notices writes made by another process: a second `Store` opened on the same file (as the
//! desktop app and `studio serve` may share one data directory) imports, and the next search sees it.

use studio_local::{import_concepts, import_documents, LocalBackend, Store};
use studio_model::{Backend, Caller, SearchRequest};

fn doc(id: &str, concept: &str) -> String {
    format!(
        r#"{{"id": "{id}", "title": "shared words", "facetList": [{{"field": "dyn_uri_topic", "label": "Topic", "facets": [{{"label": "{concept}", "value": "urn:{concept}"}}]}}]}}"#
    )
}

#[tokio::test]
async fn a_write_through_a_second_store_on_the_same_file_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let first = Store::open_dir(dir.path()).unwrap();
    import_documents(&first, "s", doc("a", "x").as_bytes(), &mut |_| {}).unwrap();
    let backend = LocalBackend::new(first);
    let body = serde_json::json!({"config": {"title": "t", "searchSpace": "s", "filter": {"facetsToShow": [
        {"uri": "dyn_uri_topic", "title": "Topic", "show": true, "facetMode": "hierarchical"}]}}});
    let id = backend.create_configuration(&Caller { user: "u".into() }, body).await.unwrap().config.id.unwrap();
    let before = backend.search(id, SearchRequest::default()).await.unwrap();
    assert_eq!(before.total, 1);

    let second = Store::open_dir(dir.path()).unwrap();
    import_documents(&second, "s", format!("{}\n{}\n", doc("b", "y"), doc("a", "y")).as_bytes(), &mut |_| {}).unwrap();
    let after = backend.search(id, SearchRequest { input: Some("shared".into()), ..Default::default() }).await.unwrap();
    assert_eq!(after.total, 2);
    let counts: Vec<(&str, i64)> = after.facets[0].facets.iter().map(|r| (r.label.as_str(), r.count)).collect();
    assert_eq!(counts, [("y", 2)], "the replaced annotation is gone from the counts");

    // A concept scheme loaded elsewhere changes the hierarchy too.
    import_concepts(&second, &b"{\"uri\": \"urn:top\", \"label\": \"Top\"}\n{\"uri\": \"urn:y\", \"label\": \"y\", \"broader\": [\"urn:top\"]}\n"[..], &mut |_| {}).unwrap();
    let nested = backend.search(id, SearchRequest::default()).await.unwrap();
    let top = &nested.facets[0].facets[0];
    assert_eq!((top.label.as_str(), top.count), ("Top", 2));
    assert_eq!(top.children.as_ref().map(Vec::len), Some(1));
}

//! The editor previews unsaved settings by sending them with a search (`config` in the search body): the
//! search follows them, and nothing is stored.

use serde_json::json;
use studio_local::{demo, LocalBackend, Store};
use studio_model::{Backend, Caller, SearchRequest};

/// A store with the demo data, a backend over it, the caller and the id of the demo configuration created in it.
async fn demo_with_configuration() -> (tempfile::TempDir, LocalBackend, Caller, i32) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    demo::load_demo(&store, &mut |_| {}).unwrap();
    let backend = LocalBackend::new(store);
    let caller = Caller { user: "ana".into() };
    let id = backend.create_configuration(&caller, demo::demo_configuration()).await.unwrap().config.id.unwrap();
    (dir, backend, caller, id)
}

#[tokio::test]
async fn a_search_with_config_overrides_follows_them_and_stores_nothing() {
    let (_dir, backend, _caller, id) = demo_with_configuration().await;
    let stored = backend.get_configuration(id).await.unwrap();

    let plain = backend.search(id, SearchRequest::default()).await.unwrap();
    assert_eq!(plain.result.len(), stored.config.result.items_per_page as usize);
    assert_eq!(plain.facets.len(), stored.config.filter.facets_to_show.iter().filter(|f| f.show).count());

    let overrides = json!({
        "result": { "itemsPerPage": 3 },
        "filter": { "facetsToShow": [{ "uri": "dyn_lit_author", "title": "Written by", "maximumTerms": 2 }] }
    });
    let previewed = backend.search(id, SearchRequest { config: Some(overrides), ..Default::default() }).await.unwrap();
    assert_eq!(previewed.result.len(), 3);
    assert_eq!(previewed.total, plain.total);
    assert_eq!(previewed.facets.len(), 1);
    assert_eq!(previewed.facets[0].label, "Written by");
    assert_eq!(previewed.facets[0].facets.len(), 2);

    let invalid = json!({ "result": { "itemsPerPage": 0 } });
    let ignored = backend.search(id, SearchRequest { config: Some(invalid), ..Default::default() }).await.unwrap();
    assert_eq!(ignored.result.len(), stored.config.result.items_per_page as usize, "an invalid override is ignored");

    assert_eq!(backend.get_configuration(id).await.unwrap(), stored);
    assert_eq!(backend.configuration_logs(id).await.unwrap().len(), 1);
}

/// A pull asks for every page with the same stored configuration and the same overrides; the search keeps the
/// configuration it made for them, and still follows a change of the stored one, by this backend or by another
/// writer of the same store (another process).
#[tokio::test]
async fn repeated_overrides_follow_a_stored_change_by_any_writer() {
    let (dir, backend, caller, id) = demo_with_configuration().await;
    let page = |start: i32| SearchRequest {
        start: Some(start),
        config: Some(json!({ "result": { "itemsPerPage": 4 } })),
        ..Default::default()
    };
    let first = backend.search(id, page(0)).await.unwrap();
    let second = backend.search(id, page(4)).await.unwrap();
    assert_eq!((first.result.len(), second.result.len()), (4, 4));
    assert_ne!(first.result[0].id, second.result[0].id);
    let author = |answer: &studio_model::SearchResponse| {
        answer.facets.iter().find(|g| g.field == "dyn_lit_author").map(|g| g.label.clone())
    };
    assert_eq!(author(&first).as_deref(), Some("Author"));

    // Another writer of the same store renames the author facet.
    let other = LocalBackend::new(Store::open_dir(dir.path()).unwrap());
    let mut facets = other.get_configuration(id).await.unwrap().config.filter.facets_to_show;
    facets.iter_mut().filter(|f| f.uri == "dyn_lit_author").for_each(|f| f.title = "Written by".into());
    let change = json!({ "config": { "filter": { "facetsToShow": facets } } });
    other.update_configuration(&caller, id, change).await.unwrap();

    let after = backend.search(id, page(0)).await.unwrap();
    assert_eq!(author(&after).as_deref(), Some("Written by"));
    assert_eq!(after.result.len(), 4);
}

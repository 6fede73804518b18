//! The bundled demo loads, looks like the product's data, and answers all three search operations.

use studio_local::demo::{self, DEMO_DOCUMENTS, DEMO_SPACE};
use studio_local::{LocalBackend, Store};
use studio_model::{Backend, Caller, RecommendQuery, SearchRequest, SimilarQuery};

#[tokio::test]
async fn demo_loads_and_answers_search_similar_and_recommendations() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let mut last = 0;
    let report = demo::load_demo(&store, &mut |n| last = n).unwrap();
    assert_eq!(report.documents.imported, DEMO_DOCUMENTS as u64);
    assert!(report.documents.errors.is_empty());
    assert!(report.concepts.imported >= 150);
    assert_eq!(last, DEMO_DOCUMENTS as u64);

    let backend = LocalBackend::new(store);
    let caller = Caller { user: "ana".into() };
    let created = backend.create_configuration(&caller, demo::demo_configuration()).await.unwrap();
    assert!(created.errors.is_empty(), "{:?}", created.errors);
    let id = created.config.id.unwrap();

    let all = backend.search(id, SearchRequest::default()).await.unwrap();
    assert_eq!(all.total, DEMO_DOCUMENTS as i64);
    assert_eq!(all.result.len(), 10);
    assert_eq!(all.facets.len(), 5);
    let topics = &all.facets[0];
    assert_eq!(topics.label, "Topic");
    assert_eq!(topics.facets.len(), 6, "six top topics");
    let energy = topics.facets.iter().find(|r| r.label == "Energy").unwrap();
    assert!(energy.children.as_ref().is_some_and(|c| !c.is_empty()));
    assert!(all.result.windows(2).all(|w| w[0].date >= w[1].date));
    assert!(all.result[0].description.len() > 100);

    let solar = backend.search(id, SearchRequest { input: Some("SOLAR".into()), ..Default::default() }).await.unwrap();
    assert!(solar.total > 0 && solar.total < all.total);
    let accented =
        backend.search(id, SearchRequest { input: Some("sao paulo".into()), ..Default::default() }).await.unwrap();
    let plain =
        backend.search(id, SearchRequest { input: Some("São Paulo".into()), ..Default::default() }).await.unwrap();
    assert!(accented.total > 0);
    assert_eq!(accented.total, plain.total);

    let source = &all.result[0];
    let similar = backend
        .similar_documents(id, SimilarQuery { uri: source.id.clone(), number: None, similarity: None, explain: false })
        .await
        .unwrap();
    assert_eq!(similar.len(), 5);
    let text = backend
        .similar_documents(
            id,
            SimilarQuery { uri: source.id.clone(), number: Some(3), similarity: Some("text".into()), explain: false },
        )
        .await
        .unwrap();
    assert_eq!(text.len(), 3);
    assert!(text.iter().all(|d| d.id != source.id));
    let rec = backend
        .recommendations(
            id,
            RecommendQuery { uri: source.id.clone(), recommender: "related-concepts".into(), explain: false },
        )
        .await
        .unwrap();
    assert_eq!(rec.total, Some(4));
    let spaces = backend.search_spaces().await.unwrap();
    assert_eq!(spaces.len(), 1);
    assert_eq!(spaces[0].id, DEMO_SPACE);
    assert!(spaces[0].fields.iter().any(|f| f.field == "dyn_uri_all_concepts"));
}

#[test]
fn generator_is_deterministic_and_varied() {
    let a: Vec<_> = demo::generate_documents(50, 1).collect();
    let b: Vec<_> = demo::generate_documents(50, 1).collect();
    let c: Vec<_> = demo::generate_documents(50, 2).collect();
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert!(a.iter().any(|d| d.image.is_some()) && a.iter().any(|d| d.image.is_none()));
    let years: std::collections::BTreeSet<i64> =
        demo::generate_documents(500, 1).map(|d| (d.date / 3.15e10) as i64).collect();
    assert!(years.len() >= 5, "dates over several years");
    assert!(demo::demo_concepts().iter().filter(|c| c.level == 3).count() >= 100);
}

//! getSimilar and getRecommendations over the demo corpus: similar documents share concepts with the
//! source, the source is never in its own list, and the defaults and 400/404 rules of docs/api.md (Similar documents).

use std::collections::HashSet;

use studio_local::demo;
use studio_local::{LocalBackend, Store};
use studio_model::{Backend, BackendError, Caller, Document, RecommendQuery, SearchRequest, SimilarQuery};

async fn demo_backend() -> (tempfile::TempDir, LocalBackend, i32) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    demo::load_demo(&store, &mut |_| {}).unwrap();
    let backend = LocalBackend::new(store);
    let id = backend
        .create_configuration(&Caller { user: "u".into() }, demo::demo_configuration())
        .await
        .unwrap()
        .config
        .id
        .unwrap();
    (dir, backend, id)
}

/// The concept URIs of a document (its dyn_uri_all_concepts group carries the URI in `label`).
fn concepts(doc: &Document) -> HashSet<String> {
    doc.facet_list
        .iter()
        .filter(|g| g.field == "dyn_uri_all_concepts")
        .flat_map(|g| g.facets.iter().map(|r| r.label.clone()))
        .collect()
}

/// The concepts of a document with every broader concept of the demo scheme.
fn with_broader(direct: &HashSet<String>) -> HashSet<String> {
    let scheme = demo::demo_concepts();
    let mut all = direct.clone();
    for _ in 0..3 {
        for c in &scheme {
            if all.contains(&c.uri) {
                all.extend(c.broader.iter().cloned());
            }
        }
    }
    all
}

fn similar(uri: &str, number: Option<i32>, similarity: Option<&str>) -> SimilarQuery {
    SimilarQuery { uri: uri.into(), number, similarity: similarity.map(str::to_owned), explain: false }
}

#[tokio::test]
async fn similar_documents_share_concepts_and_never_include_the_source() {
    let (_dir, backend, id) = demo_backend().await;
    let page = backend.search(id, SearchRequest { start: Some(100), ..Default::default() }).await.unwrap();
    for source in &page.result {
        let own = concepts(source);
        let by_concepts = backend.similar_documents(id, similar(&source.id, None, None)).await.unwrap();
        assert_eq!(by_concepts.len(), 5, "numberOfSimilarDocuments of the configuration");
        assert!(by_concepts.iter().all(|d| d.id != source.id));
        assert!(!concepts(&by_concepts[0]).is_disjoint(&own), "the most similar document shares a concept");
        for d in &by_concepts {
            assert!(
                !with_broader(&concepts(d)).is_disjoint(&with_broader(&own)),
                "{} shares nothing with {}",
                d.id,
                source.id
            );
        }
        let by_text = backend.similar_documents(id, similar(&source.id, Some(8), Some("text"))).await.unwrap();
        assert_eq!(by_text.len(), 8);
        assert!(by_text.iter().all(|d| d.id != source.id));
    }
    let many = backend.similar_documents(id, similar(&page.result[0].id, Some(5000), None)).await.unwrap();
    assert_eq!(many.len(), 100, "at most 100");
    assert!(backend.similar_documents(id, similar(&page.result[0].id, Some(0), None)).await.unwrap().is_empty());
}

#[tokio::test]
async fn recommendations_follow_their_plugin_and_the_configuration() {
    let (_dir, backend, id) = demo_backend().await;
    let page = backend.search(id, SearchRequest { start: Some(40), ..Default::default() }).await.unwrap();
    for source in &page.result {
        let authors: HashSet<String> = source
            .facet_list
            .iter()
            .filter(|g| g.field == "dyn_lit_author")
            .flat_map(|g| g.facets.iter().map(|r| r.label.clone()))
            .collect();
        let same = backend
            .recommendations(
                id,
                RecommendQuery { uri: source.id.clone(), recommender: "same-author".into(), explain: false },
            )
            .await
            .unwrap();
        assert_eq!(same.result_type.as_deref(), Some("application/vnd.searchstudio.recommendation-v2+json"));
        assert_eq!((same.status, same.success), (Some(200), Some(true)));
        assert_eq!(same.total, Some(same.result.len() as i32));
        assert!(same.result.len() <= 4);
        for d in &same.result {
            assert_ne!(d.id, source.id);
            assert!(d
                .facet_list
                .iter()
                .any(|g| g.field == "dyn_lit_author" && g.facets.iter().any(|r| authors.contains(&r.label))));
        }
        let related = backend
            .recommendations(
                id,
                RecommendQuery { uri: source.id.clone(), recommender: "related-concepts".into(), explain: false },
            )
            .await
            .unwrap();
        assert_eq!(related.result.len(), 4, "numberOfRecommendations of the configuration");
        let most_similar: HashSet<String> = backend
            .similar_documents(id, similar(&source.id, Some(4), None))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect();
        for d in &related.result {
            assert_ne!(d.id, source.id);
            assert!(!most_similar.contains(&d.id), "related-concepts leaves out the most similar documents");
        }
    }
}

#[tokio::test]
async fn missing_parameters_are_bad_requests_and_unknown_names_are_not_found() {
    let (_dir, backend, id) = demo_backend().await;
    let doc = backend.search(id, SearchRequest::default()).await.unwrap().result[0].id.clone();

    let err = backend.similar_documents(id, similar("", None, None)).await.unwrap_err();
    assert!(matches!(err, BackendError::BadRequest(ref m) if m.contains("uri")), "{err:?}");
    let err = backend
        .recommendations(id, RecommendQuery { uri: doc.clone(), recommender: String::new(), explain: false })
        .await
        .unwrap_err();
    assert!(matches!(err, BackendError::BadRequest(ref m) if m.contains("recommender")), "{err:?}");
    let err = backend
        .recommendations(id, RecommendQuery { uri: String::new(), recommender: "same-author".into(), explain: false })
        .await
        .unwrap_err();
    assert!(matches!(err, BackendError::BadRequest(_)), "{err:?}");

    let err = backend.similar_documents(id, similar("urn:nope", None, None)).await.unwrap_err();
    assert!(matches!(err, BackendError::NotFound(ref m) if m.contains("urn:nope")), "{err:?}");
    let err = backend
        .recommendations(
            id,
            RecommendQuery { uri: "urn:nope".into(), recommender: "same-author".into(), explain: false },
        )
        .await
        .unwrap_err();
    assert!(matches!(err, BackendError::NotFound(ref m) if m.contains("urn:nope")), "{err:?}");
    let err = backend.similar_documents(id, similar(&doc, None, Some("magic"))).await.unwrap_err();
    assert!(
        matches!(err, BackendError::NotFound(ref m) if m.contains("magic") && m.contains("concepts, text")),
        "{err:?}"
    );
    let err = backend
        .recommendations(id, RecommendQuery { uri: doc.clone(), recommender: "magic".into(), explain: false })
        .await
        .unwrap_err();
    assert!(
        matches!(err, BackendError::NotFound(ref m) if m.contains("magic") && m.contains("related-concepts, same-author")),
        "{err:?}"
    );
    let err = backend.similar_documents(id + 100, similar(&doc, None, None)).await.unwrap_err();
    assert!(matches!(err, BackendError::NotFound(ref m) if m.contains("configuration")), "{err:?}");

    // A document of another search space is unknown within this configuration's search space.
    let mut other = demo::demo_configuration();
    other["config"]["searchSpace"] = "elsewhere".into();
    let other_id = backend.create_configuration(&Caller { user: "u".into() }, other).await.unwrap().config.id.unwrap();
    let err = backend.similar_documents(other_id, similar(&doc, None, None)).await.unwrap_err();
    assert!(matches!(err, BackendError::NotFound(ref m) if m.contains("elsewhere")), "{err:?}");
    let empty = backend.search(other_id, SearchRequest::default()).await.unwrap();
    assert_eq!((empty.total, empty.facets.len()), (0, 5), "an unknown search space has groups with no refiners");
}

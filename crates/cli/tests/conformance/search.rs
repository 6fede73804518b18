//! Scenarios over operations 7–9 of docs/api.md (Operations), their explanations, the search-space listing and
//! facet health, through a configuration of the corpus. Each checks the rules itself and records every answer for the cross-backend comparison.

use serde_json::json;
use studio_local::demo::demo_configuration;
use studio_model::{BackendError, RecommendQuery, SearchRequest, SelectedFacet, SimilarQuery, ALL_CONCEPTS_FIELD};

use super::fixtures::{Fixture, CORPUS_DOCUMENTS};
use super::transcript::Transcript;

fn text(input: &str) -> SearchRequest {
    SearchRequest { input: Some(input.into()), ..Default::default() }
}

/// Search with and without text, paging, facet filters, unsaved overrides, and its 404.
pub async fn search(fx: Fixture) -> Transcript {
    let (b, who) = (fx.backend.as_ref(), &fx.caller);
    let mut t = Transcript::default();
    let id = t.ok("create", b.create_configuration(who, demo_configuration()).await).config.id.expect("id");
    let all = t.ok("search everything", b.search(id, SearchRequest::default()).await);
    assert_eq!(all.total, CORPUS_DOCUMENTS as i64);
    assert_eq!((all.result.len(), all.facets.len()), (10, 5));
    assert!(all.concepts.is_empty());
    assert!(all.result.windows(2).all(|w| w[0].date >= w[1].date), "empty input orders by date");
    let page = t.ok("second page", b.search(id, SearchRequest { start: Some(10), ..Default::default() }).await);
    assert_ne!(page.result[0].id, all.result[0].id);
    let word = all.result[0].title.split_whitespace().find(|w| w.len() > 4).unwrap_or("energy").to_owned();
    let found = t.ok("search a word", b.search(id, text(&word)).await);
    assert!(found.total >= 1, "`{word}` comes from a title");
    t.ok("search nothing matches", b.search(id, text("zzqxv-no-such-word")).await);
    t.ok("search stray quote", b.search(id, text("\"unbalanced")).await);

    let topic = all.facets.iter().find(|g| !g.facets.is_empty()).expect("a facet with refiners");
    let refiner = &topic.facets[0];
    let filter =
        SelectedFacet { field: topic.field.clone(), label: Some(refiner.label.clone()), value: refiner.value.clone() };
    let filtered = t.ok(
        "filter by a facet",
        b.search(id, SearchRequest { selected_facets: vec![filter], ..Default::default() }).await,
    );
    assert_eq!(filtered.total, refiner.count);
    let overridden = SearchRequest { config: Some(json!({"result": {"itemsPerPage": 3}})), ..Default::default() };
    assert_eq!(t.ok("unsaved overrides", b.search(id, overridden).await).result.len(), 3);
    assert!(matches!(
        t.err("search missing configuration", b.search(999, SearchRequest::default()).await),
        BackendError::NotFound(_)
    ));
    t
}

/// Similar documents and recommendations with each plugin, and their 404s.
pub async fn similar_and_recommendations(fx: Fixture) -> Transcript {
    let (b, who) = (fx.backend.as_ref(), &fx.caller);
    let mut t = Transcript::default();
    let id = t.ok("create", b.create_configuration(who, demo_configuration()).await).config.id.expect("id");
    let first = t.ok("search", b.search(id, SearchRequest::default()).await).result[0].clone();
    let all_concepts = first.facet_list.iter().find(|g| g.field == ALL_CONCEPTS_FIELD).expect("the union group");
    assert!(all_concepts.facets.iter().all(|r| r.label.starts_with("http")), "in facetList the URI is the label");

    let similar = |uri: &str, number: Option<i32>, plugin: Option<&str>| SimilarQuery {
        uri: uri.to_owned(),
        number,
        similarity: plugin.map(str::to_owned),
        explain: false,
    };
    let default = t.ok("similar", b.similar_documents(id, similar(&first.id, None, None)).await);
    assert_eq!(default.len(), 5, "numberOfSimilarDocuments");
    assert!(default.iter().all(|d| d.id != first.id));
    assert_eq!(
        t.ok("similar 3 by text", b.similar_documents(id, similar(&first.id, Some(3), Some("text"))).await).len(),
        3
    );
    t.ok("similar by concepts", b.similar_documents(id, similar(&first.id, Some(2), Some("concepts"))).await);
    for plugin in ["concepts", "text"] {
        let query = SimilarQuery { explain: true, ..similar(&first.id, Some(3), Some(plugin)) };
        let explained = t.ok(&format!("similar by {plugin}, explained"), b.similar_documents(id, query).await);
        assert!(explained.iter().all(|d| d.explanation.as_ref().is_some_and(|e| e.plugin == plugin)), "{plugin}");
    }
    for (step, query) in [
        ("similar unknown plugin", similar(&first.id, None, Some("magic"))),
        ("similar unknown document", similar("urn:no-such-document", None, None)),
        ("similar empty uri", similar("", None, None)),
    ] {
        assert!(
            matches!(
                t.err(step, b.similar_documents(id, query).await),
                BackendError::NotFound(_) | BackendError::BadRequest(_)
            ),
            "{step}"
        );
    }
    assert!(matches!(
        t.err("similar missing configuration", b.similar_documents(999, similar(&first.id, None, None)).await),
        BackendError::NotFound(_)
    ));

    let recommend = |uri: &str, recommender: &str| RecommendQuery {
        uri: uri.to_owned(),
        recommender: recommender.to_owned(),
        explain: false,
    };
    let related = t.ok("recommend related", b.recommendations(id, recommend(&first.id, "related-concepts")).await);
    assert_eq!((related.status, related.success), (Some(200), Some(true)));
    assert_eq!(related.total, Some(related.result.len() as i32));
    t.ok("recommend same author", b.recommendations(id, recommend(&first.id, "same-author")).await);
    for recommender in ["related-concepts", "same-author"] {
        let query = RecommendQuery { explain: true, ..recommend(&first.id, recommender) };
        let step = format!("recommend {recommender}, explained");
        let explained = t.ok(&step, b.recommendations(id, query).await);
        assert!(explained.result.iter().all(|d| d.explanation.as_ref().is_some_and(|e| e.plugin == recommender)));
    }
    let unknown = t.err("recommend unknown plugin", b.recommendations(id, recommend(&first.id, "magic")).await);
    assert!(matches!(&unknown, BackendError::NotFound(m) if m.contains("related-concepts")), "{unknown:?}");
    t.err("recommend unknown document", b.recommendations(id, recommend("urn:no-such-document", "same-author")).await);
    t.err("recommend missing configuration", b.recommendations(999, recommend(&first.id, "same-author")).await);
    t
}

/// The search spaces with their facet fields, the facet health of those fields, and its 404.
pub async fn search_spaces(fx: Fixture) -> Transcript {
    let mut t = Transcript::default();
    let spaces = t.ok("search spaces", fx.backend.search_spaces().await);
    assert_eq!(spaces.len(), 1);
    assert_eq!((spaces[0].id.as_str(), spaces[0].documents), (fx.space, CORPUS_DOCUMENTS as i64));
    assert!(spaces[0].fields.iter().any(|f| f.field == ALL_CONCEPTS_FIELD));
    let health = t.ok("facet health", fx.backend.facet_health(fx.space).await);
    assert_eq!((health.search_space.as_str(), health.documents), (fx.space, CORPUS_DOCUMENTS as i64));
    let fields: Vec<&str> = health.fields.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(fields, spaces[0].fields.iter().map(|f| f.field.as_str()).collect::<Vec<_>>());
    assert!(matches!(
        t.err("facet health of an unknown space", fx.backend.facet_health("no-such-space").await),
        BackendError::NotFound(m) if m == "search space no-such-space does not exist"
    ));
    t
}

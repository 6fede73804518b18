//! Taking a remote search space offline: against a real server holding the demo search space (2,400
//! documents), a pull cancelled part-way resumes from its bookmark (where it said it stopped), and afterwards the local search gives
//! the same totals, facet counts and first page as the remote one.
//!
//! The server holds back every search after the third until the pull is cancelled, so that the cancel comes
//! part-way whatever the machine's speed.

use crate::support;

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use studio_local::demo;
use studio_model::{Backend, Caller, SearchRequest, SelectedFacet};
use studio_sync::{pull::pull, SyncError};

fn caller() -> Caller {
    Caller { user: "me".into() }
}

fn request(selected: Vec<SelectedFacet>) -> SearchRequest {
    SearchRequest { input: None, selected_facets: selected, start: None, config: None }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_pull_resumes_and_the_local_search_then_answers_as_the_remote_does() {
    let cancel = Arc::new(AtomicBool::new(false));
    let searches = Arc::new(AtomicUsize::new(0));
    let hold = (cancel.clone(), searches.clone());
    let remote = demo_with_searches_through(move |parts, bytes, _, next: Next| {
        let (cancel, searches) = hold.clone();
        async move {
            if searches.fetch_add(1, Ordering::SeqCst) >= 3 {
                while !cancel.load(Ordering::SeqCst) {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
            next.run(Request::from_parts(parts, Body::from(bytes))).await
        }
    })
    .await;
    let client = remote.client();
    let mut body = demo::demo_configuration();
    body["config"]["x-remote-only"] = json!({"kept": true});
    let remote_id = client.create_configuration(&caller(), body).await.unwrap().config.id.unwrap();
    let (_dir, local, _sync) = support::app_store();

    // First run: cancelled once the first three pages are stored.
    let mut seen = Vec::new();
    let first = pull(
        &local,
        &client,
        &remote.base,
        remote_id,
        &caller(),
        &mut |done, total| {
            seen.push((done, total));
            if done >= 300 {
                cancel.store(true, Ordering::SeqCst);
            }
        },
        &cancel,
    )
    .await;
    assert!(matches!(first, Err(SyncError::Cancelled)), "{first:?}");
    // Each write on disk is shown, as whole pages; the write under way when the cancel came is the last.
    assert!(
        seen.windows(2).all(|w| w[0].0 < w[1].0) && seen.iter().all(|&(done, total)| done % 100 == 0 && total == 2400),
        "{seen:?}"
    );
    let (stopped_at, _) = *seen.last().unwrap();
    assert!((300..=400).contains(&stopped_at), "stopped after the third page or the fourth: {seen:?}");

    // Second run: resumes where the first stopped and finishes.
    let mut last = (0, 0);
    let report =
        pull(&local, &client, &remote.base, remote_id, &caller(), &mut |d, t| last = (d, t), &AtomicBool::new(false))
            .await
            .unwrap();
    assert_eq!(report.resumed_from, stopped_at);
    assert_eq!((report.documents, report.total), (2400, 2400));
    assert_eq!(last, (2400, 2400));
    assert_eq!(local.list_configurations().await.unwrap().configurations.len(), 1, "the resumed pull reuses its copy");

    let copy = local.get_configuration(report.local_id).await.unwrap();
    assert_eq!(copy.config.extra["x-remote-only"], json!({"kept": true}));
    assert_eq!(copy.config.search_space, demo::DEMO_SPACE);

    let theirs = client.search(remote_id, request(vec![])).await.unwrap();
    let ours = local.search(report.local_id, request(vec![])).await.unwrap();
    assert_eq!(ours.total, theirs.total);
    assert_eq!(ours.facets, theirs.facets, "facet counts, hierarchy included");
    let ids = |r: &studio_model::SearchResponse| r.result.iter().map(|d| d.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&ours), ids(&theirs));

    // A filtered search too: the first topic and the first author.
    let topic = &theirs.facets[0].facets[0];
    let author = &theirs.facets.iter().find(|g| g.field == "dyn_lit_author").unwrap().facets[0];
    let selected = vec![
        SelectedFacet { field: "dyn_uri_topic".into(), label: Some(topic.label.clone()), value: topic.value.clone() },
        SelectedFacet { field: "dyn_lit_author".into(), label: Some(author.label.clone()), value: None },
    ];
    let theirs = client.search(remote_id, request(selected.clone())).await.unwrap();
    let ours = local.search(report.local_id, request(selected)).await.unwrap();
    assert!(theirs.total > 0);
    assert_eq!((ours.total, &ours.facets), (theirs.total, &theirs.facets));

    // Pulling again after it finished starts over and updates the same local copy.
    let again = pull(&local, &client, &remote.base, remote_id, &caller(), &mut |_, _| {}, &AtomicBool::new(false))
        .await
        .unwrap();
    assert_eq!((again.local_id, again.resumed_from, again.documents), (report.local_id, 0, 2400));
}

/// A request's parts, its body's bytes and their JSON (null when they are none), for a middleware to send it on.
async fn read_body(request: Request) -> (Parts, Bytes, Value) {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, 1 << 20).await.unwrap();
    let json = serde_json::from_slice(&bytes).unwrap_or_default();
    (parts, bytes, json)
}

/// A server holding the demo whose searches go through `rewrite`, given each request's parts, body bytes and body
/// JSON and the rest of the server; every other request goes straight on.
async fn demo_with_searches_through<F, Fut>(rewrite: F) -> support::Remote
where
    F: Fn(Parts, Bytes, Value, Next) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response> + Send + 'static,
{
    support::serve_with(
        |store| {
            demo::load_demo(store, &mut |_| {}).unwrap();
        },
        move |app| {
            app.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
                let rewrite = rewrite.clone();
                async move {
                    if !request.uri().path().ends_with("/search") {
                        return next.run(request).await;
                    }
                    let (parts, bytes, json) = read_body(request).await;
                    rewrite(parts, bytes, json, next).await
                }
            }))
        },
    )
    .await
}

/// A server that ignores the page size the pull asks for (the search body's `config` extension) answers with its
/// configuration's own (10 for the demo): the pull takes its pages at the offsets that size gives, and copies
/// every document once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_ignores_the_page_size_asked_for_is_copied_whole() {
    let remote = demo_with_searches_through(|parts, bytes, mut json: Value, next: Next| async move {
        if let Some(body) = json.as_object_mut() {
            body.remove("config");
        }
        let bytes = if json.is_null() { bytes } else { serde_json::to_vec(&json).unwrap().into() };
        next.run(Request::from_parts(parts, Body::from(bytes))).await
    })
    .await;
    let client = remote.client();
    let remote_id =
        client.create_configuration(&caller(), demo::demo_configuration()).await.unwrap().config.id.unwrap();
    let page = client.search(remote_id, request(vec![])).await.unwrap().result.len();
    assert_eq!(page, 10, "the server answers with its own page size");
    let (_dir, local, _sync) = support::app_store();
    let mut shown = Vec::new();
    let report =
        pull(&local, &client, &remote.base, remote_id, &caller(), &mut |d, _| shown.push(d), &AtomicBool::new(false))
            .await
            .unwrap();
    assert_eq!((report.documents, report.total), (2400, 2400));
    assert_eq!(shown.last(), Some(&2400));
    assert_eq!(
        (report.partial_hierarchies.len(), report.partial_note()),
        (0, None),
        "the demo's hierarchies are small"
    );
    let ours = local.search(report.local_id, request(vec![])).await.unwrap();
    let theirs = client.search(remote_id, request(vec![])).await.unwrap();
    assert_eq!(ours.total, 2400);
    assert_eq!(ours.facets, theirs.facets, "every document once: the same counts");
}

/// Documents another server sends that the local store cannot take (here one with an empty id and one whose date is
/// text) are skipped, the others stored, and the report names each skipped one by its place among the search's
/// results, with the reason, rather than counting it as copied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documents_the_local_store_cannot_take_are_named_in_the_report() {
    use axum::http::header::CONTENT_LENGTH;
    let remote = demo_with_searches_through(|parts, bytes, json: Value, next: Next| async move {
        let start = json["start"].as_i64();
        let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
        let (mut parts, body) = response.into_parts();
        let bytes = axum::body::to_bytes(body, 1 << 24).await.unwrap();
        let mut answer: Value = serde_json::from_slice(&bytes).unwrap();
        // The second page of a pull: results 101 to 200.
        if start == Some(100) && answer["result"].as_array().is_some_and(|r| r.len() == 100) {
            answer["result"][3]["id"] = json!("");
            answer["result"][7]["date"] = json!("1 January 2024");
        }
        parts.headers.remove(CONTENT_LENGTH);
        Response::from_parts(parts, Body::from(serde_json::to_vec(&answer).unwrap()))
    })
    .await;
    let client = remote.client();
    let remote_id =
        client.create_configuration(&caller(), demo::demo_configuration()).await.unwrap().config.id.unwrap();
    let (_dir, local, _sync) = support::app_store();
    let report = pull(&local, &client, &remote.base, remote_id, &caller(), &mut |_, _| {}, &AtomicBool::new(false))
        .await
        .unwrap();
    assert_eq!((report.documents, report.total, report.skipped), (2400, 2400, 2));
    assert_eq!(report.skipped_note().as_deref(), Some("2 of them could not be stored here and were skipped"));
    let skipped: Vec<(u64, &str)> = report.skipped_documents.iter().map(|s| (s.result, s.reason.as_str())).collect();
    assert_eq!(skipped.iter().map(|s| s.0).collect::<Vec<_>>(), [104, 108], "{skipped:?}");
    assert!(skipped[0].1.contains("empty id"), "{skipped:?}");
    assert!(skipped[1].1.contains("1 January 2024"), "{skipped:?}");
    assert_eq!(local.search(report.local_id, request(vec![])).await.unwrap().total, 2398, "the others are stored");
}

/// A concept field with more values at one level than a search answer gives (1,000) has its hierarchy copied in
/// part, and the report says which field; one with a small hierarchy is not named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hierarchy_larger_than_an_answer_gives_is_named_as_copied_in_part() {
    let documents: String = (0..1001)
        .map(|n| {
            let topic = if n % 2 == 0 { json!({"label": "Energy", "value": "urn:energy", "children": [
                {"label": "Solar", "value": "urn:solar"}]}) } else { json!({"label": "Trade", "value": "urn:trade"}) };
            let doc = json!({"id": format!("d{n}"), "title": format!("Document {n}"), "facetList": [
                {"field": "dyn_uri_place", "label": "Place", "facets": [{"label": format!("Place {n}"), "value": format!("urn:place:{n}")}]},
                {"field": "dyn_uri_topic", "label": "Topic", "facets": [topic]},
            ]});
            format!("{doc}\n")
        })
        .collect();
    let remote = support::serve(|store| {
        studio_local::import_documents(store, "places", documents.as_bytes(), &mut |_| {}).unwrap();
    })
    .await;
    let client = remote.client();
    let facet = |field: &str| json!({"uri": field, "title": field, "show": true, "facetMode": "hierarchical"});
    let body = json!({"config": {"title": "Places", "searchSpace": "places",
        "filter": {"facetsToShow": [facet("dyn_uri_place"), facet("dyn_uri_topic")]}}});
    let remote_id = client.create_configuration(&caller(), body).await.unwrap().config.id.unwrap();
    let (_dir, local, _sync) = support::app_store();
    let report = pull(&local, &client, &remote.base, remote_id, &caller(), &mut |_, _| {}, &AtomicBool::new(false))
        .await
        .unwrap();
    assert_eq!((report.documents, report.skipped), (1001, 0));
    assert_eq!(report.partial_hierarchies, ["dyn_uri_place"]);
    let note = report.partial_note().unwrap();
    assert!(note.contains("dyn_uri_place") && note.contains("1000") && !note.contains("topic"), "{note}");
}

/// A concept facet the configuration shows flat, and a concept field it does not show at all, still have their
/// hierarchies copied: shown hierarchical in the copy, they count as the remote's do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_facet_shown_flat_or_not_shown_keeps_its_hierarchy_offline() {
    let remote = support::serve(|store| {
        demo::load_demo(store, &mut |_| {}).unwrap();
    })
    .await;
    let client = remote.client();
    let mut body = demo::demo_configuration();
    let facets = body["config"]["filter"]["facetsToShow"].as_array_mut().unwrap();
    facets.retain(|f| f["uri"] != "dyn_uri_region");
    for facet in facets {
        facet["facetMode"] = json!("flat");
    }
    let remote_id = client.create_configuration(&caller(), body).await.unwrap().config.id.unwrap();
    let (_dir, local, _sync) = support::app_store();
    let report = pull(&local, &client, &remote.base, remote_id, &caller(), &mut |_, _| {}, &AtomicBool::new(false))
        .await
        .unwrap();
    for field in ["dyn_uri_topic", "dyn_uri_region"] {
        let hierarchical = SearchRequest {
            config: Some(json!({"filter": {"facetsToShow": [
                {"uri": field, "title": field, "show": true, "facetMode": "hierarchical", "hierarchicalDepth": 3}
            ]}})),
            ..request(vec![])
        };
        let theirs = client.search(remote_id, hierarchical.clone()).await.unwrap();
        let ours = local.search(report.local_id, hierarchical).await.unwrap();
        let nested = theirs.facets[0].facets.iter().any(|f| f.children.as_ref().is_some_and(|c| !c.is_empty()));
        assert!(nested, "the demo's {field} nests");
        assert_eq!(ours.facets, theirs.facets, "the same tree of {field} offline");
    }
}

/// A server whose list of search spaces fails (here with an internal error) fails the pull with that error, before
/// any document is copied, rather than copying the concept fields outside the configuration without their
/// hierarchies and saying nothing; the same server listing again is pulled in full, from the first document, into
/// the local copy the failed run made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_listing_of_search_spaces_fails_the_pull_saying_so() {
    use axum::http::StatusCode;
    let failing = Arc::new(AtomicBool::new(true));
    let fails = failing.clone();
    let remote = support::serve_with(
        |store| {
            demo::load_demo(store, &mut |_| {}).unwrap();
        },
        move |app| {
            app.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
                let fails = fails.load(Ordering::Relaxed);
                async move {
                    if fails && request.uri().path() == "/api/searchspaces" {
                        let body = json!({"status": 500, "error": "Internal Server Error", "message": "listing broke"});
                        return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(body)).into_response();
                    }
                    next.run(request).await
                }
            }))
        },
    )
    .await;
    let client = remote.client();
    let remote_id =
        client.create_configuration(&caller(), demo::demo_configuration()).await.unwrap().config.id.unwrap();
    let (_dir, local, _sync) = support::app_store();
    let (me, not_cancelled) = (caller(), AtomicBool::new(false));
    let failed = pull(&local, &client, &remote.base, remote_id, &me, &mut |_, _| {}, &not_cancelled)
        .await
        .expect_err("the listing failed");
    assert!(failed.to_string().contains("listing broke"), "{failed}");
    failing.store(false, Ordering::Relaxed);
    let report = pull(&local, &client, &remote.base, remote_id, &me, &mut |_, _| {}, &not_cancelled).await.unwrap();
    assert_eq!((report.documents, report.total, report.resumed_from), (2400, 2400, 0), "nothing copied before");
    let copies = local.list_configurations().await.unwrap().configurations;
    assert_eq!(copies.iter().map(|c| c.id).collect::<Vec<_>>(), [Some(report.local_id)], "one local copy");
}

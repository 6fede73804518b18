//! Taking a remote search space offline: against a real server holding the demo search space (2,400
//! documents), a pull cancelled part-way resumes from its bookmark (where it said it stopped), and afterwards the local search gives
//! the same totals, facet counts and first page as the remote one.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::json;
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
    let remote = support::serve(|store| {
        demo::load_demo(store, &mut |_| {}).unwrap();
    })
    .await;
    let client = remote.client();
    let mut body = demo::demo_configuration();
    body["config"]["x-remote-only"] = json!({"kept": true});
    let remote_id = client.create_configuration(&caller(), body).await.unwrap().config.id.unwrap();
    let (_dir, local, _sync) = support::app_store();

    // First run: cancelled after the third page.
    let cancel = AtomicBool::new(false);
    let mut seen = Vec::new();
    let first = pull(
        &local,
        &client,
        &remote.base,
        remote_id,
        &caller(),
        &mut |done, total| {
            seen.push((done, total));
            if seen.len() == 3 {
                cancel.store(true, Ordering::Relaxed);
            }
        },
        &cancel,
    )
    .await;
    assert!(matches!(first, Err(SyncError::Cancelled)), "{first:?}");
    // Pages are reported one by one; the pages that arrived together are written together, so the pull stops
    // after the write that holds the third page.
    assert_eq!(seen[..3], [(100, 2400), (200, 2400), (300, 2400)]);
    let (stopped_at, _) = *seen.last().unwrap();
    assert!(stopped_at < 2400, "stopped before the end: {seen:?}");

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

//! Two designers edit the same configuration on a remote server. The second to publish gets a conflict
//! (nothing is overwritten), and each way of resolving it stores what it promised.

use crate::support;

use std::collections::BTreeMap;

use serde_json::{json, Value};
use studio_model::{Backend, Caller};
use studio_sync::{history, publish, publish_conflict, resolve, HistorySource, PublishOutcome, Side};

fn caller() -> Caller {
    Caller { user: "me".into() }
}

async fn setup() -> (support::Remote, i32) {
    let remote = support::serve(|_| {}).await;
    let created = remote
        .client()
        .create_configuration(
            &caller(),
            json!({"config": {"title": "Shop", "searchSpace": "demo", "x-unknown": {"keep": 1}}}),
        )
        .await
        .unwrap();
    (remote, created.config.id.unwrap())
}

fn with(mut v: Value, path: &[&str], value: Value) -> Value {
    let mut node = &mut v;
    for p in &path[..path.len() - 1] {
        node = &mut node[*p];
    }
    node[path[path.len() - 1]] = value;
    v
}

#[tokio::test]
async fn the_second_publish_shows_the_conflict_and_each_resolution_stores_what_was_chosen() {
    let (remote, id) = setup().await;
    let (_dir, _local, sync) = support::app_store();
    let (ana, bo) = (remote.client(), remote.client());
    let key = remote.base.as_str();
    let base = serde_json::to_value(ana.get_configuration(id).await.unwrap()).unwrap();

    // Ana and Bo both start from the same version. Bo publishes first.
    let bo_draft = with(
        with(base.clone(), &["config", "title"], json!("Bo's shop")),
        &["config", "result", "itemsPerPage"],
        json!(25),
    );
    let first = publish(&sync, &bo, key, &caller(), Some(id), bo_draft, Some(base.clone())).await.unwrap();
    assert!(matches!(first, PublishOutcome::Published { .. }));

    // Ana changed the title too, and the navbar colour.
    let ana_draft = with(
        with(base.clone(), &["config", "title"], json!("Ana's shop")),
        &["config", "layout", "navbar", "backgroundColor"],
        json!("#123456"),
    );
    sync.save_draft(key, id, &ana_draft, Some(&base)).unwrap();
    let second = publish(&sync, &ana, key, &caller(), Some(id), ana_draft.clone(), Some(base.clone())).await.unwrap();
    let PublishOutcome::Conflict { conflict } = second else { panic!("expected a conflict, got {second:?}") };
    assert_eq!(ana.get_configuration(id).await.unwrap().config.title, "Bo's shop", "nothing was overwritten");
    let fields: BTreeMap<&str, bool> = conflict.fields.iter().map(|f| (f.path.as_str(), f.conflicting)).collect();
    assert_eq!(fields.get("config.title"), Some(&true));
    assert_eq!(fields.get("config.result.itemsPerPage"), Some(&false));
    assert_eq!(fields.get("config.layout.navbar.backgroundColor"), Some(&false));
    assert!(sync.draft(key, id).unwrap().is_some(), "the draft stays while in conflict");

    // Keep mine for the title: the merged draft is based on theirs and publishes cleanly.
    let mut choices = BTreeMap::new();
    choices.insert("config.title".to_owned(), Side::Mine);
    let merged = resolve(&conflict.base, &conflict.mine, &conflict.theirs, &choices, Side::Theirs);
    let third = publish(&sync, &ana, key, &caller(), Some(id), merged, Some(conflict.theirs.clone())).await.unwrap();
    assert!(matches!(third, PublishOutcome::Published { .. }), "{third:?}");
    let stored = ana.get_configuration(id).await.unwrap();
    assert_eq!(stored.config.title, "Ana's shop");
    assert_eq!(stored.config.result.items_per_page, 25, "Bo's other change is kept");
    assert_eq!(stored.config.layout.navbar.background_color, "#123456", "Ana's other change is kept");
    assert_eq!(stored.config.extra["x-unknown"], json!({"keep": 1}));
    assert!(sync.draft(key, id).unwrap().is_none(), "a published draft is dropped");

    // Bo, still on his old base, is now the one in conflict; he takes theirs for everything.
    let bo_base = with(base.clone(), &["config", "title"], json!("Bo's shop"));
    let bo_base = with(bo_base, &["config", "result", "itemsPerPage"], json!(25));
    let bo_edit = with(bo_base.clone(), &["config", "title"], json!("Bo again"));
    let PublishOutcome::Conflict { conflict } =
        publish(&sync, &bo, key, &caller(), Some(id), bo_edit, Some(bo_base)).await.unwrap()
    else {
        panic!("expected a conflict")
    };
    let theirs_all = resolve(&conflict.base, &conflict.mine, &conflict.theirs, &BTreeMap::new(), Side::Theirs);
    publish(&sync, &bo, key, &caller(), Some(id), theirs_all, Some(conflict.theirs.clone())).await.unwrap();
    assert_eq!(bo.get_configuration(id).await.unwrap().config.title, "Ana's shop");

    // The history holds the server's log and the versions published from this app.
    let versions = history(&sync, &ana, key, id).await.unwrap();
    assert!(versions.iter().any(|v| v.source == HistorySource::Server && v.action == "create"));
    let published: Vec<_> = versions.iter().filter(|v| v.source == HistorySource::Published).collect();
    assert_eq!(published.len(), 3);
    assert_eq!(published[0].config.config.title, "Ana's shop");
    assert!(versions.windows(2).all(|w| w[0].at >= w[1].at), "newest first");
}

#[tokio::test]
async fn restoring_an_old_version_makes_a_draft_that_publishes_as_a_new_version() {
    let (remote, id) = setup().await;
    let (_dir, _local, sync) = support::app_store();
    let client = remote.client();
    let key = remote.base.as_str();
    client.update_configuration(&caller(), id, json!({"config": {"title": "Second"}})).await.unwrap();
    let versions = history(&sync, &client, key, id).await.unwrap();
    let first = versions.iter().find(|v| v.action == "create").unwrap();
    assert_eq!(first.config.config.title, "Shop");

    let current = serde_json::to_value(client.get_configuration(id).await.unwrap()).unwrap();
    let restored = serde_json::to_value(&first.config).unwrap();
    sync.save_draft(key, id, &restored, Some(&current)).unwrap();
    let draft = sync.draft(key, id).unwrap().unwrap();
    let outcome = publish(&sync, &client, key, &caller(), Some(id), draft.draft, draft.base).await.unwrap();
    assert!(matches!(outcome, PublishOutcome::Published { .. }));
    let now = client.get_configuration(id).await.unwrap();
    assert_eq!(now.config.title, "Shop");
    assert_eq!(now.id, Some(id), "restoring updates the same configuration");
    assert_eq!(
        history(&sync, &client, key, id).await.unwrap().iter().filter(|v| v.source == HistorySource::Server).count(),
        3
    );
}

/// The publish cases both languages must satisfy (crates/sync/cases/publish.json): whether a draft is published
/// or stopped at a conflict, and which fields that conflict lists.
#[test]
fn the_shared_publish_cases_hold() {
    let file: Value = serde_json::from_str(include_str!("../cases/publish.json")).expect("JSON");
    for case in file["cases"].as_array().expect("a list of cases") {
        let conflict = publish_conflict(&case["base"], &case["mine"], &case["theirs"]);
        let listed = conflict.map(|c| {
            assert_eq!((&c.base, &c.mine, &c.theirs), (&case["base"], &case["mine"], &case["theirs"]));
            c.fields.iter().map(|f| json!([f.path, f.conflicting])).collect::<Vec<_>>()
        });
        assert_eq!(json!(listed), case["conflict"], "{}", case["name"]);
    }
}

//! The configuration store against a real SQLite file: persistence, ids, the active configuration,
//! history, and concurrent writers.

use std::sync::Arc;

use serde_json::json;
use studio_local::{LocalBackend, Store};
use studio_model::{Backend, BackendError, Caller, LogAction};

fn ana() -> Caller {
    Caller { user: "ana".into() }
}

fn body(title: &str) -> serde_json::Value {
    json!({ "config": { "title": title, "searchSpace": "demo" } })
}

fn open(dir: &tempfile::TempDir) -> LocalBackend {
    LocalBackend::new(Store::open_dir(dir.path()).expect("store opens"))
}

#[tokio::test]
async fn configurations_survive_closing_and_reopening_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let created = {
        let backend = open(&dir);
        let outcome = backend.create_configuration(&ana(), body("Kept")).await.unwrap();
        backend
            .update_configuration(
                &ana(),
                outcome.config.id.unwrap(),
                json!({"config": {"result": {"itemsPerPage": 25}}}),
            )
            .await
            .unwrap()
            .config
    };
    let reopened = open(&dir);
    let list = reopened.list_configurations().await.unwrap();
    assert_eq!(list.configurations, vec![created.clone()]);
    assert_eq!(list.active_id, created.id);
    assert_eq!(reopened.get_configuration(created.id.unwrap()).await.unwrap().config.result.items_per_page, 25);
}

#[tokio::test]
async fn the_server_sets_id_user_and_created_and_ignores_them_in_the_body() {
    let dir = tempfile::tempdir().unwrap();
    let backend = open(&dir);
    let outcome = backend
        .create_configuration(&ana(), json!({"id": 77, "user": "eve", "created": "2000-01-01T00:00:00.000Z", "config": {"title": "T", "searchSpace": "s"}}))
        .await
        .unwrap();
    let c = outcome.config;
    assert_eq!(c.id, Some(1));
    assert_eq!(c.user, "ana");
    let created = c.created.unwrap();
    assert!(created.ends_with('Z') && created.len() == "2026-01-01T00:00:00.000Z".len(), "{created}");
    assert!(created.as_str() > "2026-01-01", "{created}");
}

#[tokio::test]
async fn ids_increase_and_are_never_reused_after_a_delete() {
    let dir = tempfile::tempdir().unwrap();
    let backend = open(&dir);
    let a = backend.create_configuration(&ana(), body("a")).await.unwrap().config.id.unwrap();
    let b = backend.create_configuration(&ana(), body("b")).await.unwrap().config.id.unwrap();
    backend.delete_configuration(&ana(), b).await.unwrap();
    let c = backend.create_configuration(&ana(), body("c")).await.unwrap().config.id.unwrap();
    assert!(a < b && b < c, "{a} {b} {c}");
    drop(backend);
    let d = open(&dir).create_configuration(&ana(), body("d")).await.unwrap().config.id.unwrap();
    assert!(d > c);
}

#[tokio::test]
async fn the_first_configuration_becomes_active_and_the_active_one_cannot_be_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let backend = open(&dir);
    let empty = backend.list_configurations().await.unwrap();
    assert!(empty.configurations.is_empty());
    assert_eq!(empty.active_id, None);
    assert!(matches!(backend.active_configuration().await, Err(BackendError::NotFound(_))));

    let first = backend.create_configuration(&ana(), body("first")).await.unwrap().config.id.unwrap();
    let second = backend.create_configuration(&ana(), body("second")).await.unwrap().config.id.unwrap();
    assert_eq!(backend.active_configuration().await.unwrap().id, Some(first));
    let err = backend.delete_configuration(&ana(), first).await.unwrap_err();
    assert!(matches!(err, BackendError::Conflict(_)), "{err:?}");

    backend.set_active(&ana(), second).await.unwrap();
    assert_eq!(backend.list_configurations().await.unwrap().active_id, Some(second));
    backend.delete_configuration(&ana(), first).await.unwrap();
    assert!(
        matches!(backend.get_configuration(first).await, Err(BackendError::NotFound(m)) if m.contains(&first.to_string()))
    );
    assert!(matches!(backend.set_active(&ana(), 9999).await, Err(BackendError::NotFound(_))));
}

#[tokio::test]
async fn visible_lists_only_visible_configurations() {
    let dir = tempfile::tempdir().unwrap();
    let backend = open(&dir);
    backend.create_configuration(&ana(), body("shown")).await.unwrap();
    backend
        .create_configuration(&ana(), json!({"config": {"title": "hidden", "searchSpace": "demo", "visible": false}}))
        .await
        .unwrap();
    let titles: Vec<_> = backend.visible_configurations().await.unwrap().into_iter().map(|c| c.config.title).collect();
    assert_eq!(titles, ["shown"]);
}

#[tokio::test]
async fn every_change_leaves_a_history_row_newest_first_that_outlives_a_delete() {
    let dir = tempfile::tempdir().unwrap();
    let backend = open(&dir);
    let keep = backend.create_configuration(&ana(), body("keep")).await.unwrap().config.id.unwrap();
    let id = backend.create_configuration(&ana(), body("v1")).await.unwrap().config.id.unwrap();
    let bob = Caller { user: "bob".into() };
    backend.update_configuration(&bob, id, json!({"config": {"title": "v2"}})).await.unwrap();
    backend.set_active(&bob, id).await.unwrap();
    backend.set_active(&bob, keep).await.unwrap();
    backend.delete_configuration(&ana(), id).await.unwrap();

    let logs = backend.configuration_logs(id).await.unwrap();
    let actions: Vec<_> = logs.iter().map(|l| l.action).collect();
    assert_eq!(actions, [LogAction::Delete, LogAction::SetActive, LogAction::Update, LogAction::Create]);
    let users: Vec<_> = logs.iter().map(|l| l.user.as_str()).collect();
    assert_eq!(users, ["ana", "bob", "bob", "ana"]);
    assert_eq!(logs[2].config.config.title, "v2");
    assert_eq!(logs[3].config.config.title, "v1");
    assert!(logs.windows(2).all(|w| w[0].at >= w[1].at));
    assert!(matches!(backend.configuration_logs(12345).await, Err(BackendError::NotFound(_))));
}

#[tokio::test]
async fn failed_updates_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let backend = open(&dir);
    let id = backend.create_configuration(&ana(), body("stable")).await.unwrap().config.id.unwrap();
    let before = backend.get_configuration(id).await.unwrap();
    for bad in [json!([1]), json!({"config": 5}), json!(null)] {
        assert!(matches!(backend.update_configuration(&ana(), id, bad).await, Err(BackendError::BadRequest(_))));
    }
    assert!(matches!(backend.update_configuration(&ana(), 999, body("x")).await, Err(BackendError::NotFound(_))));
    assert_eq!(backend.get_configuration(id).await.unwrap(), before);
    assert_eq!(backend.configuration_logs(id).await.unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_concurrent_creates_get_distinct_ids_and_are_all_listed() {
    let dir = tempfile::tempdir().unwrap();
    let backend = Arc::new(open(&dir));
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let backend = backend.clone();
            tokio::spawn(async move { backend.create_configuration(&ana(), body(&format!("c{i}"))).await })
        })
        .collect();
    let mut ids = Vec::new();
    for task in tasks {
        ids.push(task.await.unwrap().unwrap().config.id.unwrap());
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 20);
    let listed: Vec<_> =
        backend.list_configurations().await.unwrap().configurations.into_iter().map(|c| c.id.unwrap()).collect();
    assert_eq!(listed, ids);
}

#[tokio::test]
async fn a_store_from_a_newer_version_is_refused_not_damaged() {
    let dir = tempfile::tempdir().unwrap();
    drop(open(&dir));
    let path = dir.path().join(studio_local::DB_FILE);
    rusqlite::Connection::open(&path).unwrap().pragma_update(None, "user_version", 999).unwrap();
    let err = Store::open(&path).err().expect("refused");
    assert!(err.to_string().contains("newer"), "{err}");
    let version: i64 =
        rusqlite::Connection::open(&path).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 999);
}

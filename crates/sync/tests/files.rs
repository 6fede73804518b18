//! Configuration files: export of all configurations and import into another store keeps every field,
//! unknown ones included, and never replaces an existing configuration.

use serde_json::{json, Value};
use studio_local::{os_caller, LocalBackend, Store};
use studio_model::Backend;
use studio_sync::files;

fn store() -> (tempfile::TempDir, LocalBackend) {
    let dir = tempfile::tempdir().unwrap();
    let backend = LocalBackend::new(Store::open_dir(dir.path()).unwrap());
    (dir, backend)
}

fn settings(v: &Value) -> Value {
    v["config"].clone()
}

#[tokio::test]
async fn export_all_then_import_keeps_every_field_and_creates_new_configurations() {
    let (_a, source) = store();
    let bodies = [
        json!({"x-envelope": "kept", "config": {"title": "One", "searchSpace": "demo", "x-top": [1, 2],
            "layout": {"navbar": {"backgroundColor": "#abc", "fontColor": "#fff", "x-shade": 0.5}},
            "filter": {"facetsToShow": [{"uri": "dyn_lit_author", "title": "Author", "x-item": {"a": null}}]}}}),
        json!({"config": {"title": "Two", "searchSpace": "news", "visible": false, "details": {"x-detail": "d"}}}),
    ];
    for b in &bodies {
        source.create_configuration(&os_caller(), b.clone()).await.unwrap();
    }
    let text = serde_json::to_string_pretty(&files::export_all(&source).await.unwrap()).unwrap();

    let (_b, target) = store();
    target
        .create_configuration(&os_caller(), json!({"config": {"title": "Already here", "searchSpace": "x"}}))
        .await
        .unwrap();
    let envelopes = files::read(&text).unwrap();
    assert_eq!(envelopes.len(), 2);
    let imported = files::import(&target, &os_caller(), envelopes).await.unwrap();
    assert_eq!(imported.iter().map(|i| (i.from_id, i.id)).collect::<Vec<_>>(), [(Some(1), 2), (Some(2), 3)]);
    assert_eq!(target.get_configuration(1).await.unwrap().config.title, "Already here", "nothing replaced");

    for (from, to) in [(1, 2), (2, 3)] {
        let before = serde_json::to_value(source.get_configuration(from).await.unwrap()).unwrap();
        let after = serde_json::to_value(target.get_configuration(to).await.unwrap()).unwrap();
        assert_eq!(settings(&before), settings(&after), "configuration {from}");
    }
    let first = serde_json::to_value(target.get_configuration(2).await.unwrap()).unwrap();
    assert_eq!(first["x-envelope"], "kept");
    assert_eq!(first["config"]["filter"]["facetsToShow"][0]["x-item"], json!({"a": null}));
}

#[test]
fn reading_takes_a_bundle_a_single_envelope_or_an_array_and_refuses_other_files() {
    let one = json!({"id": 3, "config": {"title": "T", "searchSpace": "s"}});
    assert_eq!(files::read(&one.to_string()).unwrap().len(), 1);
    assert_eq!(files::read(&json!([one, one]).to_string()).unwrap().len(), 2);
    let bundle = json!({"format": files::FORMAT, "version": 1, "configurations": [one]});
    assert_eq!(files::read(&bundle.to_string()).unwrap().len(), 1);

    let newer = json!({"format": files::FORMAT, "version": 2, "configurations": []});
    assert!(files::read(&newer.to_string()).unwrap_err().to_string().contains("version 2"));
    let other = json!({"format": "something/else", "version": 1});
    assert!(files::read(&other.to_string()).unwrap_err().to_string().contains("something/else"));
    assert!(files::read("{not json").unwrap_err().to_string().contains("not valid JSON"));
    assert!(files::read(&json!({"title": "no config"}).to_string()).is_err());
    assert!(files::read(&json!([{"config": 1}]).to_string()).unwrap_err().to_string().contains("configuration 1"));
}

#[tokio::test]
async fn scenarios_travel_in_the_file_beside_the_envelopes_and_are_kept_for_the_new_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let store_a = Store::open_dir(dir.path()).unwrap();
    let source = LocalBackend::new(store_a.clone());
    let sync_a = studio_sync::SyncStore::new(store_a);
    source
        .create_configuration(&os_caller(), json!({"config": {"title": "One", "searchSpace": "demo"}}))
        .await
        .unwrap();
    let list = vec![studio_sync::Scenario {
        name: "Energy".into(),
        query: "solar".into(),
        selected: vec![],
        width: studio_sync::ScenarioWidth::Phone,
    }];
    sync_a.save_scenarios(studio_sync::LOCAL_KEY, 1, &list).unwrap();
    let mut bundle = files::export_all(&source).await.unwrap();
    files::add_scenarios(&mut bundle, &sync_a, studio_sync::LOCAL_KEY).unwrap();
    assert_eq!(bundle["scenarios"]["1"][0]["name"], "Energy");
    let text = bundle.to_string();

    let dir_b = tempfile::tempdir().unwrap();
    let store_b = Store::open_dir(dir_b.path()).unwrap();
    let target = LocalBackend::new(store_b.clone());
    let sync_b = studio_sync::SyncStore::new(store_b);
    target.create_configuration(&os_caller(), json!({"config": {"title": "Here", "searchSpace": "x"}})).await.unwrap();
    let scenarios = files::scenarios_in(&text).unwrap();
    let imported = files::import(&target, &os_caller(), files::read(&text).unwrap()).await.unwrap();
    assert_eq!(files::keep_scenarios(&sync_b, "http://other:8080", &imported, &scenarios).unwrap(), 1);
    assert_eq!(sync_b.scenarios("http://other:8080", 2).unwrap(), list, "kept for the configuration it became");
    let stored = serde_json::to_value(target.get_configuration(2).await.unwrap()).unwrap();
    assert!(!stored.to_string().contains("scenarios"), "never part of the configuration: {stored}");

    let broken =
        json!({"format": files::FORMAT, "version": 1, "configurations": [], "scenarios": {"1": [{"name": ""}]}});
    let err = files::scenarios_in(&broken.to_string()).unwrap_err().to_string();
    assert!(err.starts_with("the scenarios of configuration 1 in the file cannot be read"), "{err}");
    let too_wide = json!({"scenarios": {"1": [{"name": "A", "query": "", "selected": [], "width": "watch"}]}});
    let err = files::scenarios_in(&too_wide.to_string()).unwrap_err().to_string();
    assert!(err.contains("cannot be read") && err.contains("watch"), "{err}");
    let twice = json!({"scenarios": {"1": [{"name": "A", "query": "", "selected": [], "width": "phone"},
        {"name": "A", "query": "", "selected": [], "width": "tablet"}]}});
    let err = files::scenarios_in(&twice.to_string()).unwrap_err().to_string();
    assert_eq!(err, "the scenarios of configuration 1 in the file break a limit: two scenarios are named “A”");
}

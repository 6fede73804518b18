//! The preview scenarios' commands on Tauri's mock runtime: kept per connection and configuration like drafts,
//! over a restart of the app, refused as a bad request when a list breaks a limit, and carried by an exported
//! configuration file into an import on a real server without ever reaching that server.

use serde_json::{json, Value};
use studio_model::Backend;

use crate::harness::{harness, servers};

fn scenario(name: &str, width: &str) -> Value {
    json!({"name": name, "query": "solar", "width": width,
           "selected": [{"field": "dyn_lit_author", "label": "Ana", "value": null}]})
}

fn names(list: &Value) -> Vec<&str> {
    list.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect()
}

#[test]
fn scenarios_are_kept_per_connection_and_configuration_over_a_restart() {
    let h = harness();
    let id = h.ok("list_configurations", json!({}))["activeId"].clone();
    assert_eq!(h.ok("scenarios", json!({"configId": id})), json!([]));
    let list = json!([scenario("Solar", "tablet"), scenario("Phone view", "phone")]);
    assert_eq!(h.ok("save_scenarios", json!({"configId": id, "scenarios": list})), Value::Null);
    assert_eq!(h.ok("scenarios", json!({"configId": id})), list);

    let remote = servers::token_server(|_| {});
    let remote_id = h.use_token_connection(&remote.url, &remote.token);
    assert_eq!(h.ok("scenarios", json!({"configId": id})), json!([]), "configuration {id} of the server is another");
    h.ok("save_scenarios", json!({"configId": id, "scenarios": [scenario("On the server", "desktop")]}));
    h.ok("use_connection", json!({"id": "local"}));
    assert_eq!(names(&h.ok("scenarios", json!({"configId": id}))), ["Solar", "Phone view"]);

    let h = h.restart();
    assert_eq!(h.ok("scenarios", json!({"configId": id})), list, "kept over a restart");
    h.ok("use_connection", json!({"id": remote_id}));
    assert_eq!(names(&h.ok("scenarios", json!({"configId": id}))), ["On the server"]);
}

#[test]
fn a_list_breaking_a_limit_is_a_bad_request_that_names_it() {
    let h = harness();
    h.ok("save_scenarios", json!({"configId": 1, "scenarios": [scenario("Kept", "desktop")]}));
    let twice = json!([scenario("Solar", "desktop"), scenario(" Solar", "phone")]);
    let refused = h.invoke("save_scenarios", json!({"configId": 1, "scenarios": twice})).unwrap_err();
    assert_eq!(refused["code"], "bad_request", "{refused}");
    assert_eq!(refused["message"], "two scenarios are named “Solar”");
    let long = json!([{"name": "Long", "query": "q".repeat(1001), "selected": [], "width": "desktop"}]);
    let refused = h.invoke("save_scenarios", json!({"configId": 1, "scenarios": long})).unwrap_err();
    assert_eq!(refused["message"], "the query of “Long” is longer than 1000 characters");
    assert_eq!(names(&h.ok("scenarios", json!({"configId": 1}))), ["Kept"]);
}

#[test]
fn an_exported_file_carries_the_scenarios_to_an_import_on_a_server_that_never_sees_them() {
    let h = harness();
    let id = h.ok("list_configurations", json!({}))["activeId"].clone();
    let list = json!([scenario("Solar", "phone")]);
    h.ok("save_scenarios", json!({"configId": id, "scenarios": list}));
    let file = h.dir.path().join("one.json");
    let path = file.to_str().unwrap();
    assert_eq!(h.ok("export_configurations", json!({"path": path, "id": id})), 1);
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["scenarios"][id.to_string()], list, "{written}");

    let remote = servers::token_server(|_| {});
    remote.create(json!({"config": {"title": "Already there", "searchSpace": "x"}}));
    h.use_token_connection(&remote.url, &remote.token);
    let imported = h.ok("import_configurations", json!({"path": path}));
    let new_id = imported[0]["id"].as_i64().unwrap();
    assert_eq!(new_id, 2, "a new configuration on the server: {imported}");
    assert_eq!(h.ok("scenarios", json!({"configId": new_id})), list, "kept here for the configuration it became");
    assert_eq!(h.ok("scenarios", json!({"configId": 1})), json!([]));

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let stored = runtime.block_on(remote.backend.get_configuration(new_id as i32)).unwrap();
    let stored = serde_json::to_string(&stored).unwrap();
    assert!(!stored.contains("scenarios") && !stored.contains("Solar"), "the server holds no scenario: {stored}");
}

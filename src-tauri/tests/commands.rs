//! The IPC commands on Tauri's mock runtime (no window system): answers reach the UI as JSON, and failures
//! as `{code, message}`.

use serde_json::{json, Value};
use tauri::Listener;

mod harness;
use harness::harness;

#[test]
fn a_new_store_opens_with_the_demo_search_space_and_its_configuration() {
    let h = harness();
    let list = h.invoke("list_configurations", json!({})).unwrap();
    let configs = list["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 1);
    assert_eq!(configs[0]["config"]["searchSpace"], "demo");
    assert_eq!(list["activeId"], configs[0]["id"]);
    let spaces = h.invoke("search_spaces", json!({})).unwrap();
    assert_eq!(spaces[0]["id"], "demo");
    assert!(spaces[0]["documents"].as_i64().unwrap() >= 2000);
    let id = configs[0]["id"].clone();
    let found = h.invoke("search", json!({"id": id, "request": {"input": "energy"}})).unwrap();
    assert!(found["total"].as_i64().unwrap() > 0);
    assert!(!found["result"].as_array().unwrap().is_empty());
}

#[test]
fn configuration_commands_create_update_and_report_invalid_keys() {
    let h = harness();
    let created = h
        .invoke("create_configuration", json!({"body": {"config": {"title": "Desk", "searchSpace": "demo", "result": {"itemsPerPage": 0}}}}))
        .unwrap();
    assert_eq!(created["errors"][0]["key"], "config.result.itemsPerPage");
    let id = created["config"]["id"].clone();
    let updated = h.invoke("update_configuration", json!({"id": id, "body": {"config": {"title": "Desk 2"}}})).unwrap();
    assert_eq!(updated["config"]["config"]["title"], "Desk 2");
    assert_eq!(h.invoke("get_configuration", json!({"id": id})).unwrap()["config"]["title"], "Desk 2");
    let logs = h.invoke("configuration_logs", json!({"id": id})).unwrap();
    assert_eq!(logs.as_array().unwrap().len(), 2);
}

#[test]
fn failures_reach_the_ui_as_code_and_message() {
    let h = harness();
    let missing = h.invoke("get_configuration", json!({"id": 999})).unwrap_err();
    assert_eq!(missing["code"], "not_found");
    assert!(missing["message"].as_str().unwrap().contains("999"));
    let bad = h.invoke("create_configuration", json!({"body": {"config": {"title": "no space"}}})).unwrap_err();
    assert_eq!(bad["code"], "bad_request");
    let active = h.invoke("list_configurations", json!({})).unwrap()["activeId"].clone();
    let conflict = h.invoke("delete_configuration", json!({"id": active})).unwrap_err();
    assert_eq!(conflict["code"], "conflict");
    let bad_url = h.invoke("save_backend", json!({"mode": "remote", "remoteUrl": "ftp://x", "token": null})).unwrap_err();
    assert_eq!(bad_url["code"], "settings");
    let unreachable = h.invoke("save_backend", json!({"mode": "remote", "remoteUrl": "http://127.0.0.1:9", "token": "t"})).unwrap_err();
    assert_eq!(unreachable["code"], "bad_gateway", "{unreachable}");
    // A failed switch leaves the local store in use.
    assert_eq!(h.invoke("get_settings", json!({})).unwrap()["mode"], "local");
    assert!(h.invoke("list_configurations", json!({})).is_ok());
}

#[test]
fn settings_remember_theme_and_last_configuration_and_never_return_the_token() {
    let h = harness();
    let settings = h.invoke("get_settings", json!({})).unwrap();
    assert_eq!(settings["mode"], "local");
    assert_eq!(settings["theme"], "system");
    assert_eq!(settings["tokenSaved"], false);
    let changed = h.invoke("set_preference", json!({"theme": "dark", "lastConfigId": 1})).unwrap();
    assert_eq!(changed["theme"], "dark");
    assert_eq!(changed["lastConfigId"], 1);
    assert!(!changed.to_string().contains("token\":\""), "{changed}");
    let bad = h.invoke("set_preference", json!({"theme": "neon"})).unwrap_err();
    assert!(bad.to_string().contains("neon"), "{bad}");
}

#[test]
fn only_this_apps_commands_and_the_granted_plugins_may_be_called() {
    let h = harness();
    for cmd in ["plugin:store|load", "plugin:store|set", "plugin:dialog|message", "plugin:window|close"] {
        let refused = h.invoke(cmd, json!({})).unwrap_err();
        assert!(refused.to_string().contains("not allowed"), "{cmd}: {refused}");
    }
}

/// A real `studio serve` router on loopback, holding one configuration.
fn remote_server() -> (String, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let backend = studio_local::LocalBackend::new(studio_local::Store::open_dir(dir.path()).unwrap());
    let (auth, token) = studio_server::Auth::single_random_user("remote-ana");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    runtime
        .block_on(<studio_local::LocalBackend as studio_model::Backend>::create_configuration(
            &backend,
            &studio_model::Caller { user: "remote-ana".into() },
            json!({"config": {"title": "Remote Archive", "searchSpace": "archive"}}),
        ))
        .unwrap();
    let app = studio_server::router(std::sync::Arc::new(backend), std::sync::Arc::new(auth), None);
    std::thread::spawn(move || runtime.block_on(async { axum::serve(listener, app).await }));
    (url, token, dir)
}

#[test]
fn switching_to_a_remote_server_lists_its_configurations_and_keeps_the_token_private() {
    let h = harness();
    let (url, token, _remote) = remote_server();
    let refused = h.invoke("save_backend", json!({"mode": "remote", "remoteUrl": url, "token": "wrong"})).unwrap_err();
    assert_eq!(refused["code"], "unauthorized", "{refused}");
    assert_eq!(h.invoke("list_configurations", json!({})).unwrap()["configurations"][0]["config"]["searchSpace"], "demo");

    let settings = h.invoke("save_backend", json!({"mode": "remote", "remoteUrl": format!("{url}/"), "token": token})).unwrap();
    assert_eq!(settings["mode"], "remote");
    assert_eq!(settings["remoteUrl"], url.as_str(), "the trailing slash is dropped");
    assert_eq!(settings["tokenSaved"], true);
    assert!(!settings.to_string().contains(&token));
    let titles: Vec<_> = h.invoke("list_configurations", json!({})).unwrap()["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["config"]["title"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(titles, ["Remote Archive"]);
    if settings["tokenStorage"] == "file" {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(h.dir.path().join("remote-token")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // Switching back keeps the saved token: no token is needed to return.
    h.invoke("save_backend", json!({"mode": "local", "remoteUrl": url, "token": null})).unwrap();
    assert_eq!(h.invoke("list_configurations", json!({})).unwrap()["configurations"][0]["config"]["searchSpace"], "demo");
    let again = h.invoke("save_backend", json!({"mode": "remote", "remoteUrl": url, "token": null})).unwrap();
    assert_eq!(again["mode"], "remote");
}

#[test]
fn the_demo_load_reports_progress_and_a_cancelled_import_says_so() {
    let h = harness();
    let events: std::sync::Arc<std::sync::Mutex<Vec<Value>>> = Default::default();
    let seen = events.clone();
    h.app.listen_any("task-progress", move |event| {
        seen.lock().unwrap().push(serde_json::from_str(event.payload()).unwrap());
    });
    let task = h.invoke("load_demo", json!({})).unwrap();
    let done = wait_for_finish(&events, &task);
    assert_eq!(done["error"], Value::Null, "{done}");
    assert_eq!(done["cancelled"], false);
    assert!(done["done"].as_u64().unwrap() >= 2000);
    assert_eq!(h.invoke("list_configurations", json!({})).unwrap()["configurations"].as_array().unwrap().len(), 1, "the demo configuration is not duplicated");

    let missing = h.invoke("start_import", json!({"path": "/no/such/file.jsonl", "searchSpace": "news"})).unwrap_err();
    assert!(missing["message"].as_str().unwrap().contains("/no/such/file.jsonl"));
    let unnamed = h.invoke("start_import", json!({"path": "/dev/null", "searchSpace": " "})).unwrap_err();
    assert_eq!(unnamed["code"], "bad_request");

    // An endless file: the import runs until it is cancelled.
    let task = h.invoke("start_import", json!({"path": "/dev/zero", "searchSpace": "zeros"})).unwrap();
    assert_eq!(h.invoke("cancel_task", json!({"taskId": task})).unwrap(), true);
    let done = wait_for_finish(&events, &task);
    assert_eq!(done["cancelled"], true, "{done}");
    assert_eq!(h.invoke("cancel_task", json!({"taskId": task})).unwrap(), false, "a finished task cannot be cancelled");
}

fn wait_for_finish(events: &std::sync::Mutex<Vec<Value>>, task: &Value) -> Value {
    for _ in 0..600 {
        if let Some(done) = events.lock().unwrap().iter().find(|e| &e["taskId"] == task && e["finished"] == true) {
            return done.clone();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("task {task} did not finish");
}

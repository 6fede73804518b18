//! The IPC commands on Tauri's mock runtime (no window system): answers reach the UI as JSON, and failures
//! as `{code, message}`.

use std::time::Duration;

use serde_json::{json, Value};
use studio_testkit::disk::SmallDisk;
use tauri::ipc::Origin;
use tauri::test::MockRuntime;

use crate::bindings;
use crate::harness::{connection_input, harness, harness_in, servers};

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
fn facet_health_and_explanations_reach_the_ui() {
    let h = harness();
    let health = h.invoke("facet_health", json!({"space": "demo"})).unwrap();
    assert_eq!(health["searchSpace"], "demo");
    let spaces = h.invoke("search_spaces", json!({})).unwrap();
    assert_eq!(health["fields"].as_array().unwrap().len(), spaces[0]["fields"].as_array().unwrap().len());
    let unknown = h.invoke("facet_health", json!({"space": "nowhere"})).unwrap_err();
    assert_eq!(
        (unknown["code"].as_str(), unknown["message"].as_str()),
        (Some("not_found"), Some("search space nowhere does not exist"))
    );

    let id = h.invoke("list_configurations", json!({})).unwrap()["activeId"].clone();
    let first = h.invoke("search", json!({"id": id, "request": {}})).unwrap()["result"][0]["id"].clone();
    let similar = |query: Value| h.invoke("similar_documents", json!({"id": id, "query": query})).unwrap();
    let plain = similar(json!({"uri": first, "number": 3, "similarity": null}));
    let explained = similar(json!({"uri": first, "number": 3, "similarity": null, "explain": true}));
    assert!(plain.as_array().unwrap().iter().all(|d| d.get("explanation").is_none()), "{plain}");
    assert!(explained.as_array().unwrap().iter().all(|d| d["explanation"]["plugin"] == "concepts"), "{explained}");
    let query = json!({"uri": first, "recommender": "same-author", "explain": true});
    let recommended = h.invoke("recommendations", json!({"id": id, "query": query})).unwrap();
    assert!(recommended["result"].as_array().unwrap().iter().all(|d| d["explanation"]["plugin"] == "same-author"));
}

#[test]
fn configuration_commands_create_update_and_report_invalid_keys() {
    let h = harness();
    let created = h
        .invoke(
            "create_configuration",
            json!({"body": {"config": {"title": "Desk", "searchSpace": "demo", "result": {"itemsPerPage": 0}}}}),
        )
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
    let bad_url =
        h.invoke("save_connection", json!({"input": connection_input("X", "ftp://x", "none", json!({}))})).unwrap_err();
    assert_eq!(bad_url["code"], "settings");
    let id = h.add_token_connection("Nowhere", "http://127.0.0.1:9", "t");
    let unreachable = h.invoke("use_connection", json!({"id": id})).unwrap_err();
    assert_eq!(unreachable["code"], "bad_gateway", "{unreachable}");
    // A failed switch leaves the local store in use.
    assert_eq!(h.ok("list_connections", json!({}))["current"], "local");
    assert!(h.invoke("list_configurations", json!({})).is_ok());
}

#[test]
fn settings_remember_theme_and_last_configuration() {
    let h = harness();
    let settings = h.invoke("get_settings", json!({})).unwrap();
    assert_eq!(settings["theme"], "system");
    assert_eq!(settings["dataDir"], h.dir.path().display().to_string());
    let changed = h.invoke("set_preference", json!({"theme": "dark", "lastConfigId": 1})).unwrap();
    assert_eq!(changed["theme"], "dark");
    assert_eq!(changed["lastConfigId"], 1);
    let h = h.restart();
    assert_eq!(h.ok("get_settings", json!({}))["theme"], "dark");
    // What the file holds already is not written again: the editor sets its configuration as the last one at
    // every start, and each write waits for the disk.
    let file = h.dir.path().join(search_studio::PREFS_FILE);
    let written = std::fs::metadata(&file).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    h.ok("set_preference", json!({"theme": "dark", "lastConfigId": 1}));
    assert_eq!(std::fs::metadata(&file).unwrap().modified().unwrap(), written, "the settings file was written again");
    h.ok("set_preference", json!({"lastConfigId": 2}));
    assert_ne!(std::fs::metadata(&file).unwrap().modified().unwrap(), written, "a new value must be written");
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

#[test]
fn the_window_may_call_exactly_the_listed_commands() {
    let mut context = search_studio::context::<MockRuntime>();
    let authority = context.runtime_authority_mut();
    let allowed = |command: &str| authority.resolve_access(command, "main", "main", &Origin::Local).is_some();
    for (_, command) in bindings::commands::COMMANDS {
        assert!(allowed(command), "{command} is listed but not granted");
    }
    for gone in ["list_drafts", "visible_configurations", "plugin:store|load", "plugin:dialog|message"] {
        assert!(!allowed(gone), "{gone} is granted");
    }
    assert!(authority.resolve_access("search", "other", "other", &Origin::Local).is_none(), "only the main window");
}

/// The benchmark's command (`bench-hooks` feature) is neither callable nor granted nor given a permission in any
/// other build.
#[cfg(not(feature = "bench-hooks"))]
#[test]
fn the_product_has_no_benchmark_hook() {
    const BENCH_COMMAND: &str = "first_results_shown";
    assert!(!bindings::commands::COMMANDS.iter().any(|(_, c)| *c == BENCH_COMMAND), "listed");
    let mut context = search_studio::context::<MockRuntime>();
    assert!(
        context.runtime_authority_mut().resolve_access(BENCH_COMMAND, "main", "main", &Origin::Local).is_none(),
        "granted"
    );
    let refused = harness().invoke(BENCH_COMMAND, json!({})).unwrap_err();
    assert!(refused.to_string().contains("not allowed"), "{refused}");
    let permission = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("permissions/autogenerated")
        .join(format!("{BENCH_COMMAND}.toml"));
    assert!(!permission.exists(), "a permission is generated for it: {}", permission.display());
}

/// A real `studio serve` router on loopback, holding one configuration.
fn remote_server() -> servers::ApiServer {
    let server = servers::token_server(|_| {});
    server.create(json!({"config": {"title": "Remote Archive", "searchSpace": "archive"}}));
    server
}

#[test]
fn switching_to_a_remote_connection_lists_its_configurations_and_keeps_the_token_private() {
    let h = harness();
    let remote = remote_server();
    let id = h.add_token_connection("Archive", &format!("{}/", remote.url), "wrong");
    assert_eq!(h.connection(&id)["url"], remote.url.as_str(), "the trailing slash is dropped");
    // A refused token still switches, so that the UI can ask for the right one; commands then say so.
    let refused = h.invoke("use_connection", json!({"id": id})).unwrap_err();
    assert_eq!(refused["code"], "unauthorized", "{refused}");
    assert_eq!(h.ok("list_connections", json!({}))["current"], id.as_str());
    assert_eq!(h.invoke("list_configurations", json!({})).unwrap_err()["code"], "unauthorized");

    let bad = h
        .invoke("sign_in", json!({"id": id, "input": {"password": null, "token": "still-wrong", "remember": true}}))
        .unwrap_err();
    assert_eq!(bad["code"], "unauthorized", "a token the server refuses is not taken");
    let signed =
        h.ok("sign_in", json!({"id": id, "input": {"password": null, "token": remote.token, "remember": true}}));
    assert!(!signed.to_string().contains(&remote.token));
    let titles: Vec<_> = h.ok("list_configurations", json!({}))["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["config"]["title"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(titles, ["Remote Archive"]);
    let shown = h.connection(&id);
    assert_eq!(
        (shown["hasToken"].clone(), shown["signedIn"].clone(), shown["secretStorage"].clone()),
        (json!(true), json!(true), json!("file"))
    );

    // Back to the local store and again to the server: the saved token is used, nothing is asked.
    h.ok("use_connection", json!({"id": "local"}));
    assert_eq!(h.ok("list_configurations", json!({}))["configurations"][0]["config"]["searchSpace"], "demo");
    assert_eq!(h.ok("use_connection", json!({"id": id}))["current"], id.as_str());
    assert_eq!(h.ok("offers", json!({})), serde_json::to_value(studio_model::Offers::all()).unwrap());
}

#[test]
fn the_demo_load_reports_progress_and_a_cancelled_import_says_so() {
    let h = harness();
    let events = h.task_reports();
    let task = h.invoke("load_demo", json!({})).unwrap();
    let done = wait_for_finish(&events, &task);
    assert_eq!(done["error"], Value::Null, "{done}");
    assert_eq!(done["cancelled"], false);
    assert!(done["done"].as_u64().unwrap() >= 2000);
    assert_eq!(done["message"], "imported 2400 documents into demo", "{done}");
    assert_eq!(
        h.invoke("list_configurations", json!({})).unwrap()["configurations"].as_array().unwrap().len(),
        1,
        "the demo configuration is not duplicated"
    );

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

/// An import's finished task says what was imported, and that lines were skipped and why, as `studio import` does.
#[test]
fn an_import_that_skips_lines_says_so_when_it_finishes() {
    let h = harness();
    let events = h.task_reports();
    let file = h.dir.path().join("news.jsonl");
    std::fs::write(
        &file,
        "{\"id\": \"a\", \"title\": \"One\"}\n{\"title\": \"no id\"}\n{\"id\": \"b\", \"date\": \"today\"}\n{\"id\": \"c\"}\n",
    )
    .unwrap();
    let task = h.invoke("start_import", json!({"path": file.display().to_string(), "searchSpace": "news"})).unwrap();
    let done = wait_for_finish(&events, &task);
    assert_eq!(done["error"], Value::Null, "{done}");
    let message = done["message"].as_str().unwrap();
    assert!(message.starts_with("imported 2 documents into news; 2 lines skipped (line 2: "), "{message}");
    assert!(message.contains("id"), "{message}");
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

#[test]
fn a_settings_change_the_disk_cannot_hold_is_refused_and_the_file_keeps_what_it_held() {
    let disk = SmallDisk::mount(64);
    let h = harness_in(tempfile::tempdir_in(disk.path()).unwrap(), Duration::from_secs(60));
    h.ok("set_preference", json!({"theme": "dark"}));
    let file = h.dir.path().join(search_studio::PREFS_FILE);
    let held = std::fs::read_to_string(&file).unwrap();
    disk.fill();

    let refused = h.invoke("set_preference", json!({"theme": "light"})).unwrap_err();
    assert_eq!(refused["code"], "insufficient_storage", "{refused}");
    assert_eq!(
        refused["message"].as_str(),
        Some(format!("the disk holding {} is full: free some space and try again", file.display()).as_str())
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), held, "the file holds what it held, whole");
    disk.free();
    let h = h.restart();
    assert_eq!(h.ok("get_settings", json!({}))["theme"], "dark", "the last change saved is the one read back");
    let dir = h.quit();
    assert_eq!(std::fs::read_to_string(dir.path().join(search_studio::PREFS_FILE)).unwrap(), held, "nor does the exit");
}

#[test]
fn a_settings_file_that_is_not_json_is_kept_aside_and_the_app_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(search_studio::PREFS_FILE);
    std::fs::write(&file, "{\"theme\": \"da").unwrap();
    let h = harness_in(dir, Duration::from_secs(60));
    assert_eq!(h.ok("get_settings", json!({}))["theme"], "system");
    let aside: Vec<_> = std::fs::read_dir(h.dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("desktop-settings.damaged-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), "{\"theme\": \"da", "what it held is kept");
    h.ok("set_preference", json!({"theme": "dark"}));
    assert!(std::fs::read_to_string(&file).unwrap().contains("\"dark\""));
}

#[test]
fn a_first_launch_makes_its_data_directory_and_writes_the_settings_there() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::remove_dir(dir.path()).unwrap();
    // The connection list is written at the start, before the store is opened.
    let h = harness_in(dir, Duration::from_secs(60));
    assert!(h.dir.path().join(search_studio::PREFS_FILE).is_file(), "the settings are written in the data directory");
    let list = h.ok("list_configurations", json!({}));
    assert_eq!(list["configurations"][0]["config"]["searchSpace"], "demo", "{list}");
}

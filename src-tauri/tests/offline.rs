//! The offline-work commands on Tauri's mock runtime: drafts per backend, publish with conflicts, history,
//! configuration files, the connection state, and pulling a remote search space as a task.

use search_studio::BackendSlot;
use serde_json::{json, Value};
use studio_testkit::disk::SmallDisk;
use studio_testkit::{ApiOnlyOptions, ApiOnlyServer};
use tauri::Manager;

use crate::harness::{harness, servers};

/// A real server router on loopback with one configuration over 30 documents of search space `archive`.
fn remote_server() -> servers::ApiServer {
    let lines: String = (0..30)
        .map(|i| format!("{{\"id\":\"urn:d:{i}\",\"title\":\"Doc {i}\",\"date\":{}.0,\"facetList\":[{{\"field\":\"dyn_lit_author\",\"label\":\"Author\",\"facets\":[{{\"count\":1,\"label\":\"A{}\",\"value\":null}}]}}]}}\n", (i + 1) * 1000, i % 3))
        .collect();
    let server = servers::token_server(|store| {
        studio_local::import_documents(store, "archive", std::io::Cursor::new(lines), &mut |_| {}).unwrap();
    });
    server.create(json!({"config": {"title": "Remote Archive", "searchSpace": "archive", "x-kept": 1,
        "filter": {"facetsToShow": [{"uri": "dyn_lit_author", "title": "Author"}]}}}));
    server
}

#[test]
fn drafts_are_kept_per_backend_and_configuration_until_discarded() {
    let h = harness();
    let id = h.ok("list_configurations", json!({}))["activeId"].clone();
    let base = h.ok("get_configuration", json!({"id": id}));
    let mut draft = base.clone();
    draft["config"]["title"] = json!("Edited offline");
    let saved = h.ok("save_draft", json!({"configId": id, "draft": draft, "base": base}));
    assert_eq!(saved["backend"], "local");
    assert_eq!(h.ok("get_draft", json!({"configId": id}))["draft"]["config"]["title"], "Edited offline");
    let kept = h.app.state::<BackendSlot>().sync().drafts("local").unwrap();
    assert_eq!(kept.len(), 1, "one draft is kept for the local store");

    let remote = remote_server();
    h.use_token_connection(&remote.url, &remote.token);
    assert_eq!(h.ok("get_draft", json!({"configId": id})), Value::Null, "a remote configuration 1 is another one");
    assert_eq!(h.ok("check_connection", json!({}))["backend"], remote.url.as_str());
    assert_eq!(h.ok("check_connection", json!({}))["online"], true);
    h.ok("use_connection", json!({"id": "local"}));
    assert_eq!(h.ok("check_connection", json!({})), json!({"backend": "local", "online": true, "message": null}));

    assert_eq!(h.ok("discard_draft", json!({"configId": id})), true);
    assert_eq!(h.ok("get_draft", json!({"configId": id})), Value::Null);
}

#[test]
fn publishing_over_a_change_made_elsewhere_answers_a_conflict_and_history_shows_the_versions() {
    let h = harness();
    let remote = remote_server();
    h.use_token_connection(&remote.url, &remote.token);
    let base = h.ok("get_configuration", json!({"id": 1}));
    h.ok("update_configuration", json!({"id": 1, "body": {"config": {"title": "Changed elsewhere"}}}));
    let mut mine = base.clone();
    mine["config"]["title"] = json!("Mine");
    let answer = h.ok("publish", json!({"id": 1, "mine": mine, "base": base}));
    assert_eq!(answer["status"], "conflict");
    let title =
        answer["conflict"]["fields"].as_array().unwrap().iter().find(|f| f["path"] == "config.title").unwrap().clone();
    assert_eq!(
        (title["mine"].clone(), title["theirs"].clone(), title["conflicting"].clone()),
        (json!("Mine"), json!("Changed elsewhere"), json!(true))
    );
    assert_eq!(h.ok("get_configuration", json!({"id": 1}))["config"]["title"], "Changed elsewhere");

    let theirs = answer["conflict"]["theirs"].clone();
    let published = h.ok("publish", json!({"id": 1, "mine": mine, "base": theirs}));
    assert_eq!(published["status"], "published", "{published}");
    assert_eq!(h.ok("get_configuration", json!({"id": 1}))["config"]["x-kept"], 1);
    let history = h.ok("history", json!({"id": 1}));
    let sources: Vec<&str> = history.as_array().unwrap().iter().map(|e| e["source"].as_str().unwrap()).collect();
    assert!(sources.contains(&"published") && sources.contains(&"server"), "{sources:?}");
    assert_eq!(history[0]["config"]["config"]["title"], "Mine");
}

#[test]
fn export_and_import_through_files_create_new_configurations() {
    let h = harness();
    let file = h.dir.path().join("all.json");
    let path = file.to_str().unwrap();
    assert_eq!(h.ok("export_configurations", json!({"path": path, "id": null})), 1);
    let imported = h.ok("import_configurations", json!({"path": path}));
    assert_eq!(imported[0]["fromId"], 1);
    assert_eq!(imported[0]["id"], 2);
    assert_eq!(h.ok("list_configurations", json!({}))["configurations"].as_array().unwrap().len(), 2);
    std::fs::write(&file, "{\"format\": \"search-studio/configurations\", \"version\": 5}").unwrap();
    let refused = h.invoke("import_configurations", json!({"path": path})).unwrap_err();
    assert_eq!(refused["code"], "bad_request");
    assert!(refused["message"].as_str().unwrap().contains("version 5"));
}

#[test]
fn an_export_the_disk_cannot_hold_says_so_and_leaves_the_file_as_it_was() {
    let h = harness();
    let disk = SmallDisk::mount(1);
    let file = disk.path().join("all.json");
    std::fs::write(&file, "an earlier export\n").unwrap();
    disk.fill();
    let path = file.to_str().unwrap();
    let refused = h.invoke("export_configurations", json!({"path": path, "id": null})).unwrap_err();
    assert_eq!(refused["code"], "insufficient_storage", "{refused}");
    assert_eq!(
        refused["message"].as_str(),
        Some(format!("the disk holding {path} is full: free some space and try again").as_str())
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "an earlier export\n", "the file is as it was");
    let mut left: Vec<_> = std::fs::read_dir(disk.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    left.sort();
    assert_eq!(left, ["all.json", "filler"], "nothing half-written beside it");
    disk.free();
    assert_eq!(h.ok("export_configurations", json!({"path": path, "id": null})), 1);
    assert!(std::fs::read_to_string(&file).unwrap().contains("search-studio/configurations"));
}

#[test]
fn pulling_a_remote_configuration_is_a_task_that_fills_the_local_store() {
    let h = harness();
    let refused = h.invoke("start_pull", json!({"id": 1})).unwrap_err();
    assert!(refused["message"].as_str().unwrap().contains("remote server"), "{refused}");
    let remote = remote_server();
    h.use_token_connection(&remote.url, &remote.token);
    let theirs = h.ok("search", json!({"id": 1, "request": {}}));

    let events = h.task_reports();
    let task = h.ok("start_pull", json!({"id": 1}));
    let done = (0..300)
        .find_map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            events.lock().unwrap().iter().find(|e| e["taskId"] == task && e["finished"] == true).cloned()
        })
        .expect("the pull finishes");
    assert_eq!(done["error"], Value::Null, "{done}");
    assert_eq!(done["done"], 30);
    let message = done["message"].as_str().unwrap();
    assert!(message.starts_with("pulled 30 documents into ") && !message.contains("skipped"), "{message}");

    h.ok("use_connection", json!({"id": "local"}));
    let list = h.ok("list_configurations", json!({}));
    let copy = list["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["config"]["title"] == "Remote Archive")
        .unwrap()
        .clone();
    assert_eq!(copy["config"]["x-kept"], 1);
    let ours = h.ok("search", json!({"id": copy["id"], "request": {}}));
    assert_eq!((ours["total"].clone(), ours["facets"].clone()), (theirs["total"].clone(), theirs["facets"].clone()));
}

/// A pull the server fails (a production server's double in front of a real one over 250 documents, the page at 100
/// answering 500 once) says why and that taking it offline again resumes it, as the task's error, with the first page
/// kept; taken offline again, it finishes.
#[test]
fn a_failed_pull_says_to_take_it_offline_again_which_finishes_it() {
    let h = harness();
    let lines: String = (0..250)
        .map(|i| format!("{{\"id\":\"urn:d:{i}\",\"title\":\"Doc {i}\",\"date\":{}.0}}\n", (i + 1) * 1000))
        .collect();
    let remote = servers::token_server(|store| {
        studio_local::import_documents(store, "archive", std::io::Cursor::new(lines), &mut |_| {}).unwrap();
    });
    remote.create(json!({"config": {"title": "Remote Archive", "searchSpace": "archive"}}));
    let failing = ApiOnlyOptions { failing_searches: Some((100, 1)), ..Default::default() };
    let double = ApiOnlyServer::start(&remote.url, failing).expect("the double starts");
    h.use_token_connection(double.url(), &remote.token);
    let events = h.task_reports();
    let pull = || {
        let task = h.ok("start_pull", json!({"id": 1}));
        (0..300)
            .find_map(|_| {
                std::thread::sleep(std::time::Duration::from_millis(100));
                events.lock().unwrap().iter().find(|e| e["taskId"] == task && e["finished"] == true).cloned()
            })
            .expect("the pull ends")
    };
    let failed = pull();
    let error = failed["error"].as_str().unwrap_or_default();
    assert!(error.contains("failed to answer (500)"), "{failed}");
    assert!(error.ends_with("; what was pulled is kept: take it offline again to resume"), "{failed}");
    assert_eq!(failed["done"], 100, "the first page is kept: {failed}");
    let done = pull();
    assert_eq!((done["error"].clone(), done["done"].clone()), (Value::Null, json!(250)), "{done}");
    assert!(done["message"].as_str().is_some_and(|m| m.starts_with("pulled 250 documents into archive")), "{done}");
}

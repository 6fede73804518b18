//! A folder of configuration files as the workspace: opened and remembered like a connection, its files the
//! configurations (read, created and saved back in the stable layout, byte for byte), its preview searching the
//! connection the designer picks, and its changes on disk reported to the window while a file that does not
//! parse is shown as a problem and never written over.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use studio_model::Config;
use studio_sync::folder::format::{self, FileBody};
use studio_testkit::disk::SmallDisk;
use tauri::Listener;

use crate::harness::{harness, servers, Harness};

/// A configuration file's text in the stable layout.
fn file_text(title: &str, active: bool) -> String {
    let config = Config { title: title.into(), search_space: "demo".into(), ..Config::default() };
    format::render(&FileBody::new(config, active))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The configuration of the list titled `title`.
fn listed(h: &Harness, title: &str) -> Value {
    let list = h.ok("list_configurations", json!({}));
    let found = list["configurations"].as_array().unwrap().iter().find(|c| c["config"]["title"] == title).cloned();
    found.unwrap_or_else(|| panic!("{title} is not listed: {list}"))
}

/// The changes the window is told of, as they come.
fn changes(h: &Harness) -> Arc<Mutex<Vec<Value>>> {
    let told: Arc<Mutex<Vec<Value>>> = Arc::default();
    let kept = Arc::clone(&told);
    h.app.listen_any("folder-changed", move |event| {
        kept.lock().unwrap().push(serde_json::from_str(event.payload()).unwrap())
    });
    told
}

/// Waits (20 s at most) for a change the window is told of that `matches`, and answers it.
fn told_of(told: &Mutex<Vec<Value>>, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(change) = told.lock().unwrap().iter().find(|c| matches(c)) {
            return change.clone();
        }
        assert!(Instant::now() < deadline, "the window was not told {what}: {:?}", told.lock().unwrap());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn names(change: &Value, list: &str) -> Vec<String> {
    change[list].as_array().unwrap().iter().map(|e| e["key"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn the_files_of_an_opened_folder_are_its_configurations_saved_back_in_the_stable_layout() {
    let folder = tempfile::tempdir().unwrap();
    let news = folder.path().join("news.json");
    std::fs::write(&news, file_text("News", true)).unwrap();
    std::fs::write(folder.path().join("sport.json"), file_text("Sport", false)).unwrap();
    let h = harness();

    let list = h.ok("open_workspace_folder", json!({"path": folder.path()}));
    assert_eq!(list["current"], "folder");
    let entry = list["connections"].as_array().unwrap().iter().find(|c| c["id"] == "folder").unwrap().clone();
    assert_eq!((entry["kind"].as_str(), entry["searches"].as_str()), (Some("folder"), Some("local")), "{entry}");
    let configs = h.ok("list_configurations", json!({}));
    let stored = listed(&h, "News");
    assert_eq!(configs["activeId"], stored["id"], "the file that says active is the active one");
    assert_eq!(configs["configurations"].as_array().unwrap().len(), 2);

    // Saved as the editor saves: the file holds exactly the stable layout of what was saved.
    let mut mine = stored.clone();
    mine["config"]["title"] = json!("News, edited");
    mine["config"]["result"]["itemsPerPage"] = json!(25);
    let saved = h.ok("publish", json!({"id": stored["id"], "mine": mine, "base": stored}));
    assert_eq!(saved["status"], "published", "{saved}");
    let mut expected = Config { title: "News, edited".into(), search_space: "demo".into(), ..Config::default() };
    expected.result.items_per_page = 25;
    assert_eq!(read(&news), format::render(&FileBody::new(expected, true)));

    // A new configuration is a new file named from its title.
    let created =
        h.ok("create_configuration", json!({"body": {"config": {"title": "Harbour Search", "searchSpace": "demo"}}}));
    let harbour = read(&folder.path().join("harbour-search.json"));
    assert_eq!(format::render(&format::parse(&harbour).unwrap()), harbour);
    assert_eq!(h.ok("get_configuration", json!({"id": created["config"]["id"]}))["config"]["title"], "Harbour Search");

    // The preview searches the local store's configuration of the same search space, with the file's settings.
    let found = h.ok("search", json!({"id": stored["id"], "request": {"input": "energy"}}));
    assert!(found["total"].as_i64().unwrap() > 0, "{found}");
    assert!(found["result"].as_array().unwrap().len() <= 25);

    // Searching a server without that search space says so.
    let server = servers::token_server(|_| {});
    let remote = h.add_token_connection("Staging", &server.url, &server.token);
    assert_eq!(h.ok("set_folder_search", json!({"id": remote}))["connections"][1]["searches"], remote.as_str());
    let refused = h.invoke("search", json!({"id": stored["id"], "request": {}})).unwrap_err();
    assert_eq!(refused["code"], "not_found", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("Staging has no configuration of search space `demo`"),
        "{refused}"
    );

    // An unsaved edit is kept per folder and id, and both survive a restart, as the folder and its search do.
    let draft = json!({"id": stored["id"], "config": {"title": "News, on the train"}});
    h.ok("save_draft", json!({"configId": stored["id"], "draft": draft, "base": stored}));
    let h = h.restart();
    assert_eq!(h.ok("list_connections", json!({}))["current"], "folder");
    assert_eq!(listed(&h, "News, edited")["id"], stored["id"], "the same file has the same id");
    assert_eq!(h.ok("get_draft", json!({"configId": stored["id"]}))["draft"], draft);
    assert_eq!(
        h.ok("check_connection", json!({}))["backend"].as_str().unwrap(),
        format!("folder:{}", std::fs::canonicalize(folder.path()).unwrap().display())
    );
    h.ok("use_connection", json!({"id": "local"}));
    assert_eq!(
        h.invoke("get_draft", json!({"configId": stored["id"]})).unwrap(),
        Value::Null,
        "the store's drafts are apart"
    );
}

#[test]
fn changes_on_disk_reach_the_window_and_a_file_that_does_not_parse_is_never_written_over() {
    let folder = tempfile::tempdir().unwrap();
    let news = folder.path().join("news.json");
    std::fs::write(&news, file_text("News", true)).unwrap();
    std::fs::write(folder.path().join("sport.json"), file_text("Sport", false)).unwrap();
    let h = harness();
    let told = changes(&h);
    h.ok("open_workspace_folder", json!({"path": folder.path()}));
    let stored = listed(&h, "Sport");
    let id = stored["id"].clone();

    // The app's own save is no change; one made by a text editor is.
    let mut mine = stored.clone();
    mine["config"]["title"] = json!("Sport, saved here");
    h.ok("publish", json!({"id": id, "mine": mine, "base": stored}));
    std::fs::write(&news, file_text("News, pulled", true)).unwrap();
    let change = told_of(&told, "of news.json", |c| !c["changed"].as_array().unwrap().is_empty());
    assert_eq!(names(&change, "changed"), ["news"], "only the change made elsewhere: {change}");

    // A file that does not parse is a problem with its line and column, and saving over it is refused.
    let broken = "{\n  \"active\": false,\n  \"config\": {\n    \"title\": 5\n  }\n}\n";
    std::fs::write(folder.path().join("sport.json"), broken).unwrap();
    let change = told_of(&told, "of the problem", |c| !c["problems"].as_array().unwrap().is_empty());
    let problem = &change["problems"][0];
    assert_eq!(
        (problem["file"].as_str(), problem["line"].as_u64(), problem["id"].clone()),
        (Some("sport.json"), Some(4), id.clone()),
        "{change}"
    );
    assert_eq!(h.ok("folder_status", json!({}))["problems"], change["problems"]);
    assert!(h.ok("list_configurations", json!({}))["configurations"].as_array().unwrap().iter().all(|c| c["id"] != id));
    let refused = h.invoke("update_configuration", json!({"id": id, "body": mine})).unwrap_err();
    assert_eq!(refused["code"], "bad_request", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("line 4"), "{refused}");
    assert_eq!(read(&folder.path().join("sport.json")), broken, "never written over");

    // A file deleted on disk is reported, and saving its configuration writes it again.
    std::fs::remove_file(&news).unwrap();
    let change = told_of(&told, "of the deletion", |c| !c["removed"].as_array().unwrap().is_empty());
    assert_eq!(names(&change, "removed"), ["news"]);
    let news_id = change["removed"][0]["id"].clone();
    let again = json!({"config": {"title": "News, kept", "searchSpace": "demo"}});
    h.ok("update_configuration", json!({"id": news_id, "body": again}));
    let config = Config { title: "News, kept".into(), search_space: "demo".into(), ..Config::default() };
    assert_eq!(read(&news), format::render(&FileBody::new(config, false)));
}

#[test]
fn a_folder_that_cannot_be_opened_says_why_and_changes_nothing() {
    let h = harness();
    let file = h.dir.path().join("a-file.json");
    std::fs::write(&file, "{}").unwrap();
    let refused = h.invoke("open_workspace_folder", json!({"path": file})).unwrap_err();
    assert_eq!(refused["code"], "bad_request", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("is a file, not a folder"), "{refused}");
    let missing = h.invoke("open_workspace_folder", json!({"path": "/no/such/folder"})).unwrap_err();
    assert!(missing["message"].as_str().unwrap().contains("/no/such/folder"), "{missing}");
    assert_eq!(h.ok("list_connections", json!({}))["current"], "local");
    assert_eq!(
        h.ok("list_connections", json!({}))["connections"].as_array().unwrap().len(),
        1,
        "no folder is remembered"
    );
}

#[test]
fn a_save_the_disk_cannot_hold_is_refused_naming_the_file_and_the_file_stays_whole() {
    let disk = SmallDisk::mount(1);
    let folder = disk.path().join("configs");
    std::fs::create_dir(&folder).unwrap();
    let news = folder.join("news.json");
    std::fs::write(&news, file_text("News", true)).unwrap();
    let h = harness();
    h.ok("open_workspace_folder", json!({"path": folder}));
    let stored = listed(&h, "News");
    let mut mine = stored.clone();
    mine["config"]["title"] = json!("News, on a full disk");
    disk.fill();

    let refused = h.invoke("publish", json!({"id": stored["id"], "mine": mine, "base": stored})).unwrap_err();
    assert_eq!(refused["code"], "insufficient_storage", "{refused}");
    let named = std::fs::canonicalize(&news).unwrap();
    assert_eq!(
        refused["message"].as_str(),
        Some(format!("the disk holding {} is full: free some space and try again", named.display()).as_str()),
        "the same words as a full disk under the store"
    );
    assert_eq!(read(&news), file_text("News", true), "the file is as it was");
    let left: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["news.json"], "no half-written file is left beside it");

    disk.free();
    let saved = h.ok("publish", json!({"id": stored["id"], "mine": mine, "base": stored}));
    assert_eq!(saved["status"], "published", "{saved}");
    assert!(read(&news).contains("News, on a full disk"), "saved once space is freed");
}

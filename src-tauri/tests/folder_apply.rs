//! Planning and applying the open folder to a connection from the desktop app: the plan of the files on disk
//! (create, update with each changed key, unchanged, only on the target, conflict, set active), the folder's
//! problems instead of a plan, an apply that makes exactly the plan shown and keeps `.studio/state.json`, a
//! conflict that waits for a side, and a second plan with nothing to do. Against a real `studio serve` on loopback.

use std::path::Path;

use serde_json::{json, Value};
use studio_model::{Backend, Config};
use studio_sync::folder::format::{self, FileBody};

use crate::harness::{harness, servers, Harness};

fn write_file(dir: &Path, key: &str, title: &str, items_per_page: i32, active: bool) {
    let mut config = Config { title: title.into(), search_space: "demo".into(), ..Config::default() };
    config.result.items_per_page = items_per_page;
    std::fs::write(dir.join(format!("{key}.json")), format::render(&FileBody::new(config, active))).unwrap();
}

/// The plan's items as (key or title, action).
fn kinds(plan: &Value) -> Vec<(String, String)> {
    plan["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (i["key"].as_str().or(i["title"].as_str()).unwrap().to_owned(), i["action"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn plan(h: &Harness, target: &str, prune: bool) -> Value {
    let answer = h.ok("plan_folder", json!({"target": target, "prune": prune}));
    assert_eq!(answer["status"], "plan", "{answer}");
    answer["plan"].clone()
}

fn apply(h: &Harness, target: &str, prune: bool, plan: &Value, keys: Value) -> Result<Value, Value> {
    h.invoke(
        "apply_folder",
        json!({"target": target, "prune": prune, "plan": plan, "choices": {"all": null, "keys": keys}}),
    )
}

/// The write kinds an apply answered, with their keys.
fn done(answer: &Value) -> Vec<(String, String)> {
    let key = |d: &Value| d["key"].as_str().unwrap_or("-").to_owned();
    answer["done"].as_array().unwrap().iter().map(|d| (d["done"].as_str().unwrap().to_owned(), key(d))).collect()
}

/// The server's active configuration, read from its store.
fn active_on(server: &servers::ApiServer) -> Option<i32> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(server.backend.list_configurations()).unwrap().active_id
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
}

#[test]
fn a_folder_is_planned_and_applied_to_a_server_as_the_cli_does() {
    let folder = tempfile::tempdir().unwrap();
    write_file(folder.path(), "news", "News", 10, true);
    write_file(folder.path(), "sport", "Sport", 10, false);
    let server = servers::token_server(|_| {});
    let old = server.create(json!({"config": {"title": "Old", "searchSpace": "demo"}}));
    let h = harness();
    h.ok("open_workspace_folder", json!({"path": folder.path()}));
    let staging = h.add_token_connection("Staging", &server.url, &server.token);

    // The first plan: two creates, what only the server has (kept), then News becomes active.
    let first = plan(&h, &staging, false);
    assert_eq!(first["target"], server.url.trim_end_matches('/'), "named as the CLI names it: {first}");
    assert_eq!(kinds(&first), pairs(&[("news", "create"), ("sport", "create"), ("Old", "onlyOnTarget")]));
    assert_eq!(first["setActive"]["key"], "news");

    // A folder with a problem answers it, placed in its file, instead of a plan.
    std::fs::write(
        folder.path().join("broken.json"),
        "{\n  \"active\": false,\n  \"config\": {\n    \"title\": 5\n  }\n}\n",
    )
    .unwrap();
    let refused = h.ok("plan_folder", json!({"target": staging, "prune": false}));
    assert_eq!(refused["status"], "problems", "{refused}");
    let at: Vec<(String, u64)> = refused["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["file"].as_str().unwrap().to_owned(), p["line"].as_u64().unwrap()))
        .collect();
    assert!(at.contains(&("broken.json".to_owned(), 4)), "the title's line: {refused}");
    std::fs::remove_file(folder.path().join("broken.json")).unwrap();

    // Apply makes exactly the plan's changes and keeps the state; then there is nothing to do.
    let answer = apply(&h, &staging, false, &first, json!({})).unwrap();
    assert_eq!(done(&answer), pairs(&[("created", "news"), ("created", "sport"), ("setActive", "news")]));
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.path().join(".studio/state.json")).unwrap()).unwrap();
    let news_id = answer["done"][0]["id"].clone();
    assert_eq!(state["targets"][first["target"].as_str().unwrap()]["news"]["id"], news_id, "{state}");
    assert_eq!(active_on(&server), news_id.as_i64().map(|id| id as i32), "the server's active one is News");
    assert_eq!(answer["lines"][0], format!("created news as id {news_id}"), "in the words the CLI prints: {answer}");
    let again = plan(&h, &staging, false);
    assert_eq!(kinds(&again), pairs(&[("news", "unchanged"), ("sport", "unchanged"), ("Old", "onlyOnTarget")]));
    assert!(again["setActive"].is_null());

    // An edit in the folder is an update with its key's old and new value; a change on the server to a
    // configuration the folder changed too is a conflict, and Apply waits for a side.
    write_file(folder.path(), "news", "News", 20, true);
    let sport_id = answer["done"][1]["id"].as_i64().unwrap() as i32;
    server
        .update(sport_id, json!({"config": {"title": "Sport", "searchSpace": "demo", "result": {"itemsPerPage": 30}}}));
    write_file(folder.path(), "sport", "Sport", 40, false);
    let second = plan(&h, &staging, false);
    assert_eq!(kinds(&second), pairs(&[("news", "update"), ("sport", "conflict"), ("Old", "onlyOnTarget")]));
    let change = &second["items"][0]["changes"][0];
    assert_eq!(
        (change["path"].as_str(), change["before"].clone(), change["after"].clone()),
        (Some("config.result.itemsPerPage"), json!(10), json!(20))
    );
    let open = apply(&h, &staging, false, &second, json!({})).unwrap_err();
    assert_eq!(open["code"], "conflict", "{open}");
    assert!(open["message"].as_str().unwrap().contains("sport"), "{open}");

    // A plan that no longer holds writes nothing.
    server.update(old, json!({"config": {"title": "Old, renamed", "searchSpace": "demo"}}));
    let stale = apply(&h, &staging, false, &second, json!({"sport": "theirs"})).unwrap_err();
    assert_eq!(stale["code"], "conflict", "{stale}");
    assert!(stale["message"].as_str().unwrap().contains("changed since the plan"), "{stale}");
    let now = plan(&h, &staging, false);
    assert_eq!(kinds(&now)[..2], kinds(&second)[..2], "nothing was written: {now}");

    // Taking the server's version rewrites the file; deleting what only the server has is asked for.
    let third = plan(&h, &staging, true);
    assert_eq!(third["items"][2]["action"], "delete");
    let answer = apply(&h, &staging, true, &third, json!({"sport": "theirs"})).unwrap();
    assert_eq!(done(&answer), pairs(&[("updated", "news"), ("keptTheirs", "sport"), ("deleted", "-")]));
    let sport = format::parse(&std::fs::read_to_string(folder.path().join("sport.json")).unwrap()).unwrap();
    assert_eq!(sport.config.result.items_per_page, 30);
    let last = plan(&h, &staging, true);
    assert_eq!(kinds(&last), pairs(&[("news", "unchanged"), ("sport", "unchanged")]));
    assert!(last["setActive"].is_null());
}

#[test]
fn a_plan_to_a_server_that_refuses_the_sign_in_asks_for_one() {
    let folder = tempfile::tempdir().unwrap();
    write_file(folder.path(), "news", "News", 10, true);
    let server = servers::token_server(|_| {});
    let h = harness();
    h.ok("open_workspace_folder", json!({"path": folder.path()}));
    let staging = h.add_token_connection("Staging", &server.url, "not-the-token");
    let refused = h.invoke("plan_folder", json!({"target": staging, "prune": false})).unwrap_err();
    assert_eq!(refused["code"], "unauthorized", "{refused}");
}

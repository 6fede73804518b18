//! Which connection is current: the newest switch wins over a slower earlier one, a connection that cannot
//! be set up at start leaves the local store current (and Settings says why), and an address the client
//! would refuse is refused when the connection is saved, before anything is kept.

use serde_json::{json, Value};

use crate::harness::{connection_input, harness, harness_in, servers};
use search_studio::secrets::SECRETS_FILE;
use search_studio::PREFS_FILE;

fn titles(h: &crate::harness::Harness) -> Vec<Value> {
    let list = h.ok("list_configurations", json!({}));
    list["configurations"].as_array().unwrap().iter().map(|c| c["config"]["title"].clone()).collect()
}

#[test]
fn a_switch_that_answers_after_a_later_one_does_not_undo_it() {
    let (slow, gate) = servers::slow_token_server(|_| {});
    let fast = servers::token_server(|_| {});
    slow.create(json!({"config": {"title": "On the slow server", "searchSpace": "demo"}}));
    fast.create(json!({"config": {"title": "On the fast server", "searchSpace": "demo"}}));
    let h = harness();
    let slow_id = h.add_token_connection("Slow", &slow.url, &slow.token);
    let fast_id = h.add_token_connection("Fast", &fast.url, &fast.token);

    let first = h.invoke_later("use_connection", json!({"id": slow_id}));
    gate.wait_for_a_request();
    assert_eq!(h.ok("use_connection", json!({"id": fast_id}))["current"], fast_id.as_str());
    gate.open();
    let late = first.join().unwrap().unwrap_err();
    assert_eq!(late["code"], "conflict", "{late}");
    assert!(late["message"].as_str().unwrap().contains("another connection was chosen"), "{late}");

    assert_eq!(h.ok("list_connections", json!({}))["current"], fast_id.as_str());
    assert_eq!(titles(&h), [json!("On the fast server")], "the fast server's backend is in use");
    let h = h.restart();
    assert_eq!(h.ok("list_connections", json!({}))["current"], fast_id.as_str(), "and stays current");
}

#[test]
fn a_connection_that_cannot_be_set_up_at_start_leaves_the_local_store_current_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let broken = json!({"id": "c-broken", "name": "Old staging", "url": "https://staging.example.org/?team=7",
        "signIn": "none", "issuer": null, "clientId": null, "username": null, "rememberPassword": false});
    let prefs = json!({"connections": [broken], "currentConnection": "c-broken"});
    std::fs::write(dir.path().join(PREFS_FILE), prefs.to_string()).unwrap();

    let h = harness_in(dir, std::time::Duration::from_secs(60));
    let list = h.ok("list_connections", json!({}));
    assert_eq!(list["current"], "local", "{list}");
    assert_eq!(list["connections"][1]["id"], "c-broken", "the connection stays, to be fixed");
    let notices = h.notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains("Old staging could not be set up") && notices[0].contains("query"), "{notices:?}");
    assert_eq!(h.ok("check_connection", json!({}))["backend"], "local", "the local store is what is in use");
    let h = h.restart();
    assert_eq!(h.ok("list_connections", json!({}))["current"], "local");
}

#[test]
fn an_address_its_client_would_refuse_is_refused_when_saving_and_nothing_is_kept() {
    let server = servers::token_server(|_| {});
    server.create(json!({"config": {"title": "Remote", "searchSpace": "demo"}}));
    let h = harness();
    for url in ["https://search.example.org/?team=7", "https://search.example.org/#top", "http://"] {
        let input = connection_input("Bad", url, "token", json!({"token": "kept-nowhere"}));
        let refused = h.invoke("save_connection", json!({"input": input})).unwrap_err();
        assert_eq!(refused["code"], "settings", "{url}: {refused}");
        assert!(refused["message"].as_str().unwrap().contains("not a usable server address"), "{refused}");
    }
    assert_eq!(h.ok("list_connections", json!({}))["connections"].as_array().unwrap().len(), 1);
    assert!(!h.data_file(SECRETS_FILE).contains("kept-nowhere"), "no secret was kept");

    // The current connection edited to such an address keeps its address, its token and its client.
    let id = h.use_token_connection(&server.url, &server.token);
    let mut edit = connection_input("Remote", &format!("{}/?v=2", server.url), "token", json!({"id": id}));
    edit["token"] = json!("a-new-token");
    assert_eq!(h.invoke("save_connection", json!({"input": edit})).unwrap_err()["code"], "settings");
    assert_eq!(h.connection(&id)["url"], server.url.as_str());
    assert!(!h.data_file(SECRETS_FILE).contains("a-new-token"));
    assert_eq!(titles(&h), [json!("Remote")]);

    // The address is kept as the client uses it: `/api` and a trailing slash are dropped.
    let mut tidy = connection_input("Remote", &format!("{}/api/", server.url), "token", json!({"id": id}));
    tidy["token"] = Value::Null;
    h.ok("save_connection", json!({"input": tidy}));
    assert_eq!(h.connection(&id)["url"], server.url.as_str());
}

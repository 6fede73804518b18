//! The desktop's connections on Tauri's mock runtime: kept in the preferences without a secret, their
//! secrets in an owner-only file or a keyring stand-in (the tests keep the machine's keyring out of it,
//! [`secrets`]), made from the old single-server preferences, switched between ([`switching`]), signed in
//! to through a real OpenID Connect provider ([`sign_in`], [`browser`]), and copied between ([`copy`]).

#[path = "connections/browser.rs"]
mod browser;
#[path = "connections/copy.rs"]
mod copy;
#[path = "connections/secrets.rs"]
mod secrets;
#[path = "connections/sign_in.rs"]
mod sign_in;
#[path = "connections/switching.rs"]
mod switching;

use std::os::unix::fs::PermissionsExt;

use crate::harness::{connection_input, harness, harness_in, servers};
use search_studio::secrets::SECRETS_FILE;
use search_studio::PREFS_FILE;
use serde_json::{json, Value};

fn ids(list: &Value) -> Vec<String> {
    list["connections"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn connections_are_saved_listed_edited_removed_and_kept_across_a_restart() {
    let h = harness();
    let first = h.ok("list_connections", json!({}));
    assert_eq!(first["current"], "local");
    assert_eq!(first["connections"][0]["name"], "Local store");
    assert_eq!(
        (first["connections"][0]["kind"].clone(), first["connections"][0]["url"].clone()),
        (json!("local"), Value::Null)
    );
    assert_eq!(ids(&first), ["local"]);

    let staging = h.add_token_connection("Staging", "https://staging.example.org/", "staging-token-1");
    let production = h.ok(
        "save_connection",
        json!({"input": connection_input("Production", "https://search.example.org", "password", json!({
            "issuer": "https://sso.example.org/realms/ppt/", "username": "ana", "clientSecret": "client-secret-2"}))}),
    );
    let production = production["connections"][2]["id"].as_str().unwrap().to_owned();
    let shown = h.connection(&production);
    assert_eq!(shown["url"], "https://search.example.org");
    assert_eq!(shown["issuer"], "https://sso.example.org/realms/ppt", "the trailing slash is dropped");
    assert_eq!(shown["clientId"], "ppt", "the documented client is the default");
    assert_eq!(
        (shown["hasClientSecret"].clone(), shown["hasPassword"].clone(), shown["signedIn"].clone()),
        (json!(true), json!(false), json!(false))
    );
    assert_eq!(h.connection(&staging)["hasToken"], true);
    assert_eq!(h.connection(&staging)["secretStorage"], "file");

    // Renamed: the saved token stays (null keeps it); the client secret is removed ("" removes it).
    let mut renamed = connection_input("Staging (EU)", "https://staging.example.org", "token", json!({"id": staging}));
    renamed["token"] = Value::Null;
    h.ok("save_connection", json!({"input": renamed}));
    assert_eq!(
        (h.connection(&staging)["name"].clone(), h.connection(&staging)["hasToken"].clone()),
        (json!("Staging (EU)"), json!(true))
    );
    let mut no_secret = connection_input(
        "Production",
        "https://search.example.org",
        "password",
        json!({
        "id": production, "issuer": "https://sso.example.org/realms/ppt", "username": "ana", "clientSecret": ""}),
    );
    no_secret["clientId"] = json!("studio-desktop");
    h.ok("save_connection", json!({"input": no_secret}));
    assert_eq!(
        (h.connection(&production)["hasClientSecret"].clone(), h.connection(&production)["clientId"].clone()),
        (json!(false), json!("studio-desktop"))
    );

    // What cannot be saved says why, and changes nothing.
    let refusals = [
        (connection_input("", "https://x.example.org", "none", json!({})), "settings"),
        (connection_input("X", "x.example.org", "none", json!({})), "settings"),
        (connection_input("X", "https://x.example.org", "browser", json!({})), "settings"),
        (
            connection_input("X", "https://x.example.org", "password", json!({"issuer": "https://sso.example.org"})),
            "settings",
        ),
        (connection_input("X", "https://x.example.org", "none", json!({"id": "local"})), "bad_request"),
        (connection_input("X", "https://x.example.org", "none", json!({"id": "c-gone"})), "not_found"),
    ];
    for (input, code) in refusals {
        let refused = h.invoke("save_connection", json!({"input": input})).unwrap_err();
        assert_eq!(refused["code"], code, "{input}: {refused}");
    }
    assert_eq!(h.invoke("remove_connection", json!({"id": "local"})).unwrap_err()["code"], "bad_request");
    assert_eq!(ids(&h.ok("list_connections", json!({}))), ["local", staging.as_str(), production.as_str()]);

    // A restart finds the same connections, the same secrets kept.
    let before = h.ok("list_connections", json!({}));
    let h = h.restart();
    assert_eq!(h.ok("list_connections", json!({})), before);

    let after = h.ok("remove_connection", json!({"id": staging}));
    assert_eq!(ids(&after), ["local", production.as_str()]);
    assert!(!h.data_file(SECRETS_FILE).contains("staging-token-1"), "a removed connection's secrets are forgotten");
    assert_eq!(h.invoke("remove_connection", json!({"id": staging})).unwrap_err()["code"], "not_found");
}

#[test]
fn secrets_never_reach_the_settings_file_and_their_own_file_is_the_owners_alone() {
    let h = harness();
    let secrets = ["pasted-token-3", "client-secret-4"];
    h.add_token_connection("Staging", "https://staging.example.org", secrets[0]);
    h.ok(
        "save_connection",
        json!({"input": connection_input("Production", "https://search.example.org", "browser", json!({
            "issuer": "https://sso.example.org/realms/ppt", "clientSecret": secrets[1]}))}),
    );
    let listed = h.ok("list_connections", json!({})).to_string();
    let settings = h.data_file(PREFS_FILE);
    assert!(settings.contains("Production"), "{settings}");
    let kept = h.data_file(SECRETS_FILE);
    for secret in secrets {
        assert!(!settings.contains(secret), "{secret} is in the settings file: {settings}");
        assert!(!listed.contains(secret), "{secret} was sent to the UI");
        assert!(kept.contains(secret), "{secret} is not in the secrets file");
    }
    let mode = std::fs::metadata(h.dir.path().join(SECRETS_FILE)).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn the_old_single_server_preferences_become_a_connection_with_its_token() {
    let remote = servers::token_server(|_| {});
    remote.create(json!({"config": {"title": "Remote Archive", "searchSpace": "archive"}}));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(PREFS_FILE),
        json!({"mode": "remote", "remoteUrl": remote.url, "theme": "dark"}).to_string(),
    )
    .unwrap();
    std::fs::write(dir.path().join("remote-token"), json!({ remote.url.clone(): remote.token }).to_string()).unwrap();

    let h = harness_in(dir, std::time::Duration::from_secs(60));
    let list = h.ok("list_connections", json!({}));
    let migrated = list["connections"][1].clone();
    assert_eq!(list["current"], migrated["id"], "the server in use stays in use");
    assert_eq!(
        (migrated["url"].clone(), migrated["signIn"].clone(), migrated["hasToken"].clone()),
        (json!(remote.url), json!("token"), json!(true))
    );
    assert_eq!(migrated["name"], remote.url.trim_start_matches("http://"));
    assert_eq!(h.ok("list_configurations", json!({}))["configurations"][0]["config"]["title"], "Remote Archive");
    assert!(!h.dir.path().join("remote-token").exists(), "the old token file is gone");
    let settings = h.data_file(PREFS_FILE);
    assert!(!settings.contains("remoteUrl") && !settings.contains(&remote.token), "{settings}");
    assert_eq!(h.ok("get_settings", json!({}))["theme"], "dark");

    // Once only: the next start keeps the list as it is.
    let h = h.restart();
    assert_eq!(h.ok("list_connections", json!({})), list);
}

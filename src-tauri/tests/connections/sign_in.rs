//! Signing in through a real OpenID Connect provider (shaped like Keycloak) to a server that checks its
//! tokens, with access tokens of 2 seconds: the shell renews them unnoticed, asks for a sign-in once the
//! provider ends the session (unless it remembers the password), signs in through the browser with PKCE,
//! and keeps the refresh token across a restart.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use studio_testkit::{OidcProvider, ProviderOptions};

use crate::harness::{connection_input, harness, harness_in, servers, Harness};

/// How long an access token lives here.
const ACCESS_TTL: Duration = Duration::from_secs(2);

fn provider() -> OidcProvider {
    OidcProvider::start(ProviderOptions { access_ttl: ACCESS_TTL, ..ProviderOptions::default() })
        .expect("the test provider starts")
}

fn password_input(issuer: &str, url: &str, password: &str, remember: bool) -> Value {
    connection_input(
        "Production",
        url,
        "password",
        json!({"issuer": issuer, "username": "ana", "password": password,
        "rememberPassword": remember, "clientSecret": "ppt-secret"}),
    )
}

/// Saves a password connection signed in as ana, makes it current, and answers its id.
fn signed_in(h: &Harness, issuer: &str, url: &str, remember: bool) -> String {
    let saved = h.ok("save_connection", json!({"input": password_input(issuer, url, "ana-password", remember)}));
    let id = saved["connections"][1]["id"].as_str().unwrap().to_owned();
    h.ok("use_connection", json!({"id": id}));
    id
}

/// Runs commands for `span`; every one must succeed. Answers how many ran.
fn work_for(h: &Harness, span: Duration) -> usize {
    let started = Instant::now();
    let mut done = 0;
    while started.elapsed() < span {
        h.ok("list_configurations", json!({}));
        h.ok(
            "create_configuration",
            json!({"body": {"config": {"title": format!("Page {done}"), "searchSpace": "demo"}}}),
        );
        done += 1;
    }
    done
}

/// Runs a read until the server or the provider refuses it (the provider's session was ended, the access
/// token runs out within its lifetime), and answers the refusal.
fn first_refusal(h: &Harness) -> Value {
    let deadline = Instant::now() + ACCESS_TTL * 10;
    while Instant::now() < deadline {
        if let Err(refused) = h.invoke("list_configurations", json!({})) {
            return refused;
        }
    }
    panic!("no command was refused within {:?} of the provider ending the session", ACCESS_TTL * 10);
}

fn saved_refresh_token(h: &Harness, id: &str) -> Value {
    let text = h.data_file(search_studio::secrets::SECRETS_FILE);
    serde_json::from_str::<Value>(&text).unwrap()[id]["refreshToken"].clone()
}

#[test]
fn a_password_session_outlives_its_tokens_and_after_the_provider_ends_it_a_sign_in_lets_the_publish_land() {
    let provider = provider();
    let server = servers::provider_server(provider.issuer());
    let h = harness();
    let wrong = h.invoke(
        "save_connection",
        json!({"input": password_input(provider.issuer(), &server.url, "not-her-password", false)}),
    );
    assert_eq!(wrong.unwrap_err()["code"], "sign_in_needed");
    assert_eq!(h.ok("list_connections", json!({}))["connections"].as_array().unwrap().len(), 1, "nothing was saved");

    let id = signed_in(&h, provider.issuer(), &server.url, false);
    let shown = h.connection(&id);
    assert_eq!((shown["signedIn"].clone(), shown["hasPassword"].clone()), (json!(true), json!(false)));
    let first_refresh = saved_refresh_token(&h, &id);
    assert!(first_refresh.is_string());

    // Several token lifetimes of work, and no command fails.
    assert!(work_for(&h, ACCESS_TTL * 3 + ACCESS_TTL / 2) > 0);
    assert_ne!(saved_refresh_token(&h, &id), first_refresh, "the renewed refresh token is saved");

    // The designer has an edit ready when the provider ends every session.
    let config_id = h.ok("list_configurations", json!({}))["configurations"][0]["id"].clone();
    let base = h.ok("get_configuration", json!({"id": config_id}));
    let mut mine = base.clone();
    mine["config"]["title"] = json!("Published after signing in again");
    provider.revoke_sessions();
    let refused = first_refusal(&h);
    assert_eq!(refused["code"], "sign_in_needed", "{refused}");
    let publish = json!({"id": config_id, "mine": mine, "base": base});
    assert_eq!(h.invoke("publish", publish.clone()).unwrap_err()["code"], "sign_in_needed");

    let bad = h
        .invoke("sign_in", json!({"id": id, "input": {"password": "nope", "token": null, "remember": false}}))
        .unwrap_err();
    assert_eq!(bad["code"], "sign_in_needed");
    h.ok("sign_in", json!({"id": id, "input": {"password": "ana-password", "token": null, "remember": false}}));
    assert_eq!(h.ok("publish", publish)["status"], "published");
    assert_eq!(
        h.ok("get_configuration", json!({"id": config_id}))["config"]["title"],
        "Published after signing in again"
    );
    assert!(!h.data_file(search_studio::PREFS_FILE).contains("ana-password"));
    assert!(
        !h.data_file(search_studio::secrets::SECRETS_FILE).contains("ana-password"),
        "the password was not to be remembered"
    );
}

#[test]
fn with_a_remembered_password_the_end_of_the_providers_session_goes_unnoticed() {
    let provider = provider();
    let server = servers::provider_server(provider.issuer());
    let h = harness();
    let id = signed_in(&h, provider.issuer(), &server.url, true);
    assert_eq!(h.connection(&id)["hasPassword"], true);
    provider.revoke_sessions();
    assert!(work_for(&h, ACCESS_TTL * 3) > 0);
    assert!(!h.data_file(search_studio::PREFS_FILE).contains("ana-password"));

    // Signing out forgets the tokens and the password: the next request asks for a sign-in.
    let out = h.ok("sign_out", json!({"id": id}));
    let shown = out["connections"][1].clone();
    assert_eq!((shown["signedIn"].clone(), shown["hasPassword"].clone()), (json!(false), json!(false)));
    assert_eq!(h.invoke("list_configurations", json!({})).unwrap_err()["code"], "sign_in_needed");
}

#[test]
fn a_browser_sign_in_with_pkce_gives_tokens_that_survive_a_restart() {
    let provider = provider();
    let server = servers::provider_server(provider.issuer());
    let h = harness();
    let input = connection_input(
        "Production",
        &server.url,
        "browser",
        json!({"issuer": provider.issuer(), "clientId": "studio-desktop"}),
    );
    let id = h.ok("save_connection", json!({"input": input}))["connections"][1]["id"].as_str().unwrap().to_owned();
    let asked = h.invoke("use_connection", json!({"id": id})).unwrap_err();
    assert_eq!(asked["code"], "sign_in_needed", "no sign-in yet: {asked}");
    assert_eq!(h.ok("list_connections", json!({}))["current"], id.as_str(), "switched all the same");

    h.browser.sign_in_as("ana", "ana-password");
    let signed = h.ok("sign_in_browser", json!({"id": id}));
    assert_eq!(signed["connections"][1]["signedIn"], true);
    let opened = h.browser.opened.lock().unwrap().clone();
    assert_eq!(opened.len(), 1);
    assert!(opened[0].starts_with(provider.issuer()) && opened[0].contains("client_id=studio-desktop"), "{opened:?}");
    assert!(opened[0].contains("code_challenge_method=S256"), "{opened:?}");
    assert!(work_for(&h, ACCESS_TTL * 2) > 0);

    // A new start over the same data directory: the saved refresh token signs in, nothing is asked.
    let h = h.restart();
    assert_eq!(h.ok("list_connections", json!({}))["current"], id.as_str());
    assert_eq!(h.connection(&id)["signedIn"], true);
    assert!(work_for(&h, ACCESS_TTL) > 0);
    assert!(h.browser.opened.lock().unwrap().is_empty());
}

#[test]
fn a_browser_sign_in_that_never_comes_back_ends_with_a_clear_message() {
    let provider = provider();
    let h = harness_in(tempfile::tempdir().unwrap(), Duration::from_secs(1));
    let input = connection_input(
        "Production",
        "http://127.0.0.1:9",
        "browser",
        json!({"issuer": provider.issuer(), "clientId": "studio-desktop"}),
    );
    let id = h.ok("save_connection", json!({"input": input}))["connections"][1]["id"].as_str().unwrap().to_owned();
    let late = h.invoke("sign_in_browser", json!({"id": id})).unwrap_err();
    assert_eq!(late["code"], "timeout", "{late}");
    let message = late["message"].as_str().unwrap();
    assert!(message.contains("did not come back from the browser within 1 second"), "{message}");
    assert_eq!(h.connection(&id)["signedIn"], false);
}

//! The browser sign-in while other things happen: a connection has at most one waiting, a cancel or a newer
//! sign-in ends the wait and closes its loopback listener, and what a sign-in obtains after its connection
//! was edited or removed is not kept.

use std::net::TcpStream;

use serde_json::{json, Value};
use studio_testkit::{OidcProvider, ProviderOptions};

use crate::harness::{connection_input, harness, servers, Harness};

/// A browser connection to `url` through `issuer` as the public client `studio-desktop`; answers its id.
fn browser_connection(h: &Harness, issuer: &str, url: &str) -> String {
    let input = connection_input("Production", url, "browser", json!({"issuer": issuer, "clientId": "studio-desktop"}));
    h.ok("save_connection", json!({"input": input}))["connections"][1]["id"].as_str().unwrap().to_owned()
}

/// The loopback address a sign-in page redirects to (`127.0.0.1:PORT`).
fn redirect_address(page: &str) -> String {
    let encoded = page.split("redirect_uri=").nth(1).unwrap().split('&').next().unwrap();
    let uri = encoded.replace("%3A", ":").replace("%2F", "/");
    uri.trim_start_matches("http://").split('/').next().unwrap().to_owned()
}

fn saved_secrets(h: &Harness, id: &str) -> Value {
    let text = h.data_file(search_studio::secrets::SECRETS_FILE);
    serde_json::from_str::<Value>(if text.is_empty() { "{}" } else { &text }).unwrap()[id].clone()
}

#[test]
fn a_cancelled_or_replaced_browser_sign_in_stops_waiting_and_closes_its_listener() {
    let provider = OidcProvider::start(ProviderOptions::default()).unwrap();
    let server = servers::provider_server(provider.issuer());
    let h = harness();
    let id = browser_connection(&h, provider.issuer(), &server.url);

    let first = h.invoke_later("sign_in_browser", json!({"id": id}));
    let first_page = h.browser.page(1);
    let second = h.invoke_later("sign_in_browser", json!({"id": id}));
    let second_page = h.browser.page(2);
    let replaced = first.join().unwrap().unwrap_err();
    assert_eq!(replaced["code"], "task", "{replaced}");
    assert!(replaced["message"].as_str().unwrap().contains("cancelled"), "{replaced}");
    assert!(TcpStream::connect(redirect_address(&first_page)).is_err(), "the first listener is closed");

    assert_eq!(h.ok("cancel_sign_in", json!({"id": id})), Value::Null);
    assert_eq!(second.join().unwrap().unwrap_err()["code"], "task");
    assert!(TcpStream::connect(redirect_address(&second_page)).is_err(), "the cancelled listener is closed");
    assert_eq!(h.connection(&id)["signedIn"], false);
    assert_eq!(h.ok("cancel_sign_in", json!({"id": id})), Value::Null, "nothing waiting is no error");

    h.browser.sign_in_as("ana", "ana-password");
    assert_eq!(h.ok("sign_in_browser", json!({"id": id}))["connections"][1]["signedIn"], true);
}

#[test]
fn what_a_sign_in_obtains_after_its_connection_was_edited_or_removed_is_not_kept() {
    let provider = OidcProvider::start(ProviderOptions::default()).unwrap();
    let server = servers::provider_server(provider.issuer());
    let h = harness();
    let id = browser_connection(&h, provider.issuer(), &server.url);

    // The designer finishes in the browser only after changing the connection's client.
    let pending = h.invoke_later("sign_in_browser", json!({"id": id}));
    let page = h.browser.page(1);
    let edit = connection_input(
        "Production",
        &server.url,
        "browser",
        json!({"id": id, "issuer": provider.issuer(), "clientId": "ppt"}),
    );
    h.ok("save_connection", json!({"input": edit}));
    studio_testkit::browser_sign_in(&page, "ana", "ana-password").unwrap();
    let stale = pending.join().unwrap().unwrap_err();
    assert_eq!(stale["code"], "conflict", "{stale}");
    assert!(stale["message"].as_str().unwrap().contains("was changed while signing in"), "{stale}");
    assert_eq!(h.connection(&id)["signedIn"], false);
    assert!(saved_secrets(&h, &id)["refreshToken"].is_null(), "no token of the old client was kept");

    // Removed while the browser is open: the wait ends, and nothing is kept for the removed connection.
    let pending = h.invoke_later("sign_in_browser", json!({"id": id}));
    h.browser.page(2);
    h.ok("remove_connection", json!({"id": id}));
    assert_eq!(pending.join().unwrap().unwrap_err()["code"], "task");
    assert!(saved_secrets(&h, &id).is_null());
    assert_eq!(h.ok("list_connections", json!({}))["connections"].as_array().unwrap().len(), 1);
}

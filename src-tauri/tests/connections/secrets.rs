//! Where secrets live when things go wrong: a keyring that does not answer at start is not taken for one
//! without secrets (nothing partial is saved over what it keeps), a keyring write given up on that lands
//! later does not bring back older secrets, and a damaged secrets file does not stop the app: it is set
//! aside, kept, and Settings says so without quoting it.

use std::time::Duration;

use serde_json::{json, Value};
use studio_testkit::{OidcProvider, ProviderOptions};

use crate::harness::keyring::TestKeyring;
use crate::harness::{connection_input, harness_in, harness_with, servers};
use search_studio::secrets::SECRETS_FILE;
use search_studio::PREFS_FILE;

const WAIT: Duration = Duration::from_secs(60);

#[test]
fn a_keyring_that_does_not_answer_at_start_keeps_what_it_holds_and_gets_nothing_partial() {
    let provider = OidcProvider::start(ProviderOptions::default()).unwrap();
    let server = servers::provider_server(provider.issuer());
    let keyring = TestKeyring::new();
    let h = harness_with(tempfile::tempdir().unwrap(), WAIT, Some(keyring.access()));
    let input = connection_input(
        "Production",
        &server.url,
        "password",
        json!({"issuer": provider.issuer(),
        "username": "ana", "password": "ana-password", "rememberPassword": true, "clientSecret": "ppt-secret"}),
    );
    let id = h.ok("save_connection", json!({"input": input}))["connections"][1]["id"].as_str().unwrap().to_owned();
    assert_eq!(h.connection(&id)["secretStorage"], "keyring");
    let user = format!("connection:{id}");
    let kept = keyring.entry(&user).unwrap();
    assert!(kept.contains("ana-password") && kept.contains("ppt-secret"), "what the keyring holds");
    assert!(!h.data_file(SECRETS_FILE).contains("ana-password"), "the file only says the keyring has it");

    // The next start, the keyring does not answer (then does again).
    keyring.stall();
    let h = h.restart();
    keyring.resume();
    let writes_before = keyring.log().iter().filter(|call| !call.starts_with("get")).count();
    let notices = h.notices();
    assert!(notices.iter().any(|n| n.contains("keyring did not answer") && n.contains("Production")), "{notices:?}");
    let shown = h.connection(&id);
    assert_eq!((shown["signedIn"].clone(), shown["hasPassword"].clone()), (json!(false), json!(false)));

    // A change made now (a new client secret) holds for this session and is saved nowhere.
    let mut edit = connection_input(
        "Production",
        &server.url,
        "password",
        json!({"id": id, "issuer": provider.issuer(),
        "username": "ana", "rememberPassword": true, "clientSecret": "another-secret"}),
    );
    edit["password"] = Value::Null;
    h.ok("save_connection", json!({"input": edit}));
    assert_eq!(h.connection(&id)["hasClientSecret"], true);
    assert_eq!(keyring.log().iter().filter(|call| !call.starts_with("get")).count(), writes_before);
    assert_eq!(keyring.entry(&user).unwrap(), kept, "nothing partial was written over the keyring's secrets");
    assert!(!h.data_file(SECRETS_FILE).contains("another-secret"));

    // Once the keyring answers again, everything it kept is there: signed in without asking.
    let h = h.restart();
    assert!(h.notices().is_empty(), "{:?}", h.notices());
    let shown = h.connection(&id);
    assert_eq!((shown["signedIn"].clone(), shown["hasPassword"].clone()), (json!(true), json!(true)));
    h.ok("use_connection", json!({"id": id}));
    h.ok("list_configurations", json!({}));
}

#[test]
fn a_keyring_write_that_lands_late_does_not_bring_back_older_secrets() {
    let server = servers::token_server(|_| {});
    server.create(json!({"config": {"title": "Remote", "searchSpace": "demo"}}));
    let keyring = TestKeyring::new();
    let h = harness_with(tempfile::tempdir().unwrap(), WAIT, Some(keyring.access()));
    let id = h.add_token_connection("Staging", &server.url, "first-token");
    assert_eq!(h.connection(&id)["secretStorage"], "keyring");

    // The keyring stops answering: the app gives up on the write, keeps the token in the file and says so.
    keyring.stall();
    let token_input = |token: &str| json!({"input": connection_input("Staging", &server.url, "token", json!({"id": id, "token": token}))});
    h.ok("save_connection", token_input("given-up-token"));
    assert_eq!(h.connection(&id)["secretStorage"], "file");
    assert!(h.notices().iter().any(|n| n.contains("stopped answering")), "{:?}", h.notices());
    h.ok("save_connection", token_input(&server.token));
    // The write given up on lands now, after the newer one went to the file.
    keyring.resume();
    assert!(keyring.entry(&format!("connection:{id}")).unwrap().contains("given-up-token"));

    let h = h.restart();
    assert_eq!(h.connection(&id)["secretStorage"], "file");
    h.ok("use_connection", json!({"id": id}));
    assert_eq!(h.ok("list_configurations", json!({}))["configurations"][0]["config"]["title"], "Remote");
}

#[test]
fn a_damaged_secrets_file_is_set_aside_and_the_app_starts_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let connection = json!({"id": "c-1", "name": "Staging", "url": "https://staging.example.org", "signIn": "token",
        "issuer": null, "clientId": null, "username": null, "rememberPassword": false});
    std::fs::write(
        dir.path().join(PREFS_FILE),
        json!({"connections": [connection], "currentConnection": "local"}).to_string(),
    )
    .unwrap();
    let damaged = "{\"c-1\": {\"token\": leaked-secret-value}}";
    std::fs::write(dir.path().join(SECRETS_FILE), damaged).unwrap();

    let h = harness_in(dir, WAIT);
    assert_eq!(h.connection("c-1")["hasToken"], false);
    let notices = h.notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains("was damaged (at line 1, column 19)"), "{notices:?}");
    assert!(!notices[0].contains("leaked"), "the notice does not quote the file: {notices:?}");
    let aside: Vec<_> = std::fs::read_dir(h.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("desktop-secrets.damaged-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert!(notices[0].contains(&aside[0]), "the notice names the kept file: {notices:?}");
    assert_eq!(h.data_file(&aside[0]), damaged, "kept as it was");

    // Secrets are kept again from now on; a file damaged while the app runs is refused, not quoted.
    h.add_token_connection("Production", "https://search.example.org", "fresh-token");
    assert!(h.data_file(SECRETS_FILE).contains("fresh-token"));
    std::fs::write(h.dir.path().join(SECRETS_FILE), damaged).unwrap();
    let input = connection_input("Other", "https://other.example.org", "token", json!({"token": "t"}));
    let refused = h.invoke("save_connection", json!({"input": input})).unwrap_err();
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains(SECRETS_FILE) && message.contains("line 1, column 19"), "{message}");
    assert!(!message.contains("leaked"), "{message}");
}

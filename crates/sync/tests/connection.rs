//! The connection badge's state: a server that answers, even to refuse, is online; one that cannot be reached
//! is not. By the cases the browser build's check must satisfy too (crates/sync/cases/connection.json), and
//! against real servers on loopback.

use crate::support;

use serde_json::{json, Value};
use studio_model::ErrorCode;
use studio_remote::RemoteBackend;
use studio_sync::{check_connection, ConnectionState, LOCAL_KEY};

#[test]
fn the_shared_connection_cases_hold() {
    let file: Value = serde_json::from_str(include_str!("../cases/connection.json")).expect("JSON");
    for case in file["cases"].as_array().expect("a list of cases") {
        let failure = (!case["failure"].is_null()).then(|| {
            let code: ErrorCode = serde_json::from_value(case["failure"]["code"].clone()).expect("an error code");
            (code, case["failure"]["message"].as_str().expect("a message").to_owned())
        });
        let state = ConnectionState::after("https://a.example", failure);
        let mut want = case["state"].clone();
        want["backend"] = json!("https://a.example");
        assert_eq!(serde_json::to_value(&state).unwrap(), want, "{}", case["name"]);
    }
}

#[tokio::test]
async fn a_server_that_answers_is_online_even_when_it_refuses_the_token() {
    let remote = support::serve(|_| {}).await;
    let state = check_connection(&remote.client(), &remote.base).await;
    assert_eq!(state, ConnectionState { backend: remote.base.clone(), online: true, message: None });

    let refused = RemoteBackend::new(&remote.base, Some("not-the-token")).unwrap();
    let state = check_connection(&refused, &remote.base).await;
    assert!(state.online, "{state:?}");
    assert!(state.message.is_some(), "the refusal is shown: {state:?}");
}

#[tokio::test]
async fn a_server_that_cannot_be_reached_is_offline_with_the_reason() {
    // A port that was just free: nothing listens there.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let state = check_connection(&RemoteBackend::new(&base, None).unwrap(), &base).await;
    assert!(!state.online, "{state:?}");
    assert!(state.message.is_some_and(|m| !m.is_empty()));
}

#[tokio::test]
async fn the_local_store_is_always_online() {
    let (_dir, local, _sync) = support::app_store();
    let state = check_connection(&local, LOCAL_KEY).await;
    assert_eq!(state, ConnectionState { backend: LOCAL_KEY.into(), online: true, message: None });
}

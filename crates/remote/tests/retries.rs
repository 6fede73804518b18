//! Retries: idempotent requests survive two 502/503/504 answers or refused connections, `Retry-After` is
//! honoured up to its cap, and writes that leave a history row are never repeated once the server may have seen them.

use std::time::Duration;

use serde_json::json;
use studio_model::{Backend, BackendError, Caller};
use studio_remote::{RemoteBackend, RemoteOptions};
use studio_testkit::http::{api_error, free_port, json, response, FakeServer, Reply};

fn caller() -> Caller {
    Caller { user: "ana".into() }
}

fn list_answer() -> Reply {
    json(200, json!({"configurations": [], "activeId": null, "message": "0 configurations"}))
}

fn fast() -> RemoteOptions {
    RemoteOptions::default().backoff(Duration::from_millis(1))
}

#[tokio::test]
async fn two_503s_then_success_is_a_success_after_three_attempts() {
    let server = FakeServer::start(|n, _| if n < 2 { api_error(503, "warming up") } else { list_answer() }).await;
    let client = RemoteBackend::with_options(&server.base, None, fast()).unwrap();
    let list = client.list_configurations().await.unwrap();
    assert!(list.configurations.is_empty());
    assert_eq!(server.hits(), 3);
}

#[tokio::test]
async fn three_failures_give_up_with_the_last_answer() {
    let server = FakeServer::start(|n, _| match n {
        0 => response(502, "", "", &[]),
        1 => response(504, "", "", &[]),
        _ => api_error(503, "still down"),
    })
    .await;
    let client = RemoteBackend::with_options(&server.base, None, fast()).unwrap();
    let err = client.get_configuration(1).await.unwrap_err();
    assert_eq!(err, BackendError::BadGateway(format!("{} failed to answer (503): still down", server.base)));
    assert_eq!(server.hits(), 3);
}

#[tokio::test]
async fn search_is_retried_but_create_update_and_set_active_are_not() {
    let server = FakeServer::start(|n, _| match n {
        0 => api_error(503, "busy"),
        1 => json(200, json!({"total": 0})),
        _ => api_error(503, "busy"),
    })
    .await;
    let client = RemoteBackend::with_options(&server.base, None, fast()).unwrap();
    let answer = client.search(1, Default::default()).await.unwrap();
    assert_eq!(answer.total, 0);
    assert_eq!(server.hits(), 2);
    let err = client
        .create_configuration(&caller(), json!({"config": {"title": "A", "searchSpace": "s"}}))
        .await
        .unwrap_err();
    assert_eq!(err, BackendError::BadGateway(format!("{} failed to answer (503): busy", server.base)));
    assert_eq!(server.hits(), 3, "a create the server may have seen is sent once");
    client.set_active(&caller(), 1).await.unwrap_err();
    assert_eq!(server.hits(), 4);
    // An update leaves a history row each time it is written: a gateway that forwarded it and answered 502
    // must not make it two.
    client.update_configuration(&caller(), 1, json!({"config": {"title": "B"}})).await.unwrap_err();
    assert_eq!(server.hits(), 5, "an update the server may have seen is sent once");
}

#[tokio::test]
async fn retry_after_is_honoured() {
    let server = FakeServer::start(|n, _| match n {
        0 => response(503, "", "", &["Retry-After: 1"]),
        _ => list_answer(),
    })
    .await;
    let client = RemoteBackend::with_options(&server.base, None, fast()).unwrap();
    client.list_configurations().await.unwrap();
    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    // The backoff is 1 ms; only the header can make the client wait this long.
    assert!(seen[1].at - seen[0].at >= Duration::from_millis(950), "{:?}", seen[1].at - seen[0].at);
}

#[tokio::test]
async fn retry_after_is_capped() {
    let server = FakeServer::start(|n, _| match n {
        0 => response(503, "", "", &["Retry-After: 3600"]),
        1 => response(429, "", "", &["Retry-After: Wed, 21 Oct 2065 07:28:00 GMT"]),
        _ => list_answer(),
    })
    .await;
    let client =
        RemoteBackend::with_options(&server.base, None, fast().max_retry_after(Duration::from_millis(20))).unwrap();
    client.list_configurations().await.unwrap();
    assert_eq!(server.hits(), 3);
}

#[tokio::test]
async fn a_refused_connection_is_retried_even_for_a_create_because_nothing_was_sent() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let client =
        RemoteBackend::with_options(&base, None, RemoteOptions::default().backoff(Duration::from_secs(2))).unwrap();
    let create = tokio::spawn(async move { client.create_configuration(&caller(), json!({"config": {}})).await });
    // The first attempt is refused at once; the server comes up well within the 2 s backoff before the retry.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let server = FakeServer::start_on(port, |_, _| json(200, json!({"config": {"user": "u", "config": {}}}))).await;
    let outcome = create.await.unwrap();
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(server.hits(), 1);
}

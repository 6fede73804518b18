//! Each way a server can misbehave, against a fake server written here, maps to the right `BackendError`
//! (its code decides what the UI offers) with a message a designer can act on.

use std::time::Duration;

use serde_json::json;
use studio_model::{Backend, BackendError};
use studio_remote::{RemoteBackend, RemoteError, RemoteOptions};
use studio_testkit::http::{api_error, cut_short, free_port, json, response, FakeServer, Reply};

fn quick() -> RemoteOptions {
    RemoteOptions::default().backoff(Duration::from_millis(1)).request_timeout(Duration::from_millis(300))
}

fn client(server: &FakeServer) -> RemoteBackend {
    RemoteBackend::with_options(&server.base, Some("t0ken"), quick()).unwrap()
}

fn caller() -> studio_model::Caller {
    studio_model::Caller { user: "ana".into() }
}

#[tokio::test]
async fn connection_refused_is_unreachable_naming_the_server() {
    let base = format!("http://127.0.0.1:{}", free_port());
    let client = RemoteBackend::with_options(&base, Some("t"), quick()).unwrap();
    let err = client.list_configurations().await.unwrap_err();
    let BackendError::BadGateway(message) = &err else { panic!("{err:?}") };
    assert!(message.starts_with(&format!("cannot reach {base}: ")), "{message}");
    assert!(message.to_lowercase().contains("refused"), "{message}");
    assert!(err.is_unreachable());
}

#[tokio::test]
async fn a_connection_closed_mid_body_is_a_lost_connection() {
    let server = FakeServer::start(|_, _| cut_short(5000)).await;
    let err = client(&server).list_configurations().await.unwrap_err();
    assert!(matches!(err, BackendError::BadGateway(_)), "{err:?}");
    assert!(err.to_string().contains("broke before its answer was complete"), "{err}");
    assert_eq!(server.hits(), 1, "a broken answer is not retried");
}

#[tokio::test]
async fn an_answer_slower_than_the_timeout_is_timed_out() {
    let server = FakeServer::start(|_, _| Reply::Stall).await;
    let err = client(&server).get_configuration(1).await.unwrap_err();
    assert_eq!(err, BackendError::Timeout(format!("{} did not answer within 0.3 s", server.base)));
    assert_eq!(server.hits(), 1, "timeouts are not retried");
}

#[tokio::test]
async fn an_answer_larger_than_the_limit_is_refused_whether_or_not_its_length_is_declared() {
    // A valid list answer of about 20 KB, read whole with the default limit.
    let big = json!({"configurations": [], "activeId": null, "message": "x".repeat(20_000)}).to_string();
    let declared = big.clone();
    let server = FakeServer::start(move |_, _| response(200, "application/json", &declared, &[])).await;
    let roomy = RemoteBackend::with_options(&server.base, Some("t"), quick()).unwrap();
    assert!(roomy.list_configurations().await.unwrap().configurations.is_empty());
    let small = RemoteBackend::with_options(&server.base, Some("t"), quick().max_answer_bytes(10_000)).unwrap();
    let err = small.list_configurations().await.unwrap_err();
    assert_eq!(
        err,
        BackendError::BadGateway(format!(
            "{} sent an answer larger than 10000 bytes to GET /api/configurations; it was not read",
            server.base
        ))
    );
    assert_eq!(server.hits(), 2, "a too large answer is not asked for again");

    // Sent in chunks without a declared length, it is refused once the chunks add up to more than the limit.
    let chunks: String =
        big.as_bytes().chunks(4_000).map(|c| format!("{:x}\r\n{}\r\n", c.len(), String::from_utf8_lossy(c))).collect();
    let chunked = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{chunks}0\r\n\r\n"
    );
    let server = FakeServer::start(move |_, _| Reply::Raw(chunked.clone().into_bytes())).await;
    let roomy = RemoteBackend::with_options(&server.base, Some("t"), quick()).unwrap();
    assert!(roomy.list_configurations().await.unwrap().configurations.is_empty(), "the chunked answer itself is good");
    let small = RemoteBackend::with_options(&server.base, Some("t"), quick().max_answer_bytes(10_000)).unwrap();
    let err = small.list_configurations().await.unwrap_err();
    assert!(err.to_string().contains("sent an answer larger than 10000 bytes"), "{err:?}");
}

#[tokio::test]
async fn html_instead_of_json_is_not_the_api_with_status_and_first_bytes() {
    let page = format!(
        "<!doctype html><html><head><title>Welcome to nginx!</title></head><body>{}</body></html>",
        "x".repeat(500)
    );
    let server = FakeServer::start(move |_, _| response(200, "text/html; charset=utf-8", &page, &[])).await;
    let err = client(&server).list_configurations().await.unwrap_err();
    let BackendError::BadGateway(message) = &err else { panic!("{err:?}") };
    let (problem, start) = message.split_once("; it began: ").unwrap_or_else(|| panic!("{message}"));
    assert!(problem.contains("is not the Search Studio API (HTTP 200"), "{problem}");
    assert!(problem.contains("GET /api/configurations") && problem.contains("text/html"), "{problem}");
    assert!(start.starts_with("<!doctype html><html><head><title>Welcome to nginx!"), "{start}");
    assert!(start.chars().count() <= 201, "only the first bytes: {start}");
}

#[tokio::test]
async fn json_of_the_wrong_shape_names_the_field_not_just_serde() {
    let server = FakeServer::start(|n, _| match n {
        0 => json(200, json!({"configurations": "none", "activeId": 1})),
        1 => json(200, json!([1, 2, 3])),
        _ => response(200, "application/json", "{\"configuration\": {", &[]),
    })
    .await;
    let client = client(&server);
    let err = client.list_configurations().await.unwrap_err();
    let BackendError::BadGateway(message) = &err else { panic!("{err:?}") };
    let (problem, start) = message.split_once("; it began: ").unwrap_or_else(|| panic!("{message}"));
    assert!(problem.contains("field `configurations` has the wrong shape"), "{problem}");
    assert!(start.contains("\"none\""), "{start}");
    let err = client.list_configurations().await.unwrap_err();
    assert!(err.to_string().contains("the answer has the wrong shape"), "{err}");
    let err = client.get_configuration(3).await.unwrap_err();
    assert!(err.to_string().contains("the body is not valid JSON"), "{err}");
}

#[tokio::test]
async fn a_500_with_or_without_a_body_is_a_server_failure_and_is_not_retried() {
    let server = FakeServer::start(|n, _| match n {
        0 => api_error(500, "database is locked"),
        1 => response(500, "", "", &[]),
        _ => response(500, "text/html", "<h1>Internal Server Error</h1>", &[]),
    })
    .await;
    let client = client(&server);
    let err = client.get_configuration(1).await.unwrap_err();
    assert_eq!(err.to_string(), format!("{} failed to answer (500): database is locked", server.base));
    let err = client.get_configuration(1).await.unwrap_err();
    assert_eq!(
        err,
        BackendError::BadGateway(format!("{} failed to answer (500): its answer had no body", server.base))
    );
    let err = client.get_configuration(1).await.unwrap_err();
    assert!(err.to_string().ends_with("its answer began: <h1>Internal Server Error</h1>"), "{err}");
    assert_eq!(server.hits(), 3);
    assert!(matches!(err, BackendError::BadGateway(_)));
}

#[tokio::test]
async fn statuses_401_403_404_are_their_own_errors() {
    let server = FakeServer::start(|n, _| match n {
        0 => api_error(401, "missing or unknown access token"),
        1 => api_error(403, "group readers may not write"),
        2 => api_error(404, "configuration 9 does not exist"),
        3 => response(404, "text/html", "<p>nope</p>", &[]),
        4 => response(401, "", "", &[]),
        _ => api_error(405, "this path does not accept that method"),
    })
    .await;
    let client = client(&server);
    let err = client.list_configurations().await.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{} rejected the access token (401): missing or unknown access token", server.base)
    );
    assert!(matches!(err, BackendError::Unauthorized(_)), "{err:?}");
    let err = client.list_configurations().await.unwrap_err();
    assert!(matches!(err, BackendError::Forbidden(_)), "{err:?}");
    assert!(err.to_string().contains("does not allow this (403): group readers may not write"));
    let err = client.get_configuration(9).await.unwrap_err();
    assert_eq!(err, BackendError::NotFound("configuration 9 does not exist".into()));
    let err = client.get_configuration(9).await.unwrap_err();
    assert_eq!(err.to_string(), format!("GET /api/configurations/9 does not exist on {}", server.base));
    let err = client.list_configurations().await.unwrap_err();
    assert!(err.to_string().ends_with("GET /api/configurations was answered 401 with no reason given"), "{err}");
    let err = client.delete_configuration(&caller(), 2).await.unwrap_err();
    assert!(matches!(err, BackendError::Upstream { status: 405, .. }), "{err:?}");
    assert!(err.to_string().contains("refused the request (405)"), "{err}");
}

#[tokio::test]
async fn the_backend_trait_gives_the_mapped_errors() {
    let server = FakeServer::start(|_, _| api_error(409, "configuration 1 is the active one")).await;
    let backend = RemoteBackend::with_options(&server.base, Some("t"), quick()).unwrap();
    let err = backend.delete_configuration(&caller(), 1).await.unwrap_err();
    assert_eq!(err, BackendError::Conflict("configuration 1 is the active one".into()));
}

#[test]
fn base_urls_are_checked_and_normalised() {
    for bad in ["localhost:8080", "ftp://host", "not a url", "http://host/?q=1"] {
        let err = RemoteBackend::new(bad, None).err().expect(bad);
        assert!(matches!(err, RemoteError::BadBaseUrl { .. }), "{err:?}");
        assert!(err.to_string().starts_with(&format!("`{bad}` is not a usable server address")), "{err}");
    }
    for (given, base) in
        [("http://h:1/", "http://h:1"), ("http://h:1/api/", "http://h:1"), ("https://h/app", "https://h/app")]
    {
        assert_eq!(RemoteBackend::new(given, None).unwrap().base_url(), base);
    }
}

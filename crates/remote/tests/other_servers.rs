//! Servers of the API other than this project's (the production server): an extension the server lacks
//! is reported as not offered and never asked for again, what its OpenAPI document lists decides what is
//! offered from the start, and its own shapes of the extensions' answers are read leniently.

use serde_json::json;
use studio_model::{Backend, BackendError, Extension, LogAction};
use studio_remote::{RemoteBackend, RemoteOptions};
use studio_testkit::http::{api_error, json, FakeServer, Reply, Seen};

/// Spring Boot's default error body.
fn spring(status: u16, error: &str, seen: &Seen) -> Reply {
    let path = seen.line.split_whitespace().nth(1).unwrap_or_default().to_owned();
    json(status, json!({"timestamp": "2026-11-23T10:00:00.000+00:00", "status": status, "error": error, "path": path}))
}

fn envelope(id: i32) -> serde_json::Value {
    json!({"id": id, "user": "ana", "created": "2026-11-23T10:00:00.000Z", "config": {"title": "News", "searchSpace": "news"}})
}

/// A server that offers the API's nine operations only and answers the rest as Spring does.
async fn api_only(documented: Option<serde_json::Value>) -> FakeServer {
    FakeServer::start(move |_, seen| {
        let target = seen.line.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        match target.as_str() {
            "GET /api-docs" => match &documented {
                Some(doc) => json(200, doc.clone()),
                None => spring(404, "Not Found", seen),
            },
            "GET /api/configurations/4" => json(200, json!({"configuration": envelope(4)})),
            "GET /api/configurations/9" => api_error(404, "configuration 9 does not exist"),
            "DELETE /api/configurations/4" => spring(405, "Method Not Allowed", seen),
            _ => spring(404, "Not Found", seen),
        }
    })
    .await
}

fn caller() -> studio_model::Caller {
    studio_model::Caller { user: "ana".into() }
}
#[tokio::test]
async fn an_extension_the_server_lacks_is_not_offered_and_not_asked_for_again() {
    let server = api_only(None).await;
    let backend = RemoteBackend::new(&server.base, Some("t")).unwrap();
    let caller = studio_model::Caller { user: "ana".into() };

    let err = backend.set_active(&caller, 4).await.unwrap_err();
    assert_eq!(err, BackendError::NotOffered(format!("{} does not offer making a configuration active", server.base)));
    assert_eq!(err.status(), 501);
    let err = backend.delete_configuration(&caller, 4).await.unwrap_err();
    assert!(
        matches!(&err, BackendError::NotOffered(m) if m.ends_with("does not offer deleting a configuration")),
        "{err:?}"
    );
    assert!(matches!(backend.search_spaces().await, Err(BackendError::NotOffered(_))));
    assert!(matches!(backend.configuration_logs(4).await, Err(BackendError::NotOffered(_))));
    let err = backend.facet_health("news").await.unwrap_err();
    assert_eq!(
        err,
        BackendError::NotOffered(format!("{} does not offer facet health of a search space's fields", server.base))
    );

    let offers = backend.offers().await;
    assert!(!offers.set_active && !offers.delete && !offers.search_spaces && !offers.logs && !offers.facet_health);
    assert!(offers.visible, "not refused yet and not documented: still offered");
    let before = server.hits();
    assert!(matches!(backend.set_active(&caller, 4).await, Err(BackendError::NotOffered(_))));
    assert_eq!(server.hits(), before, "a refused extension is not asked for again");

    // This API's own 404 on a configuration that does not exist is not "not offered".
    let client = RemoteBackend::with_options(&server.base, Some("t"), RemoteOptions::default()).unwrap();
    let err = client.get_configuration(9).await.unwrap_err();
    assert_eq!(err, BackendError::NotFound("configuration 9 does not exist".into()));
}

#[tokio::test]
async fn the_openapi_document_decides_what_is_offered_from_the_start() {
    let swagger = json!({
        "swagger": "2.0",
        "basePath": "/",
        "paths": {
            "/api/configurations": {"get": {}, "post": {}},
            "/api/configurations/{configId}": {"get": {}, "put": {}},
            "/api/configurations/{configId}/set": {"post": {}},
            "/api/configurations/visible": {"get": {}},
        }
    });
    let server = api_only(Some(swagger)).await;
    let backend = RemoteBackend::new(&server.base, Some("t")).unwrap();
    let offers = backend.offers().await;
    assert_eq!(offers.missing(), [Extension::Logs, Extension::Delete, Extension::SearchSpaces, Extension::FacetHealth]);
    let before = server.hits();
    assert!(matches!(backend.search_spaces().await, Err(BackendError::NotOffered(_))));
    assert!(matches!(backend.facet_health("news").await, Err(BackendError::NotOffered(_))));
    assert_eq!(server.hits(), before, "what the document leaves out is not asked for");
    backend.offers().await;
    assert_eq!(server.hits(), before, "the document is read once");
}

#[tokio::test]
async fn other_servers_shapes_of_the_extensions_answers_are_read() {
    let server = FakeServer::start(|_, seen| {
        let target = seen.line.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        match target.as_str() {
            // make-active answered with a message only: the configuration is read afterwards
            "POST /api/configurations/4/set" => json(200, json!({"message": "configuration 4 is now the default"})),
            "GET /api/configurations/4" => json(200, json!({"configuration": envelope(4)})),
            "GET /api/configurations/visible" => json(200, json!([envelope(4), {"no": "configuration"}])),
            "GET /api/configurations/4/logs" => json(
                200,
                json!([
                    {"timestamp": "2026-11-23T10:00:00Z", "username": "ana", "action": "publish", "configuration": envelope(4)},
                    {"at": "2026-11-22T10:00:00Z", "user": "bob", "action": "update", "config": envelope(4), "extra": 1},
                    {"at": "2026-11-21T10:00:00Z", "user": "cy", "action": "update"}
                ]),
            ),
            _ => api_error(404, "no"),
        }
    })
    .await;
    let client = RemoteBackend::with_options(&server.base, Some("t"), RemoteOptions::default()).unwrap();
    assert_eq!(client.set_active(&caller(), 4).await.unwrap().id, Some(4));
    let visible = client.visible_configurations().await.unwrap();
    assert_eq!(visible.iter().map(|c| c.id).collect::<Vec<_>>(), [Some(4)]);
    let logs = client.configuration_logs(4).await.unwrap();
    assert_eq!(logs.len(), 2, "an entry without a configuration is left out");
    assert_eq!(
        (logs[0].user.as_str(), logs[0].action, logs[0].at.as_str()),
        ("ana", LogAction::Other, "2026-11-23T10:00:00Z")
    );
    assert_eq!((logs[1].user.as_str(), logs[1].action), ("bob", LogAction::Update));
}

#[tokio::test]
async fn a_failed_read_of_the_openapi_document_is_tried_again_and_carries_no_token() {
    let server = FakeServer::start(|n, seen| {
        let target = seen.line.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        match (n, target.as_str()) {
            (0, "GET /api-docs") => api_error(500, "starting up"),
            (_, "GET /api-docs") => {
                json(200, json!({"swagger": "2.0", "basePath": "/api", "paths": {"/configurations": {"get": {}}}}))
            }
            _ => api_error(404, "no"),
        }
    })
    .await;
    let backend = RemoteBackend::new(&server.base, Some("t0ken")).unwrap();
    assert_eq!(backend.offers().await.missing(), [], "nothing is known yet: everything counts as offered");
    assert_eq!(backend.offers().await.missing(), Extension::ALL, "the document is read again and lists no extension");
    assert!(
        server.seen().iter().all(|s| s.header("authorization").is_none()),
        "the public document is read without the token"
    );
}

//! The router's test setup: the router over a real local store in a temp directory, called in-process
//! (`oneshot`), with users of differing rights. Fixtures that other crates' tests share live in studio-testkit.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use studio_local::{LocalBackend, Store};
use studio_server::{token_digest, Auth};
use tower::ServiceExt;

pub const ADMIN: &str = "admin-token";
pub const READER: &str = "reader-token";
pub const SEARCHER: &str = "searcher-token";
pub const NEWS_ONLY: &str = "news-only-token";

pub struct TestApp {
    pub router: Router,
    _dir: tempfile::TempDir,
}

pub fn auth_file_json() -> Value {
    json!({
        "users": [
            { "name": "ana", "tokenSha256": token_digest(ADMIN), "groups": ["designers"] },
            { "name": "rita", "tokenSha256": token_digest(READER), "groups": ["readers"] },
            { "name": "sam", "tokenSha256": token_digest(SEARCHER), "groups": ["searchers"] },
            { "name": "nina", "tokenSha256": token_digest(NEWS_ONLY), "groups": ["news"] }
        ],
        "groups": [
            { "name": "designers", "operations": ["read", "write", "search"], "searchSpaces": ["*"] },
            { "name": "readers", "operations": ["read"], "searchSpaces": ["*"] },
            { "name": "searchers", "operations": ["search"], "searchSpaces": ["*"] },
            { "name": "news", "operations": ["read", "write", "search"], "searchSpaces": ["news"] }
        ]
    })
}

pub fn app() -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let auth_path = dir.path().join("auth.json");
    std::fs::write(&auth_path, auth_file_json().to_string()).unwrap();
    let auth = Auth::from_file(&auth_path).expect("auth file reads");
    let backend = LocalBackend::new(Store::open_dir(&dir.path().join("data")).unwrap());
    let router = studio_server::router(Arc::new(backend), Arc::new(auth), None);
    TestApp { router, _dir: dir }
}

pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
}

impl TestApp {
    pub async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body =
            serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        Answer { status, body }
    }

    pub async fn call(&self, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Answer {
        let mut builder = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            builder = builder.header("authorization", format!("Bearer {token}"));
        }
        let request = match body {
            Some(body) => builder.header("content-type", "application/json").body(Body::from(body.to_string())),
            None => builder.body(Body::empty()),
        };
        self.send(request.unwrap()).await
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.call("GET", path, Some(ADMIN), None).await
    }

    /// Creates a configuration as the admin and returns its id.
    pub async fn create(&self, title: &str, space: &str) -> i32 {
        let answer = self
            .call(
                "POST",
                "/api/configurations",
                Some(ADMIN),
                Some(json!({"config": {"title": title, "searchSpace": space}})),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        answer.body["config"]["id"].as_i64().unwrap() as i32
    }
}

/// Asserts an error answer has the error body of docs/api.md, Errors, and returns its message.
pub fn assert_error(answer: &Answer, status: u16) -> String {
    assert_eq!(answer.status.as_u16(), status, "{}", answer.body);
    assert_eq!(answer.body["status"], status, "{}", answer.body);
    assert_eq!(answer.body["error"], answer.status.canonical_reason().unwrap(), "{}", answer.body);
    let message = answer.body["message"].as_str().expect("message").to_owned();
    assert!(!message.is_empty());
    message
}

//! Bad requests get a clear 4xx with the error body, and leave the store as it was.

use axum::body::Body;
use axum::http::Request;
use serde_json::{json, Value};

use crate::common::{app, assert_error, TestApp, ADMIN};

async fn snapshot(app: &TestApp) -> Value {
    app.get("/api/configurations").await.body["configurations"].clone()
}

fn raw(method: &str, path: &str, content_type: Option<&str>, body: impl Into<Body>) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(path).header("authorization", format!("Bearer {ADMIN}"));
    if let Some(ct) = content_type {
        builder = builder.header("content-type", ct);
    }
    builder.body(body.into()).unwrap()
}

#[tokio::test]
async fn malformed_bodies_are_400_and_change_nothing() {
    let app = app();
    let id = app.create("Shop", "demo").await;
    let before = snapshot(&app).await;
    for (method, path) in [("POST", "/api/configurations".to_owned()), ("PUT", format!("/api/configurations/{id}"))] {
        for body in ["{\"config\": ", "[1,2,3]", "\"text\"", "42", "{\"config\": []}", "{\"title\": \"no envelope\"}"] {
            let answer = app.send(raw(method, &path, Some("application/json"), body.to_owned())).await;
            let message = assert_error(&answer, 400);
            assert!(
                message.contains("JSON") || message.contains("config") || message.contains("object"),
                "{body}: {message}"
            );
        }
    }
    assert_eq!(snapshot(&app).await, before);
}

#[tokio::test]
async fn wrong_types_in_a_search_body_name_the_field() {
    let app = app();
    let id = app.create("Shop", "demo").await;
    for (body, field) in [
        (json!({"input": 5}), "input"),
        (json!({"start": "ten"}), "start"),
        (json!({"start": 1.5}), "start"),
        (json!({"selectedFacets": {"field": "x"}}), "selectedFacets"),
        (json!({"selectedFacets": [{"field": 3}]}), "selectedFacets[0].field"),
    ] {
        let answer =
            app.call("POST", &format!("/api/configurations/{id}/search"), Some(ADMIN), Some(body.clone())).await;
        let message = assert_error(&answer, 400);
        assert!(message.contains(field), "{body}: {message}");
    }
    let negative =
        app.call("POST", &format!("/api/configurations/{id}/search"), Some(ADMIN), Some(json!({"start": -1}))).await;
    assert!(assert_error(&negative, 400).contains("start"));
    let array = app.call("POST", &format!("/api/configurations/{id}/search"), Some(ADMIN), Some(json!([]))).await;
    assert_error(&array, 400);
}

#[tokio::test]
async fn ids_that_are_not_int32_are_400_naming_the_id() {
    let app = app();
    for id in ["abc", "1.5", "2147483648", "-2147483649", "99999999999999999999", "%20"] {
        for path in [format!("/api/configurations/{id}"), format!("/api/configurations/{id}/logs")] {
            let message = assert_error(&app.get(&path).await, 400);
            assert!(message.contains("32-bit"), "{path}: {message}");
        }
    }
    assert_error(&app.get("/api/configurations/2147483647").await, 404);
    assert_error(&app.get("/api/configurations/-1").await, 404);
}

#[tokio::test]
async fn a_body_over_one_mebibyte_is_413_and_changes_nothing() {
    let app = app();
    let id = app.create("Shop", "demo").await;
    let before = snapshot(&app).await;
    let huge = json!({"config": {"title": "x".repeat(2 * 1024 * 1024), "searchSpace": "demo"}}).to_string();
    for (method, path) in [("POST", "/api/configurations".to_owned()), ("PUT", format!("/api/configurations/{id}"))] {
        let message = assert_error(&app.send(raw(method, &path, Some("application/json"), huge.clone())).await, 413);
        assert!(message.contains("1 MiB"), "{message}");
    }
    assert_eq!(snapshot(&app).await, before);
}

#[tokio::test]
async fn a_body_without_json_content_type_is_415() {
    let app = app();
    let before = snapshot(&app).await;
    let body = json!({"config": {"title": "x", "searchSpace": "demo"}}).to_string();
    for ct in [None, Some("text/plain"), Some("application/x-www-form-urlencoded")] {
        let message = assert_error(&app.send(raw("POST", "/api/configurations", ct, body.clone())).await, 415);
        assert!(message.contains("application/json"), "{message}");
    }
    assert_eq!(
        app.send(raw("POST", "/api/configurations", Some("application/json; charset=utf-8"), body)).await.status,
        200
    );
    assert_ne!(snapshot(&app).await, before);
}

#[tokio::test]
async fn a_wrong_method_is_405_and_an_unknown_path_404() {
    let app = app();
    let id = app.create("Shop", "demo").await;
    for (method, path) in [
        ("PATCH", format!("/api/configurations/{id}")),
        ("DELETE", "/api/configurations".to_owned()),
        ("GET", format!("/api/configurations/{id}/search")),
        ("PUT", "/api/configurations/default".to_owned()),
    ] {
        assert_error(&app.call(method, &path, Some(ADMIN), None).await, 405);
    }
    assert_error(&app.get("/api/nothing-here").await, 404);
    assert_eq!(app.get(&format!("/api/configurations/{id}")).await.status, 200);
}

#[tokio::test]
async fn missing_query_parameters_are_400_naming_them() {
    let app = app();
    let id = app.create("Shop", "demo").await;
    let message = assert_error(&app.get(&format!("/api/configurations/{id}/getSimilar")).await, 400);
    assert!(message.contains("uri"), "{message}");
    let message = assert_error(&app.get(&format!("/api/configurations/{id}/getRecommendations?uri=x")).await, 400);
    assert!(message.contains("recommender"), "{message}");
    let message = assert_error(&app.get(&format!("/api/configurations/{id}/getSimilar?uri=x&number=many")).await, 400);
    assert!(message.contains("number"), "{message}");
}

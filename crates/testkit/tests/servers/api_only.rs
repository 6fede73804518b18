//! The double of the production server: Spring's answers for what it lacks, its Swagger document, and
//! forwarding to a real `studio serve`.

use serde_json::{json, Value};
use studio_testkit::{ApiOnlyOptions, ApiOnlyServer};

use crate::support::{get_json, http, json, studio_program, StudioServe};

/// Nothing listens here: answers that need no upstream must not try it.
const NO_UPSTREAM: &str = "http://127.0.0.1:9";

fn assert_spring_error(body: &Value, status: u16, error: &str, path: &str) {
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(body["error"], error, "{body}");
    assert_eq!(body["path"], path, "{body}");
    let timestamp = body["timestamp"].as_str().unwrap_or_default();
    assert!(timestamp.len() >= 20 && timestamp.contains('T'), "an ISO timestamp: {body}");
}

#[test]
fn what_production_lacks_gets_spring_boot_default_errors() {
    let server =
        ApiOnlyServer::start(NO_UPSTREAM, ApiOnlyOptions { offer: vec!["logs"], ..Default::default() }).unwrap();
    let url = server.url();
    let not_found = [
        http().delete(format!("{url}/api/configurations/1")),
        http().get(format!("{url}/api/searchspaces")),
        http().get(format!("{url}/api/searchspaces/demo/facethealth")),
        http().get(format!("{url}/api/configurations/visible")),
        http().post(format!("{url}/api/configurations/1/set")),
        http().get(format!("{url}/api/nothing/here")),
    ];
    for request in not_found {
        let request = request.build().unwrap();
        let path = request.url().path().to_owned();
        let (status, body) = json(http().execute(request).unwrap());
        assert_eq!(status, 404, "{path}: {body}");
        assert_spring_error(&body, 404, "Not Found", &path);
        assert!(body.get("message").is_none(), "Spring Boot's default error has no message: {body}");
    }

    let answer = http().patch(format!("{url}/api/configurations/1")).send().unwrap();
    assert_eq!(answer.headers()["allow"], "GET, PUT");
    let (status, body) = json(answer);
    assert_eq!(status, 405);
    assert_spring_error(&body, 405, "Method Not Allowed", "/api/configurations/1");
}

#[test]
fn api_docs_is_swagger_2_listing_only_what_is_offered() {
    let server =
        ApiOnlyServer::start(NO_UPSTREAM, ApiOnlyOptions { offer: vec!["set", "logs"], ..Default::default() }).unwrap();
    let (status, docs) = get_json(&format!("{}/api-docs", server.url()));
    assert_eq!(status, 200);
    assert_eq!(docs["swagger"], "2.0");
    assert_eq!(docs["basePath"], "/");
    let paths = docs["paths"].as_object().unwrap();
    let listed: Vec<(&str, Vec<&str>)> = paths
        .iter()
        .map(|(path, methods)| (path.as_str(), methods.as_object().unwrap().keys().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        listed,
        vec![
            ("/api/configurations", vec!["get", "post"]),
            ("/api/configurations/active", vec!["get"]),
            ("/api/configurations/default", vec!["get"]),
            ("/api/configurations/{configId}", vec!["get", "put"]),
            ("/api/configurations/{configId}/getRecommendations", vec!["get"]),
            ("/api/configurations/{configId}/getSimilar", vec!["get"]),
            ("/api/configurations/{configId}/logs", vec!["get"]),
            ("/api/configurations/{configId}/search", vec!["post"]),
            ("/api/configurations/{configId}/set", vec!["post"]),
        ]
    );

    let without = ApiOnlyServer::start(NO_UPSTREAM, ApiOnlyOptions { openapi: false, ..Default::default() }).unwrap();
    let (status, body) = get_json(&format!("{}/api-docs", without.url()));
    assert_eq!(status, 404);
    assert_spring_error(&body, 404, "Not Found", "/api-docs");
}

#[test]
fn forwards_the_api_to_studio_serve_and_serves_the_ui_under_its_policy() {
    let Some(program) = studio_program() else {
        println!(
            "note: target/debug/studio is not built (cargo build -p studio-cli), so forwarding is not tested here"
        );
        return;
    };
    let upstream = StudioServe::start(&program);
    let ui = tempfile::tempdir().unwrap();
    std::fs::write(ui.path().join("index.html"), "<!doctype html><title>Search Studio</title>").unwrap();
    std::fs::create_dir(ui.path().join("assets")).unwrap();
    std::fs::write(ui.path().join("assets/app.js"), "console.log('studio')").unwrap();
    let options = ApiOnlyOptions { offer: vec!["set"], ui_dir: Some(ui.path().to_owned()), ..Default::default() };
    let server = ApiOnlyServer::start(&upstream.url, options).unwrap();
    let url = server.url();
    let token = &upstream.token;

    let (status, created) = json(
        http()
            .post(format!("{url}/api/configurations"))
            .bearer_auth(token)
            .json(&json!({"config": {"title": "Through the double", "searchSpace": "demo"}}))
            .send()
            .unwrap(),
    );
    assert_eq!(status, 200, "{created}");
    let id = created["config"]["id"].as_i64().unwrap();
    let (status, list) = json(http().get(format!("{url}/api/configurations")).bearer_auth(token).send().unwrap());
    assert_eq!(status, 200);
    assert_eq!(list["configurations"][0]["config"]["title"], "Through the double");
    let (status, set) =
        json(http().post(format!("{url}/api/configurations/{id}/set")).bearer_auth(token).send().unwrap());
    assert_eq!(status, 200, "an offered extension is forwarded: {set}");

    let (status, missing) =
        json(http().get(format!("{url}/api/configurations/999999")).bearer_auth(token).send().unwrap());
    assert_eq!(status, 404);
    assert_spring_error(&missing, 404, "Not Found", "/api/configurations/999999");
    assert!(
        missing["message"].as_str().is_some_and(|m| m.contains("999999")),
        "the upstream's message is kept: {missing}"
    );
    let (status, unauthorised) = json(http().get(format!("{url}/api/configurations")).send().unwrap());
    assert_eq!(status, 401);
    assert_spring_error(&unauthorised, 401, "Unauthorized", "/api/configurations");

    let upstream_policy =
        http().get(format!("{}/healthz", upstream.url)).send().unwrap().headers()["content-security-policy"].clone();
    for path in ["/", "/assets/app.js", "/editor/some-route"] {
        let page = http().get(format!("{url}{path}")).send().unwrap();
        assert_eq!(page.status().as_u16(), 200, "{path}");
        assert_eq!(page.headers()["content-security-policy"], upstream_policy, "{path}");
    }
    let index = http().get(format!("{url}/editor/some-route")).send().unwrap().text().unwrap();
    assert!(index.contains("<title>Search Studio</title>"), "unknown paths get index.html: {index}");
}

//! `studio serve --upstream` and `studio pull` in front of servers shaped like a team's production server
//! (decisions.md §7): one that offers api.md's operations only and answers the rest as Spring does, and
//! one that takes a provider's short-lived tokens, which the CLI obtains and renews by itself.

mod support;

use std::process::Stdio;

use serde_json::Value;
use studio_testkit::{ApiOnlyOptions, ApiOnlyServer};
use support::{client, serve_with, studio, Served};

/// A `studio serve` over a store with the demo data, and the API-only double in front of it.
fn api_only_upstream(offer: Vec<&'static str>) -> (tempfile::TempDir, Served, ApiOnlyServer) {
    let data = tempfile::tempdir().unwrap();
    studio(&["demo-data"], data.path());
    let inner = serve_with(data.path(), &[], &[], Stdio::null());
    let double = ApiOnlyServer::start(&inner.base, ApiOnlyOptions { openapi: true, offer, ui_dir: None }).expect("the double starts");
    (data, inner, double)
}

fn call(served: &Served, method: &str, path: &str) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let answer = client(30).request(method, format!("{}{path}", served.base)).bearer_auth(&served.token).send().unwrap();
    let status = answer.status().as_u16();
    (status, answer.json().unwrap_or(Value::Null))
}

#[test]
fn a_proxy_says_what_an_api_only_upstream_does_not_offer_and_documents_only_what_it_offers() {
    let (_data, inner, double) = api_only_upstream(vec!["set"]);
    let proxy_dir = tempfile::tempdir().unwrap();
    let proxy = serve_with(proxy_dir.path(), &["--upstream", double.url()], &[("STUDIO_UPSTREAM_TOKEN", &inner.token)], Stdio::null());

    let (status, list) = call(&proxy, "GET", "/api/configurations");
    assert_eq!(status, 200, "{list}");
    let id = list["configurations"][0]["id"].as_i64().unwrap();

    for (method, path, operation) in [
        ("DELETE", format!("/api/configurations/{id}"), "deleting a configuration"),
        ("GET", "/api/searchspaces".to_owned(), "listing search spaces and their facet fields"),
        ("GET", format!("/api/configurations/{id}/logs"), "the history of a configuration"),
        ("GET", "/api/configurations/visible".to_owned(), "listing the visible configurations"),
    ] {
        let (status, body) = call(&proxy, method, &path);
        assert_eq!(status, 501, "{method} {path}: {body}");
        assert_eq!(body["error"], "Not Implemented");
        assert_eq!(body["message"], format!("{} does not offer {operation}", double.url()), "{method} {path}");
    }
    let (status, body) = call(&proxy, "POST", &format!("/api/configurations/{id}/set"));
    assert_eq!(status, 200, "the double offers make-active: {body}");

    let docs: Value = client(30).get(format!("{}/api-docs", proxy.base)).send().unwrap().json().unwrap();
    let paths = docs["paths"].as_object().unwrap();
    assert!(paths.contains_key("/api/configurations/{configId}/set"), "offered by the upstream's document");
    assert!(!paths.contains_key("/api/searchspaces") && !paths.contains_key("/api/configurations/{configId}/logs"));
    assert!(paths["/api/configurations/{configId}"].get("delete").is_none());
    assert!(paths["/api/configurations/{configId}"].get("put").is_some(), "api.md's operations stay");
    assert_eq!(docs["paths"]["/api/configurations/{configId}/search"]["post"].is_object(), true);
}

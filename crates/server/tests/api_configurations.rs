//! Operations 1–6 and the configuration extensions (docs/api.md, Operations), through the router.

use serde_json::json;

use crate::common::{app, assert_error, ADMIN};

#[tokio::test]
async fn default_settings_are_the_template() {
    let app = app();
    let answer = app.get("/api/configurations/default").await;
    assert_eq!(answer.status, 200);
    let c = &answer.body["configuration"];
    assert_eq!(c["id"], json!(null));
    assert_eq!(c["user"], "anonymous");
    assert_eq!(c["created"], json!(null));
    assert_eq!(c["config"]["result"]["itemsPerPage"], 10);
    assert_eq!(c["config"]["layout"]["navbar"]["backgroundColor"], "#00adee");
    assert!(answer.body["message"].is_string());
}

#[tokio::test]
async fn the_template_can_be_edited_and_sent_to_create() {
    let app = app();
    let mut template = app.get("/api/configurations/default").await.body["configuration"].clone();
    template["config"]["title"] = json!("From the template");
    template["config"]["searchSpace"] = json!("demo");
    let created = app.call("POST", "/api/configurations", Some(ADMIN), Some(template)).await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(created.body["errors"], json!([]));
    assert_eq!(created.body["config"]["id"], 1);
    assert_eq!(created.body["config"]["user"], "ana");
    assert!(created.body["message"].is_string());
}

#[tokio::test]
async fn list_active_and_get_follow_creates() {
    let app = app();
    let empty = app.get("/api/configurations").await;
    assert_eq!(empty.body["configurations"], json!([]));
    assert_eq!(empty.body["activeId"], json!(null));
    assert_error(&app.get("/api/configurations/active").await, 404);

    let first = app.create("First", "demo").await;
    let second = app.create("Second", "demo").await;
    let list = app.get("/api/configurations").await;
    let titles: Vec<_> =
        list.body["configurations"].as_array().unwrap().iter().map(|c| c["config"]["title"].clone()).collect();
    assert_eq!(titles, [json!("First"), json!("Second")]);
    assert_eq!(list.body["activeId"], first);
    assert_eq!(app.get("/api/configurations/active").await.body["configuration"]["id"], first);
    assert_eq!(
        app.get(&format!("/api/configurations/{second}")).await.body["configuration"]["config"]["title"],
        "Second"
    );
    let missing = assert_error(&app.get("/api/configurations/4242").await, 404);
    assert!(missing.contains("4242"), "{missing}");
}

#[tokio::test]
async fn update_reports_invalid_keys_and_stores_the_rest() {
    let app = app();
    let id = app.create("Shop", "demo").await;
    let answer = app
        .call(
            "PUT",
            &format!("/api/configurations/{id}"),
            Some(ADMIN),
            Some(json!({"config": {"result": {"itemsPerPage": 0, "summaryLength": 120}, "layout": {"documents": {"fontColor": "#zzz"}}}})),
        )
        .await;
    assert_eq!(answer.status, 200);
    let keys: Vec<_> =
        answer.body["errors"].as_array().unwrap().iter().map(|e| e["key"].as_str().unwrap().to_owned()).collect();
    assert_eq!(keys, ["config.result.itemsPerPage", "config.layout.documents.fontColor"]);
    let stored = app.get(&format!("/api/configurations/{id}")).await.body["configuration"].clone();
    assert_eq!(stored["config"]["result"]["summaryLength"], 120);
    assert_eq!(stored["config"]["result"]["itemsPerPage"], 10);
    assert_eq!(stored["config"]["layout"]["documents"]["fontColor"], "#212121");
    assert_eq!(stored, answer.body["config"]);
}

#[tokio::test]
async fn create_without_title_or_search_space_is_400_and_creates_nothing() {
    let app = app();
    let answer =
        app.call("POST", "/api/configurations", Some(ADMIN), Some(json!({"config": {"title": "No space"}}))).await;
    let message = assert_error(&answer, 400);
    assert!(message.contains("config.searchSpace"), "{message}");
    assert_eq!(app.get("/api/configurations").await.body["configurations"], json!([]));
}

#[tokio::test]
async fn unknown_fields_round_trip_through_create_get_and_update() {
    let app = app();
    let body = json!({"config": {"title": "T", "searchSpace": "s", "futureSetting": {"a": [1, 2]}}, "tenant": "acme"});
    let created = app.call("POST", "/api/configurations", Some(ADMIN), Some(body)).await.body["config"].clone();
    let id = created["id"].as_i64().unwrap();
    let updated = app
        .call("PUT", &format!("/api/configurations/{id}"), Some(ADMIN), Some(json!({"config": {"title": "T2"}})))
        .await;
    let stored = app.get(&format!("/api/configurations/{id}")).await.body["configuration"].clone();
    assert_eq!(stored, updated.body["config"]);
    assert_eq!(stored["tenant"], "acme");
    assert_eq!(stored["config"]["futureSetting"], json!({"a": [1, 2]}));
    assert_eq!(stored["config"]["title"], "T2");
}

#[tokio::test]
async fn extensions_set_active_visible_logs_and_delete() {
    let app = app();
    let first = app.create("First", "demo").await;
    let hidden = app
        .call(
            "POST",
            "/api/configurations",
            Some(ADMIN),
            Some(json!({"config": {"title": "Hidden", "searchSpace": "demo", "visible": false}})),
        )
        .await
        .body["config"]["id"]
        .as_i64()
        .unwrap();

    let visible = app.get("/api/configurations/visible").await;
    assert_eq!(visible.status, 200);
    assert_eq!(visible.body["configurations"].as_array().unwrap().len(), 1);
    assert!(visible.body["message"].is_string());

    let set = app.call("POST", &format!("/api/configurations/{hidden}/set"), Some(ADMIN), None).await;
    assert_eq!(set.status, 200, "{}", set.body);
    assert_eq!(app.get("/api/configurations").await.body["activeId"], hidden);

    let conflict =
        assert_error(&app.call("DELETE", &format!("/api/configurations/{hidden}"), Some(ADMIN), None).await, 409);
    assert!(conflict.contains("active"), "{conflict}");
    let deleted = app.call("DELETE", &format!("/api/configurations/{first}"), Some(ADMIN), None).await;
    assert_eq!(deleted.status, 200);
    assert_error(&app.get(&format!("/api/configurations/{first}")).await, 404);

    let logs = app.get(&format!("/api/configurations/{first}/logs")).await;
    assert_eq!(logs.status, 200);
    let actions: Vec<_> =
        logs.body["logs"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap().to_owned()).collect();
    assert_eq!(actions, ["delete", "create"]);
    assert_eq!(logs.body["logs"][0]["user"], "ana");
    assert!(logs.body["logs"][0]["at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(logs.body["logs"][0]["config"]["config"]["title"], "First");
}

#[tokio::test]
async fn health_and_api_docs_need_no_token_and_docs_cover_every_path() {
    let app = app();
    let health = app.call("GET", "/healthz", None, None).await;
    assert_eq!(health.status, 200);
    let docs = app.call("GET", "/api-docs", None, None).await;
    assert_eq!(docs.status, 200);
    assert!(docs.body["openapi"].as_str().unwrap().starts_with("3."));
    let paths = docs.body["paths"].as_object().unwrap();
    for (path, method) in [
        ("/api/configurations/default", "get"),
        ("/api/configurations", "get"),
        ("/api/configurations", "post"),
        ("/api/configurations/active", "get"),
        ("/api/configurations/visible", "get"),
        ("/api/configurations/{configId}", "get"),
        ("/api/configurations/{configId}", "put"),
        ("/api/configurations/{configId}", "delete"),
        ("/api/configurations/{configId}/set", "post"),
        ("/api/configurations/{configId}/logs", "get"),
        ("/api/configurations/{configId}/getSimilar", "get"),
        ("/api/configurations/{configId}/getRecommendations", "get"),
        ("/api/configurations/{configId}/search", "post"),
        ("/api/searchspaces", "get"),
        ("/api/searchspaces/{searchSpaceId}/facethealth", "get"),
    ] {
        assert!(paths.get(path).and_then(|p| p.get(method)).is_some(), "{method} {path} missing from /api-docs");
    }
    let schemas = docs.body["components"]["schemas"].as_object().unwrap();
    for name in [
        "Configuration",
        "Config",
        "ResultSettings",
        "FacetSetting",
        "Layout",
        "Details",
        "Document",
        "SearchResponse",
        "ErrorBody",
    ] {
        assert!(schemas.contains_key(name), "schema {name} missing");
    }
    assert_eq!(docs.body["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
}

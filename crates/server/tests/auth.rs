//! The authentication and authorisation matrix of docs/api.md, Authentication.

use axum::body::Body;
use axum::http::Request;
use serde_json::json;

use crate::common::{app, assert_error, ADMIN, NEWS_ONLY, READER, SEARCHER};

#[tokio::test]
async fn requests_without_a_usable_token_are_401() {
    let app = app();
    let id = app.create("Shop", "demo").await;
    let paths = ["/api/configurations".to_owned(), format!("/api/configurations/{id}"), "/api/searchspaces".to_owned()];
    for path in &paths {
        let message = assert_error(&app.call("GET", path, None, None).await, 401);
        assert!(message.contains("Authorization"), "{message}");
        for header in ["Basic YWRtaW46YWRtaW4=", "Bearer", "Bearer ", "admin-token", "Token admin-token"] {
            let request = Request::get(path.as_str()).header("authorization", header).body(Body::empty()).unwrap();
            assert_error(&app.send(request).await, 401);
        }
        assert_error(&app.call("GET", path, Some("not-a-known-token"), None).await, 401);
        assert_error(&app.call("GET", path, Some(&format!("{ADMIN}x")), None).await, 401);
    }
    // A bad token is refused before anything else is looked at.
    assert_error(&app.call("GET", "/api/configurations/abc", Some("nope"), None).await, 401);
    assert_error(
        &app.call(
            "POST",
            "/api/configurations",
            Some("nope"),
            Some(json!({"config": {"title": "x", "searchSpace": "demo"}})),
        )
        .await,
        401,
    );
    assert_eq!(app.get("/api/configurations").await.body["configurations"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let app = app();
    let request = Request::get("/api/configurations")
        .header("authorization", format!("bearer {ADMIN}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.send(request).await.status, 200);
}

#[tokio::test]
async fn a_token_whose_groups_lack_the_operation_is_403() {
    let app = app();
    let id = app.create("Shop", "demo").await;
    let update = json!({"config": {"title": "changed"}});

    // A reader reads, but neither writes nor searches.
    assert_eq!(app.call("GET", &format!("/api/configurations/{id}"), Some(READER), None).await.status, 200);
    assert_eq!(app.call("GET", "/api/configurations/default", Some(READER), None).await.status, 200);
    assert_error(&app.call("PUT", &format!("/api/configurations/{id}"), Some(READER), Some(update.clone())).await, 403);
    assert_error(
        &app.call(
            "POST",
            "/api/configurations",
            Some(READER),
            Some(json!({"config": {"title": "x", "searchSpace": "demo"}})),
        )
        .await,
        403,
    );
    assert_error(&app.call("POST", &format!("/api/configurations/{id}/set"), Some(READER), None).await, 403);
    assert_error(&app.call("DELETE", &format!("/api/configurations/{id}"), Some(READER), None).await, 403);
    assert_error(
        &app.call("POST", &format!("/api/configurations/{id}/search"), Some(READER), Some(json!({}))).await,
        403,
    );
    assert_error(
        &app.call("GET", &format!("/api/configurations/{id}/getSimilar?uri=x"), Some(READER), None).await,
        403,
    );

    // A searcher searches but does not read configurations.
    let message = assert_error(&app.call("GET", &format!("/api/configurations/{id}"), Some(SEARCHER), None).await, 403);
    assert!(message.contains("sam"), "{message}");
    assert_error(&app.call("GET", "/api/configurations", Some(SEARCHER), None).await, 403);

    let stored = app.get(&format!("/api/configurations/{id}")).await.body["configuration"].clone();
    assert_eq!(stored["config"]["title"], "Shop");
}

#[tokio::test]
async fn a_token_limited_to_other_search_spaces_is_403_for_their_configurations() {
    let app = app();
    let demo = app.create("Demo shop", "demo").await;
    let news = app.create("News", "news").await;

    assert_eq!(app.call("GET", &format!("/api/configurations/{news}"), Some(NEWS_ONLY), None).await.status, 200);
    let message =
        assert_error(&app.call("GET", &format!("/api/configurations/{demo}"), Some(NEWS_ONLY), None).await, 403);
    assert!(message.contains("demo"), "{message}");
    // The active configuration is the demo one, which nina may not see.
    assert_error(&app.call("GET", "/api/configurations/active", Some(NEWS_ONLY), None).await, 403);
    assert_error(
        &app.call(
            "PUT",
            &format!("/api/configurations/{demo}"),
            Some(NEWS_ONLY),
            Some(json!({"config": {"title": "x"}})),
        )
        .await,
        403,
    );
    assert_error(
        &app.call("POST", &format!("/api/configurations/{demo}/search"), Some(NEWS_ONLY), Some(json!({}))).await,
        403,
    );
    assert_error(&app.call("GET", &format!("/api/configurations/{demo}/logs"), Some(NEWS_ONLY), None).await, 403);
    // Moving her own configuration into a space she may not use, or creating one there, is refused too.
    assert_error(
        &app.call(
            "PUT",
            &format!("/api/configurations/{news}"),
            Some(NEWS_ONLY),
            Some(json!({"config": {"searchSpace": "demo"}})),
        )
        .await,
        403,
    );
    assert_error(
        &app.call(
            "POST",
            "/api/configurations",
            Some(NEWS_ONLY),
            Some(json!({"config": {"title": "x", "searchSpace": "demo"}})),
        )
        .await,
        403,
    );
    // Nor may a search through her own configuration swap in another space with the preview's settings.
    let swapped = json!({"input": "", "config": {"searchSpace": "demo"}});
    let message = assert_error(
        &app.call("POST", &format!("/api/configurations/{news}/search"), Some(NEWS_ONLY), Some(swapped)).await,
        403,
    );
    assert!(message.contains("demo"), "{message}");
    let own = json!({"input": "", "config": {"searchSpace": "news", "title": "Draft"}});
    assert_eq!(
        app.call("POST", &format!("/api/configurations/{news}/search"), Some(NEWS_ONLY), Some(own)).await.status,
        200
    );

    // Lists show her only what she may use.
    let list = app.call("GET", "/api/configurations", Some(NEWS_ONLY), None).await;
    let ids: Vec<_> =
        list.body["configurations"].as_array().unwrap().iter().map(|c| c["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [news as i64]);
    let update = app
        .call(
            "PUT",
            &format!("/api/configurations/{news}"),
            Some(NEWS_ONLY),
            Some(json!({"config": {"title": "News 2"}})),
        )
        .await;
    assert_eq!(update.status, 200);
    assert_eq!(update.body["config"]["user"], "ana", "the owner stays who created it");
    assert_eq!(
        app.get(&format!("/api/configurations/{demo}")).await.body["configuration"]["config"]["title"],
        "Demo shop"
    );
}

#[test]
fn auth_files_with_mistakes_are_refused_with_a_message_naming_the_mistake() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("not json", "not valid"),
        (r#"{"users":[{"name":"a","tokenSha256":"abc","groups":[]}]}"#, "64 hexadecimal"),
        (
            r#"{"users":[{"name":"a","tokenSha256":"00000000000000000000000000000000000000000000000000000000000000000","groups":["x"]}]}"#,
            "64 hexadecimal",
        ),
        (
            &format!(
                r#"{{"users":[{{"name":"a","tokenSha256":"{}","groups":["ghost"]}}],"groups":[]}}"#,
                "0".repeat(64)
            ),
            "ghost",
        ),
        (
            &format!(
                r#"{{"users":[{{"name":"a","tokenSha256":"{}","groups":[]}}],"groups":[{{"name":"g","operations":["delete"]}}]}}"#,
                "0".repeat(64)
            ),
            "delete",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("auth{i}.json"));
        std::fs::write(&path, text).unwrap();
        let err = studio_server::Auth::from_file(&path).err().expect("refused").to_string();
        assert!(err.contains(expected), "{err} should mention {expected}");
    }
    let missing = studio_server::Auth::from_file(&dir.path().join("nope.json")).err().expect("refused").to_string();
    assert!(missing.contains("nope.json"), "{missing}");
}

#[tokio::test]
async fn facet_health_needs_the_read_right_and_a_search_space_the_caller_may_use() {
    let app = app();
    let path = "/api/searchspaces/demo/facethealth";
    assert_error(&app.call("GET", path, Some(SEARCHER), None).await, 403);
    // A search space outside the caller's is answered as one that does not exist, whether it exists or not.
    let message = assert_error(&app.call("GET", path, Some(NEWS_ONLY), None).await, 404);
    assert_eq!(message, "search space demo does not exist");
    let message = assert_error(&app.call("GET", path, Some(READER), None).await, 404);
    assert_eq!(message, "search space demo does not exist", "this store holds no documents");
}

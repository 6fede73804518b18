//! `studio serve --oidc-ui-client-id`: the web UI's sign-in through the server's OpenID Connect provider.
//! Only with the flag does `/api-docs` name the provider (an `openIdConnect` security scheme carrying the
//! web UI's client id) and the content security policy let the page reach the issuer's origin; without it
//! both stay as they were. Against the real OpenID Connect provider of studio-testkit, through the router;
//! the real binary is tested in crates/cli (`web_sign_in`).

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use studio_local::{LocalBackend, Store};
use studio_server::auth::{ProviderSettings, ProviderTokens};
use studio_server::Auth;
use tower::ServiceExt;

use studio_testkit::http::{connect_src, origin_of};
use studio_testkit::{designers_auth_file, provider};

/// The router over a fresh store; accepting the provider's tokens when `provider_settings` is given.
async fn router(dir: &std::path::Path, provider_settings: Option<ProviderSettings>) -> Router {
    std::fs::create_dir_all(dir).unwrap();
    let mut auth = Auth::from_file(&designers_auth_file(dir)).unwrap();
    if let Some(settings) = provider_settings {
        auth = auth.with_provider_tokens(ProviderTokens::start(settings).await.expect("the provider's keys are read"));
    }
    let backend = LocalBackend::new(Store::open_dir(&dir.join("data")).unwrap());
    studio_server::router(Arc::new(backend), Arc::new(auth), None)
}

/// GET `path`: the content security policy of the answer and its JSON body (Null when it has none).
async fn get(router: &Router, path: &str) -> (String, Value) {
    let request = Request::builder().uri(path).body(Body::empty()).unwrap();
    let answer = router.clone().oneshot(request).await.unwrap();
    let csp =
        answer.headers().get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let bytes = answer.into_body().collect().await.unwrap().to_bytes();
    (csp, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn only_with_a_client_for_the_web_ui_do_api_docs_name_the_provider_and_the_page_reach_it() {
    let provider = tokio::task::spawn_blocking(provider).await.unwrap();
    let issuer = provider.issuer().to_owned();
    let dir = tempfile::tempdir().unwrap();

    let with_client = ProviderSettings { ui_client_id: Some("studio-web".into()), ..ProviderSettings::new(&issuer) };
    let signing_in = router(&dir.path().join("a"), Some(with_client)).await;
    let (csp, docs) = get(&signing_in, "/api-docs").await;
    assert_eq!(
        docs["components"]["securitySchemes"]["oidc"],
        json!({
            "type": "openIdConnect",
            "openIdConnectUrl": format!("{issuer}/.well-known/openid-configuration"),
            "description": docs["components"]["securitySchemes"]["oidc"]["description"],
            "x-search-studio-client-id": "studio-web",
        })
    );
    assert!(docs["security"].as_array().unwrap().contains(&json!({"oidc": ["openid"]})), "{}", docs["security"]);
    assert_eq!(docs["components"]["securitySchemes"]["bearer"]["scheme"], "bearer", "pasted tokens still work");
    let issuer_origin = origin_of(&issuer);
    assert_eq!(connect_src(&csp), ["'self'", issuer_origin.as_str()]);
    // Every answer carries the same policy: the page at `/`, its sign-in return, the API's refusals.
    for path in ["/", "/signed-in?code=x&state=y", "/api/configurations", "/healthz"] {
        assert_eq!(get(&signing_in, path).await.0, csp, "{path}");
    }
    // Nothing else is widened.
    let (plain_csp, _) = get(&router(&dir.path().join("b"), None).await, "/").await;
    assert_eq!(csp.replace(&format!(" {issuer_origin}"), ""), plain_csp);

    for (name, settings) in [("c", Some(ProviderSettings::new(&issuer))), ("d", None)] {
        let app = router(&dir.path().join(name), settings).await;
        let (csp, docs) = get(&app, "/api-docs").await;
        assert_eq!(docs["components"]["securitySchemes"].get("oidc"), None, "{name}: {}", docs["components"]);
        assert!(!docs["security"].to_string().contains("oidc"), "{name}");
        assert_eq!(connect_src(&csp), ["'self'"], "{name}");
    }
}

//! `studio serve --oidc-ui-client-id`: the web UI's sign-in through the server's OpenID Connect provider.
//! Only with the flag does `/api-docs` name the provider (an `openIdConnect` security scheme carrying the
//! web UI's client id) and the content security policy let the page reach the issuer's origin; without it
//! both stay as they were. Against the real OpenID Connect provider of studio-testkit, through the router
//! and through the real binary.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use studio_local::{LocalBackend, Store};
use studio_server::auth::{ProviderSettings, ProviderTokens};
use studio_server::Auth;
use studio_testkit::{OidcProvider, ProviderOptions};
use tower::ServiceExt;

const STUDIO: &str = env!("CARGO_BIN_EXE_studio");

fn provider() -> OidcProvider {
    OidcProvider::start(ProviderOptions::default())
        .expect("the provider starts (npm ci --prefix crates/testkit/servers)")
}

/// `http://127.0.0.1:PORT` of an issuer `http://127.0.0.1:PORT/realms/studio`.
fn origin_of(issuer: &str) -> String {
    let after_scheme = issuer.find("://").map(|i| i + 3).unwrap();
    let end = issuer[after_scheme..]
        .find('/')
        .map_or(issuer.len(), |i| after_scheme + i);
    issuer[..end].to_owned()
}

fn write_auth_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("auth.json");
    let groups = json!({"users": [], "groups": [
        { "name": "designers", "operations": ["read", "write", "search"], "searchSpaces": ["*"] }
    ]});
    std::fs::write(&path, groups.to_string()).unwrap();
    path
}

/// What the page is allowed to connect to.
fn connect_src(csp: &str) -> Vec<String> {
    let directive = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("connect-src "))
        .unwrap_or_else(|| panic!("no connect-src: {csp}"));
    directive
        .split_whitespace()
        .skip(1)
        .map(str::to_owned)
        .collect()
}

/// The router over a fresh store; accepting the provider's tokens when `provider_settings` is given.
async fn router(dir: &std::path::Path, provider_settings: Option<ProviderSettings>) -> Router {
    std::fs::create_dir_all(dir).unwrap();
    let mut auth = Auth::from_file(&write_auth_file(dir)).unwrap();
    if let Some(settings) = provider_settings {
        auth = auth.with_provider_tokens(
            ProviderTokens::start(settings)
                .await
                .expect("the provider's keys are read"),
        );
    }
    let backend = LocalBackend::new(Store::open_dir(&dir.join("data")).unwrap());
    studio_server::router(Arc::new(backend), Arc::new(auth), None)
}

/// GET `path`: the content security policy of the answer and its JSON body (Null when it has none).
async fn get(router: &Router, path: &str) -> (String, Value) {
    let request = Request::builder().uri(path).body(Body::empty()).unwrap();
    let answer = router.clone().oneshot(request).await.unwrap();
    let csp = answer
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let bytes = answer.into_body().collect().await.unwrap().to_bytes();
    (csp, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn only_with_a_client_for_the_web_ui_do_api_docs_name_the_provider_and_the_page_reach_it() {
    let provider = tokio::task::spawn_blocking(provider).await.unwrap();
    let issuer = provider.issuer().to_owned();
    let dir = tempfile::tempdir().unwrap();

    let with_client = ProviderSettings {
        ui_client_id: Some("studio-web".into()),
        ..ProviderSettings::new(&issuer)
    };
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
    assert!(
        docs["security"]
            .as_array()
            .unwrap()
            .contains(&json!({"oidc": ["openid"]})),
        "{}",
        docs["security"]
    );
    assert_eq!(
        docs["components"]["securitySchemes"]["bearer"]["scheme"], "bearer",
        "pasted tokens still work"
    );
    let issuer_origin = origin_of(&issuer);
    assert_eq!(connect_src(&csp), ["'self'", issuer_origin.as_str()]);
    // Every answer carries the same policy: the page at `/`, its sign-in return, the API's refusals.
    for path in [
        "/",
        "/signed-in?code=x&state=y",
        "/api/configurations",
        "/healthz",
    ] {
        assert_eq!(get(&signing_in, path).await.0, csp, "{path}");
    }
    // Nothing else is widened.
    let (plain_csp, _) = get(&router(&dir.path().join("b"), None).await, "/").await;
    assert_eq!(csp.replace(&format!(" {issuer_origin}"), ""), plain_csp);

    for (name, settings) in [("c", Some(ProviderSettings::new(&issuer))), ("d", None)] {
        let app = router(&dir.path().join(name), settings).await;
        let (csp, docs) = get(&app, "/api-docs").await;
        assert_eq!(
            docs["components"]["securitySchemes"].get("oidc"),
            None,
            "{name}: {}",
            docs["components"]
        );
        assert!(!docs["security"].to_string().contains("oidc"), "{name}");
        assert_eq!(connect_src(&csp), ["'self'"], "{name}");
    }
}

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_flag_names_the_client_in_api_docs_and_needs_an_issuer() {
    let provider = provider();
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--auth"])
        .arg(write_auth_file(dir.path()))
        .args([
            "--oidc-issuer",
            provider.issuer(),
            "--oidc-ui-client-id",
            "studio-web",
            "--data-dir",
        ])
        .arg(dir.path().join("data"))
        .env("RUST_LOG", "off")
        .stdout(Stdio::piped())
        .spawn()
        .expect("studio starts");
    let first = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .next()
        .map(|l| l.unwrap())
        .unwrap_or_default();
    let _serve = Serve(child);
    let base = first
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("`{first}`"));
    let answer = reqwest::blocking::get(format!("{base}/api-docs")).unwrap();
    let csp = answer.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let docs: Value = answer.json().unwrap();
    assert_eq!(
        docs["components"]["securitySchemes"]["oidc"]["x-search-studio-client-id"],
        "studio-web"
    );
    assert_eq!(
        connect_src(&csp),
        ["'self'".to_owned(), origin_of(provider.issuer())]
    );

    // The client belongs to the provider whose tokens are accepted, so the flag needs one; and an id.
    let out = Command::new(STUDIO)
        .args(["serve", "--oidc-ui-client-id", "studio-web"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--oidc-issuer"), "{stderr}");
    let out = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--auth"])
        .arg(write_auth_file(dir.path()))
        .args([
            "--oidc-issuer",
            provider.issuer(),
            "--oidc-ui-client-id",
            " ",
            "--data-dir",
        ])
        .arg(dir.path().join("data"))
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--oidc-ui-client-id"), "{stderr}");
}

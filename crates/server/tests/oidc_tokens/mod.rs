//! `studio serve --oidc-issuer` (docs/api.md, Authentication): JWT access tokens of an OpenID Connect provider, beside
//! the auth file's tokens, through the real router, against a provider on loopback. The real binary against
//! the real OpenID Connect provider of studio-testkit is tested in crates/cli (`oidc_serve`).

mod provider;

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use axum::Router;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use http_body_util::BodyExt;
use jsonwebtoken::{EncodingKey, Header};
use serde_json::{json, Value};
use studio_local::{LocalBackend, Store};
use studio_server::auth::{ProviderSettings, ProviderTokens};
use studio_server::{token_digest, Auth};
use tower::ServiceExt;

use crate::common::{assert_error, Answer};
use provider::{fixture, now, SigningKey, TestProvider};

/// A token of the auth file, not a JWT.
const FILE_TOKEN: &str = "carl-file-token";

fn auth_file() -> Value {
    json!({
        "users": [{ "name": "carl", "tokenSha256": token_digest(FILE_TOKEN), "groups": ["designers"] }],
        "groups": [
            { "name": "designers", "operations": ["read", "write", "search"], "searchSpaces": ["*"] },
            { "name": "viewers", "operations": ["read", "search"], "searchSpaces": ["*"] },
            { "name": "news", "operations": ["read", "write", "search"], "searchSpaces": ["news"] }
        ]
    })
}

/// The router over a fresh local store, accepting the auth file's tokens and `provider`'s.
struct Api {
    router: Router,
    _dir: tempfile::TempDir,
}

impl Api {
    async fn start(provider: &TestProvider, audience: Option<&str>) -> Api {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("auth.json");
        std::fs::write(&path, auth_file().to_string()).unwrap();
        let settings =
            ProviderSettings { audience: audience.map(str::to_owned), ..ProviderSettings::new(&provider.issuer) };
        let tokens = ProviderTokens::start(settings).await.expect("the provider's keys are read");
        let auth = Auth::from_file(&path).unwrap().with_provider_tokens(tokens);
        let backend = LocalBackend::new(Store::open_dir(&dir.path().join("data")).unwrap());
        Api { router: studio_server::router(Arc::new(backend), Arc::new(auth), None), _dir: dir }
    }

    async fn call(&self, method: &str, path: &str, token: &str, body: Option<Value>) -> Answer {
        let builder = Request::builder().method(method).uri(path).header("authorization", format!("Bearer {token}"));
        let request = match body {
            Some(body) => builder.header("content-type", "application/json").body(Body::from(body.to_string())),
            None => builder.body(Body::empty()),
        };
        let response = self.router.clone().oneshot(request.unwrap()).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        Answer { status, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
    }

    async fn list(&self, token: &str) -> Answer {
        self.call("GET", "/api/configurations", token, None).await
    }

    async fn create(&self, token: &str, title: &str, space: &str) -> Answer {
        self.call("POST", "/api/configurations", token, Some(json!({"config": {"title": title, "searchSpace": space}})))
            .await
    }

    /// Asserts a 401 whose message contains `reason` and no part of `token`.
    async fn assert_refused(&self, token: &str, reason: &str) {
        let message = assert_error(&self.list(token).await, 401);
        assert!(message.contains(reason), "expected `{reason}` in: {message}");
        for part in token.split('.').filter(|p| p.len() > 8) {
            assert!(!message.contains(part), "the message repeats the token: {message}");
        }
    }
}

fn main_key() -> SigningKey {
    SigningKey::rsa("rsa-main.pem", "main")
}

#[tokio::test]
async fn a_provider_token_gives_the_rights_of_the_groups_it_names() {
    let (rsa, ec) = (main_key(), SigningKey::ec("ec-main.pem", "ec"));
    let provider = TestProvider::start(&[&rsa, &ec]).await;
    let api = Api::start(&provider, None).await;

    let designer = rsa.sign(&provider.claims("ana", &["/designers"]));
    assert_eq!(api.list(&designer).await.status, 200);
    let created = api.create(&designer, "Shop", "demo").await;
    assert_eq!(created.status, 200, "{}", created.body);
    let demo = created.body["config"]["id"].as_i64().unwrap();
    let logs = api.call("GET", &format!("/api/configurations/{demo}/logs"), &designer, None).await;
    assert_eq!(logs.body["logs"][0]["user"], "ana", "the user is preferred_username: {}", logs.body);
    // ES256 is accepted as well; without preferred_username the user is `sub`.
    let mut claims = provider.claims("ignored", &["/designers"]);
    claims.as_object_mut().unwrap().remove("preferred_username");
    assert_eq!(api.create(&ec.sign(&claims), "By sub", "demo").await.status, 200);

    // A viewer reads but may not write; groups may also be written without Keycloak's leading slash.
    let viewer = rsa.sign(&provider.claims("bob", &["viewers"]));
    assert_eq!(api.list(&viewer).await.status, 200);
    let message = assert_error(&api.create(&viewer, "Nope", "demo").await, 403);
    assert!(message.contains("bob"), "{message}");

    // A known user whose groups the auth file does not define has no rights at all: 403, not 401.
    let stranger = rsa.sign(&provider.claims("cy", &["/strangers", "/designers/sub"]));
    assert_error(&api.list(&stranger).await, 403);
    let no_groups = rsa.sign(&json!({"iss": provider.issuer, "sub": "dee", "exp": now() + 60}));
    assert_error(&api.list(&no_groups).await, 403);

    // A group limited to one search space: its configurations, not another space's.
    let news = rsa.sign(&provider.claims("nina", &["/news"]));
    let created = api.create(&news, "News", "news").await;
    assert_eq!(created.status, 200, "{}", created.body);
    let own = created.body["config"]["id"].as_i64().unwrap();
    assert_eq!(api.call("GET", &format!("/api/configurations/{own}"), &news, None).await.status, 200);
    let message = assert_error(&api.call("GET", &format!("/api/configurations/{demo}"), &news, None).await, 403);
    assert!(message.contains("demo"), "{message}");
}

#[tokio::test]
async fn auth_file_tokens_work_beside_provider_tokens() {
    let key = main_key();
    let provider = TestProvider::start(&[&key]).await;
    let api = Api::start(&provider, None).await;
    assert_eq!(api.create(FILE_TOKEN, "By file", "demo").await.status, 200);
    assert_eq!(api.list(&key.sign(&provider.claims("ana", &["/designers"]))).await.status, 200);
    api.assert_refused("not-a-known-token", "not known to this server").await;
    api.assert_refused(&format!("{FILE_TOKEN}x"), "not known to this server").await;
}

#[tokio::test]
async fn refused_tokens_are_401_with_the_reason() {
    let key = main_key();
    let provider = TestProvider::start(&[&key]).await;
    let api = Api::start(&provider, Some("search-studio")).await;
    let good = || {
        let mut claims = provider.claims("ana", &["/designers"]);
        claims["aud"] = json!("search-studio");
        claims
    };
    let with = |name: &str, value: Value| {
        let mut claims = good();
        claims[name] = value;
        claims
    };
    assert_eq!(api.list(&key.sign(&good())).await.status, 200);
    // The audience may also be one of several.
    assert_eq!(api.list(&key.sign(&with("aud", json!(["account", "search-studio"])))).await.status, 200);

    api.assert_refused(&key.sign(&with("exp", json!(now() - 60))), "expired").await;
    api.assert_refused(&key.sign(&with("nbf", json!(now() + 60))), "not yet valid").await;
    api.assert_refused(&key.sign(&with("iss", json!("http://127.0.0.1:1/realms/other"))), "another issuer").await;
    api.assert_refused(&key.sign(&with("aud", json!("account"))), "another audience").await;
    api.assert_refused(&key.sign(&with("aud", json!(["account"]))), "another audience").await;
    let mut no_aud = good();
    no_aud.as_object_mut().unwrap().remove("aud");
    api.assert_refused(&key.sign(&no_aud), "lacks the `aud` claim").await;
    api.assert_refused(&key.sign_as("never-published", &good()), "unknown key").await;
    // Signed by a key the provider does not publish, naming one it does.
    api.assert_refused(&SigningKey::rsa("rsa-other.pem", "main").sign(&good()), "signature is bad").await;
    // An ES256 token naming the provider's RSA key.
    api.assert_refused(&SigningKey::ec("ec-main.pem", "main").sign(&good()), "not accepted for the key it names").await;
    // An ID token is not an access token, even with the right audience.
    api.assert_refused(&key.sign(&with("typ", json!("ID"))), "not an access token").await;

    // `alg: none`, unsigned.
    let encode = |v: &Value| URL_SAFE_NO_PAD.encode(v.to_string());
    let unsigned = format!("{}.{}.", encode(&json!({"alg": "none", "typ": "JWT", "kid": "main"})), encode(&good()));
    api.assert_refused(&unsigned, "algorithm `none` is not accepted").await;
    // HS256 with the public key as the shared secret (algorithm confusion).
    let mut header = Header::new(jsonwebtoken::Algorithm::HS256);
    header.kid = Some("main".into());
    let confused =
        jsonwebtoken::encode(&header, &good(), &EncodingKey::from_secret(&fixture("rsa-main.pub.pem"))).unwrap();
    api.assert_refused(&confused, "algorithm `HS256` is not accepted").await;

    // Headers that cannot be read: not base64url, not JSON, no algorithm.
    for malformed in ["a.b.c", "%%%.e30.x", "bm90IGpzb24.e30.c2ln", "eyJ0eXAiOiJKV1QifQ.e30.c2ln"] {
        api.assert_refused(malformed, "malformed").await;
    }
    api.assert_refused(&key.sign(&with("exp", json!("tomorrow"))), "`exp`").await;
    // A good token with its signature cut off.
    let token = key.sign(&good());
    api.assert_refused(&token[..token.rfind('.').unwrap() + 1], "signature is bad").await;
}

#[tokio::test]
async fn a_key_added_by_the_provider_is_fetched_once_when_a_token_names_it() {
    let (key, rotated) = (main_key(), SigningKey::rsa("rsa-rotated.pem", "rotated"));
    let provider = TestProvider::start(&[&key]).await;
    let api = Api::start(&provider, None).await;
    assert_eq!(provider.jwks_fetches(), 1, "keys are read at start");

    provider.publish(&rotated);
    let token = rotated.sign(&provider.claims("ana", &["/designers"]));
    assert_eq!(api.list(&token).await.status, 200);
    assert_eq!(provider.jwks_fetches(), 2);
    assert_eq!(api.create(&rotated.sign(&provider.claims("ana", &["/designers"])), "After", "demo").await.status, 200);
    assert_eq!(
        api.list(&key.sign(&provider.claims("ana", &["/designers"]))).await.status,
        200,
        "the old key still works"
    );
    assert_eq!(provider.jwks_fetches(), 2, "known keys are not fetched again");
}

#[tokio::test]
async fn tokens_with_made_up_key_ids_cause_at_most_one_refetch() {
    let key = main_key();
    let provider = TestProvider::start(&[&key]).await;
    let api = Arc::new(Api::start(&provider, None).await);
    let mut burst = tokio::task::JoinSet::new();
    for n in 0..50 {
        let token = key.sign_as(&format!("made-up-{n}"), &provider.claims("ana", &["/designers"]));
        let api = api.clone();
        burst.spawn(async move { api.list(&token).await.status.as_u16() });
    }
    while let Some(status) = burst.join_next().await {
        assert_eq!(status.unwrap(), 401);
    }
    assert_eq!(provider.jwks_fetches(), 2, "one fetch at start and one refetch shared by the whole burst");
    api.assert_refused(&key.sign_as("made-up-again", &provider.claims("ana", &[])), "unknown key").await;
    assert_eq!(provider.jwks_fetches(), 2, "no second refetch within the interval");
    assert_eq!(api.list(&key.sign(&provider.claims("ana", &["/designers"]))).await.status, 200);
}

#[tokio::test]
async fn a_provider_that_cannot_be_read_stops_the_start_with_one_line_naming_it() {
    let unreachable = ProviderTokens::start(ProviderSettings::new("http://127.0.0.1:9/realms/gone")).await;
    let message = unreachable.err().expect("refused").to_string();
    assert!(message.contains("http://127.0.0.1:9/realms/gone") && !message.contains('\n'), "{message}");
    assert!(message.contains("discovery"), "{message}");
}

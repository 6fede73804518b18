//! A minimal OpenID Connect provider on loopback: a discovery document and a JWKS of the fixture keys
//! (tests/fixtures/oidc), counting how often its JWKS is fetched; and the fixture keys signing tokens.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};

/// A fixture key with its key id.
pub struct SigningKey {
    pub kid: String,
    alg: Algorithm,
    key: EncodingKey,
}

pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/oidc/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

impl SigningKey {
    pub fn rsa(file: &str, kid: &str) -> SigningKey {
        let key = EncodingKey::from_rsa_pem(&fixture(file)).unwrap();
        SigningKey { kid: kid.to_owned(), alg: Algorithm::RS256, key }
    }

    pub fn ec(file: &str, kid: &str) -> SigningKey {
        let key = EncodingKey::from_ec_pem(&fixture(file)).unwrap();
        SigningKey { kid: kid.to_owned(), alg: Algorithm::ES256, key }
    }

    /// The public key as the provider publishes it.
    pub fn jwk(&self) -> Value {
        let mut jwk = serde_json::to_value(Jwk::from_encoding_key(&self.key, self.alg).unwrap()).unwrap();
        jwk["kid"] = json!(self.kid);
        jwk["use"] = json!("sig");
        jwk
    }

    /// A token of `claims` with this key's algorithm and key id.
    pub fn sign(&self, claims: &Value) -> String {
        self.sign_as(&self.kid, claims)
    }

    /// A token signed with this key but naming `kid`.
    pub fn sign_as(&self, kid: &str, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, claims, &self.key).unwrap()
    }
}

pub fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

#[derive(Clone)]
struct Published {
    issuer: String,
    keys: Arc<Mutex<Vec<Value>>>,
    fetches: Arc<AtomicUsize>,
}

/// The provider; its server ends with the test's runtime.
pub struct TestProvider {
    pub issuer: String,
    published: Published,
}

impl TestProvider {
    /// Serves discovery and a JWKS of `keys` on a free loopback port.
    pub async fn start(keys: &[&SigningKey]) -> TestProvider {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}/realms/test", listener.local_addr().unwrap());
        let published = Published {
            issuer: issuer.clone(),
            keys: Arc::new(Mutex::new(keys.iter().map(|k| k.jwk()).collect())),
            fetches: Arc::new(AtomicUsize::new(0)),
        };
        let app = Router::new()
            .route("/realms/test/.well-known/openid-configuration", get(discovery))
            .route("/realms/test/certs", get(jwks))
            .with_state(published.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        TestProvider { issuer, published }
    }

    /// Publishes one more key, as a provider does when it rotates keys.
    pub fn publish(&self, key: &SigningKey) {
        self.published.keys.lock().unwrap().push(key.jwk());
    }

    /// How often the JWKS has been fetched.
    pub fn jwks_fetches(&self) -> usize {
        self.published.fetches.load(Ordering::SeqCst)
    }

    /// Claims of a good access token of this provider for `user` in `groups`, valid for five minutes.
    pub fn claims(&self, user: &str, groups: &[&str]) -> Value {
        let now = now();
        json!({
            "iss": self.issuer, "sub": format!("id-{user}"), "preferred_username": user, "typ": "Bearer",
            "aud": "account", "iat": now, "nbf": now, "exp": now + 300, "groups": groups,
        })
    }
}

async fn discovery(State(published): State<Published>) -> Json<Value> {
    let issuer = &published.issuer;
    Json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/protocol/openid-connect/auth"),
        "token_endpoint": format!("{issuer}/protocol/openid-connect/token"),
        "jwks_uri": format!("{issuer}/certs"),
    }))
}

async fn jwks(State(published): State<Published>) -> Json<Value> {
    published.fetches.fetch_add(1, Ordering::SeqCst);
    let keys = published.keys.lock().unwrap().clone();
    Json(json!({ "keys": keys }))
}

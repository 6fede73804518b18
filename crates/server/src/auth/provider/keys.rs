//! The provider's signing keys (its JWKS): fetched at start, and fetched again when a token names a key
//! id not yet known, since providers rotate keys. Such refetches happen at most once per
//! [`KEY_REFETCH_INTERVAL`], and requests that meet an unknown key while one is under way wait for it and
//! share its result, so made-up key ids cannot make the server hammer its provider.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;
use tokio::sync::Mutex;

use super::token::TokenError;
use crate::metrics::Metrics;

/// The shortest time between two fetches of the provider's keys caused by tokens naming a key id not yet
/// known, so that tokens with made-up key ids cannot make the server hammer its provider.
pub const KEY_REFETCH_INTERVAL: Duration = Duration::from_secs(10);

/// The largest key set read; a real one is a few KiB.
const MAX_JWKS_BYTES: usize = 1 << 20;

/// Why the provider's keys could not be read.
#[derive(Debug, thiserror::Error)]
pub enum KeyFetchError {
    #[error("cannot reach {uri}: {reason}")]
    Unreachable { uri: String, reason: String },
    #[error("{uri} answered {status}")]
    Status { uri: String, status: u16 },
    #[error("{uri} sent more than {MAX_JWKS_BYTES} bytes")]
    TooLarge { uri: String },
    #[error("{uri} is not a JSON Web Key Set: {reason}")]
    NotAKeySet { uri: String, reason: String },
    #[error("{uri} publishes no RS256 or ES256 signing key")]
    NoUsableKey { uri: String },
}

/// A published key and the one algorithm it verifies.
struct PublishedKey {
    kid: Option<String>,
    alg: Algorithm,
    key: DecodingKey,
}

/// The keys, and when the last refetch started.
pub(super) struct KeyStore {
    issuer: String,
    jwks_uri: String,
    http: reqwest::Client,
    keys: RwLock<Arc<Vec<PublishedKey>>>,
    /// Held while a refetch is under way; holds when the last one started.
    last_refetch: Mutex<Option<Instant>>,
    /// Where each read (and each failed one) is counted.
    metrics: Option<Arc<Metrics>>,
}

impl KeyStore {
    /// Fetches the keys at `jwks_uri` once; fails when they cannot be read or none is usable.
    pub(super) async fn start(
        issuer: &str,
        jwks_uri: &str,
        metrics: Option<Arc<Metrics>>,
    ) -> Result<KeyStore, KeyFetchError> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(studio_remote::oidc::PROVIDER_TIMEOUT)
            .user_agent(concat!("search-studio/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| KeyFetchError::Unreachable { uri: jwks_uri.to_owned(), reason: root_cause(&e) })?;
        let store = KeyStore {
            issuer: issuer.to_owned(),
            jwks_uri: jwks_uri.to_owned(),
            http,
            keys: RwLock::new(Arc::new(Vec::new())),
            last_refetch: Mutex::new(None),
            metrics,
        };
        let keys = store.fetch().await?;
        tracing::info!(issuer, keys = keys.len(), "read the OpenID Connect provider's signing keys");
        store.replace(keys);
        Ok(store)
    }

    /// The key a token with this key id and algorithm is verified with, refetching the keys when the key
    /// id is not known yet and the last refetch is long enough ago.
    pub(super) async fn key_for(&self, kid: Option<&str>, alg: Algorithm) -> Result<DecodingKey, TokenError> {
        if let Some(key) = self.find(kid, alg)? {
            return Ok(key);
        }
        let mut last = self.last_refetch.lock().await;
        // A refetch this request waited for may have brought the key.
        if let Some(key) = self.find(kid, alg)? {
            return Ok(key);
        }
        let now = Instant::now();
        if last.is_none_or(|at| now.duration_since(at) >= KEY_REFETCH_INTERVAL) {
            *last = Some(now);
            match self.fetch().await {
                Ok(keys) => {
                    tracing::info!(
                        issuer = self.issuer,
                        keys = keys.len(),
                        "read the signing keys again for a token naming a new key id"
                    );
                    self.replace(keys);
                }
                Err(e) => tracing::warn!(issuer = self.issuer, "could not read the provider's signing keys again: {e}"),
            }
        }
        drop(last);
        self.find(kid, alg)?.ok_or_else(|| TokenError::UnknownKey { issuer: self.issuer.clone() })
    }

    /// The known key for `kid` (or, for a token without one, the only key of its algorithm).
    fn find(&self, kid: Option<&str>, alg: Algorithm) -> Result<Option<DecodingKey>, TokenError> {
        let keys = self.keys.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
        match kid {
            Some(kid) => match keys.iter().find(|k| k.kid.as_deref() == Some(kid)) {
                Some(key) if key.alg == alg => Ok(Some(key.key.clone())),
                Some(_) => Err(TokenError::KeyMismatch),
                None => Ok(None),
            },
            None => {
                let mut usable = keys.iter().filter(|k| k.alg == alg);
                match (usable.next(), usable.next()) {
                    (Some(only), None) => Ok(Some(only.key.clone())),
                    (Some(_), Some(_)) => Err(TokenError::NoKeyId),
                    (None, _) => Ok(None),
                }
            }
        }
    }

    fn replace(&self, keys: Vec<PublishedKey>) {
        *self.keys.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(keys);
    }

    /// Reads the key set, counting the read in the metrics.
    async fn fetch(&self) -> Result<Vec<PublishedKey>, KeyFetchError> {
        let read = self.read_keys().await;
        if let Some(metrics) = &self.metrics {
            metrics.key_read(read.is_err());
        }
        read
    }

    /// Reads the key set and keeps the keys that verify RS256 or ES256 signatures.
    async fn read_keys(&self) -> Result<Vec<PublishedKey>, KeyFetchError> {
        let uri = &self.jwks_uri;
        let unreachable = |e: reqwest::Error| KeyFetchError::Unreachable { uri: uri.clone(), reason: root_cause(&e) };
        let mut response = self.http.get(uri).send().await.map_err(unreachable)?;
        if !response.status().is_success() {
            return Err(KeyFetchError::Status { uri: uri.clone(), status: response.status().as_u16() });
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(unreachable)? {
            if body.len() + chunk.len() > MAX_JWKS_BYTES {
                return Err(KeyFetchError::TooLarge { uri: uri.clone() });
            }
            body.extend_from_slice(&chunk);
        }
        #[derive(Deserialize)]
        struct KeySet {
            keys: Vec<serde_json::Value>,
        }
        let set: KeySet = serde_json::from_slice(&body)
            .map_err(|e| KeyFetchError::NotAKeySet { uri: uri.clone(), reason: e.to_string() })?;
        // A key this server cannot use (another type, an encryption key, one it cannot parse) is skipped,
        // not fatal: providers publish such keys beside their signing keys.
        let keys: Vec<PublishedKey> = set.keys.into_iter().filter_map(usable_key).collect();
        if keys.is_empty() {
            return Err(KeyFetchError::NoUsableKey { uri: uri.clone() });
        }
        Ok(keys)
    }
}

/// A published key this server verifies with: an RSA key for RS256 or a P-256 key for ES256, unless the
/// key says it is for encryption or for another algorithm.
fn usable_key(value: serde_json::Value) -> Option<PublishedKey> {
    let jwk: Jwk = serde_json::from_value(value).ok()?;
    if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
        return None;
    }
    let (alg, key_alg) = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => (Algorithm::RS256, KeyAlgorithm::RS256),
        AlgorithmParameters::EllipticCurve(ec) if ec.curve == EllipticCurve::P256 => {
            (Algorithm::ES256, KeyAlgorithm::ES256)
        }
        _ => return None,
    };
    if jwk.common.key_algorithm.is_some_and(|named| named != key_alg) {
        return None;
    }
    let key = DecodingKey::from_jwk(&jwk).ok()?;
    Some(PublishedKey { kid: jwk.common.key_id.clone(), alg, key })
}

/// The innermost cause of an error (`Connection refused (os error 111)`), which says more than reqwest's
/// outer `error sending request for url …`.
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(inner) = cause.source() {
        cause = inner;
    }
    cause.to_string()
}

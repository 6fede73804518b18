//! Access tokens of an OpenID Connect provider (`studio serve --oidc-issuer`; docs/api.md, Authentication): JWTs signed
//! with a key the issuer publishes (RS256 or ES256), checked for expiry, start, issuer and (when one is
//! required) audience, and read for the user's name and groups.
//!
//! Verification is jsonwebtoken's; this module decides what is accepted and says in words why a token is
//! not. It never logs a token or any part of one, and no message repeats one.

mod keys;
mod token;

use std::sync::Arc;

use studio_remote::oidc::{normalise_issuer, Provider};
use studio_remote::RemoteError;

use crate::metrics::Metrics;
pub use keys::KEY_REFETCH_INTERVAL;
use keys::{KeyFetchError, KeyStore};
pub use token::{looks_like_jwt, TokenError, TokenUser, CLOCK_LEEWAY};

/// Which provider's tokens to accept, and how to read them.
#[derive(Debug, Clone)]
pub struct ProviderSettings {
    /// The issuer URL, e.g. `https://sso.example.org/realms/NAME`.
    pub issuer: String,
    /// The audience a token must name in `aud` (a string, or an array holding it); any when `None`.
    pub audience: Option<String>,
    /// The claim listing the user's groups (Keycloak's `groups`).
    pub groups_claim: String,
    /// The provider's public client the web UI signs in with (`--oidc-ui-client-id`); without one the web
    /// UI only takes pasted tokens.
    pub ui_client_id: Option<String>,
}

impl ProviderSettings {
    /// Tokens of `issuer`, for any audience, with their groups in `groups`.
    pub fn new(issuer: &str) -> Self {
        ProviderSettings {
            issuer: issuer.to_owned(),
            audience: None,
            groups_claim: "groups".to_owned(),
            ui_client_id: None,
        }
    }
}

/// Why the provider's tokens cannot be accepted: the server does not start.
#[derive(Debug, thiserror::Error)]
pub enum ProviderSetupError {
    #[error("--oidc-issuer {issuer}: its discovery failed: {source}")]
    Discovery { issuer: String, source: RemoteError },
    #[error("--oidc-issuer {issuer}: its discovery document names no jwks_uri, so its signing keys are unknown")]
    NoKeys { issuer: String },
    #[error("--oidc-issuer {issuer}: its signing keys cannot be read: {source}")]
    Keys { issuer: String, source: KeyFetchError },
}

/// Verifies a provider's access tokens with the keys it publishes.
pub struct ProviderTokens {
    issuer: String,
    audience: Option<String>,
    groups_claim: String,
    ui_client_id: Option<String>,
    keys: KeyStore,
}

impl ProviderTokens {
    /// Discovers the issuer's endpoints and fetches its keys; fails when either cannot be done.
    pub async fn start(settings: ProviderSettings) -> Result<ProviderTokens, ProviderSetupError> {
        ProviderTokens::start_counted(settings, None).await
    }

    /// As [`ProviderTokens::start`], counting every read of the provider's keys (and every failed one) in
    /// `metrics`.
    pub async fn start_counted(
        settings: ProviderSettings,
        metrics: Option<Arc<Metrics>>,
    ) -> Result<ProviderTokens, ProviderSetupError> {
        let issuer = normalise_issuer(&settings.issuer);
        let provider = Provider::discover(&issuer)
            .await
            .map_err(|source| ProviderSetupError::Discovery { issuer: issuer.clone(), source })?;
        let jwks_uri = provider.jwks_uri.ok_or_else(|| ProviderSetupError::NoKeys { issuer: issuer.clone() })?;
        let keys = KeyStore::start(&issuer, &jwks_uri, metrics)
            .await
            .map_err(|source| ProviderSetupError::Keys { issuer: issuer.clone(), source })?;
        Ok(ProviderTokens {
            issuer,
            audience: settings.audience,
            groups_claim: settings.groups_claim,
            ui_client_id: settings.ui_client_id,
            keys,
        })
    }

    /// The issuer whose tokens are accepted.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The public client the web UI signs in with, if the server names one.
    pub fn ui_client_id(&self) -> Option<&str> {
        self.ui_client_id.as_deref()
    }

    /// The user a token names, when it is a valid access token of this provider.
    pub async fn verify(&self, token: &str) -> Result<TokenUser, TokenError> {
        let header = token::read_header(token)?;
        let key = self.keys.key_for(header.kid.as_deref(), header.alg).await?;
        let claims = token::verified_claims(token, &header, &key, &self.issuer, self.audience.as_deref())?;
        token::user_of(&claims, &self.groups_claim)
    }
}

//! A provider as discovery describes it, and the client that signs in to it: the issuer and endpoints read
//! from `ISSUER/.well-known/openid-configuration`, the HTTP client and timeout every request to a provider
//! uses, and the error a provider that cannot be reached gives. The grants ([`super::grant`]) and the
//! browser's sign-in ([`super::browser`]) are built on it.

use std::time::Duration;

use reqwest::Client;
use serde::Deserialize;

use crate::error::{root_cause, RemoteError};

/// The client id a sign-in uses when none is given: the one the production server's provider documents.
pub const DEFAULT_CLIENT_ID: &str = "ppt";

/// A client of the provider: its id and, for a confidential client, its secret.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientCredentials {
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Where the secret came from (a variable's name, a file's path), named when the provider refuses it so
    /// that the message says what to fix; never the secret itself.
    pub secret_source: Option<String>,
}

impl std::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "…"))
            .field("secret_source", &self.secret_source)
            .finish()
    }
}

impl ClientCredentials {
    /// A client with this id and, when given and not blank, this secret.
    pub fn new(client_id: &str, client_secret: Option<&str>) -> Self {
        ClientCredentials {
            client_id: client_id.trim().to_owned(),
            client_secret: client_secret.map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned),
            secret_source: None,
        }
    }

    /// The same client, its secret said to come from `source` (`STUDIO_REMOTE_CLIENT_SECRET`, `the file
    /// …`) in messages.
    pub fn with_secret_source(mut self, source: impl Into<String>) -> Self {
        self.secret_source = Some(source.into());
        self
    }
}

/// The endpoints of a provider, as its discovery document names them.
#[derive(Debug, Clone, Deserialize)]
pub struct Provider {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default)]
    pub jwks_uri: Option<String>,
    #[serde(default)]
    pub end_session_endpoint: Option<String>,
    #[serde(skip)]
    http: Option<Client>,
}

/// How long a provider may take to answer one request.
pub const PROVIDER_TIMEOUT: Duration = Duration::from_secs(15);

/// The HTTP client used to talk to providers.
pub(crate) fn provider_client() -> Result<Client, RemoteError> {
    Client::builder()
        .connect_timeout(Duration::from_secs(5))
        .timeout(PROVIDER_TIMEOUT)
        .user_agent(concat!("search-studio/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| RemoteError::Client(root_cause(&e)))
}

/// The issuer URL as it is compared and joined: trimmed, without a trailing slash.
pub fn normalise_issuer(issuer: &str) -> String {
    issuer.trim().trim_end_matches('/').to_owned()
}

impl Provider {
    /// Reads `ISSUER/.well-known/openid-configuration` and checks that it describes `issuer`.
    pub async fn discover(issuer: &str) -> Result<Provider, RemoteError> {
        let issuer = normalise_issuer(issuer);
        let bad = |reason: String| RemoteError::SignIn { issuer: issuer.clone(), message: reason };
        let parsed = reqwest::Url::parse(&issuer).map_err(|e| {
            bad(format!("`{issuer}` is not an issuer URL ({e}); write it like https://sso.example.org/realms/NAME"))
        })?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(bad(format!("`{issuer}` is not an http(s) issuer URL")));
        }
        let http = provider_client()?;
        let url = format!("{issuer}/.well-known/openid-configuration");
        let response = http.get(&url).send().await.map_err(|e| unreachable(&issuer, &e))?;
        let status = response.status();
        let body = response.bytes().await.map_err(|e| unreachable(&issuer, &e))?;
        if !status.is_success() {
            return Err(bad(format!("its discovery document {url} was answered {status}; check the issuer URL")));
        }
        let mut provider: Provider = serde_json::from_slice(&body)
            .map_err(|e| bad(format!("{url} is not an OpenID discovery document ({e})")))?;
        if normalise_issuer(&provider.issuer) != issuer {
            return Err(bad(format!(
                "its discovery document names another issuer, `{}`; use that URL as the issuer",
                provider.issuer
            )));
        }
        provider.issuer = issuer;
        provider.http = Some(http);
        Ok(provider)
    }

    pub(crate) fn http(&self) -> Result<Client, RemoteError> {
        match &self.http {
            Some(client) => Ok(client.clone()),
            None => provider_client(),
        }
    }
}

/// Why a provider could not be reached: a timeout, or the innermost cause of the failure.
pub(crate) fn unreachable(issuer: &str, e: &reqwest::Error) -> RemoteError {
    if e.is_timeout() {
        return RemoteError::TimedOut { server: issuer.to_owned(), after: PROVIDER_TIMEOUT };
    }
    RemoteError::Unreachable { server: format!("the sign-in provider {issuer}"), reason: root_cause(e) }
}

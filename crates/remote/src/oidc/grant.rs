//! The token endpoint: the grants Search Studio uses and the tokens they give.

use std::time::{Duration, SystemTime};

use base64::Engine;
use serde::Deserialize;

use super::provider::{unreachable, ClientCredentials, Provider};
use crate::error::RemoteError;

/// What a successful grant gave: an access token and, usually, a refresh token, with when each expires.
#[derive(Clone, PartialEq, Eq)]
pub struct Tokens {
    pub access_token: String,
    /// When the access token expires; `None` when the provider did not say.
    pub expires_at: Option<SystemTime>,
    /// How long the access token was given for, which decides how early it is renewed.
    pub lifetime: Option<Duration>,
    pub refresh_token: Option<String>,
    /// When the refresh token expires; `None` when the provider did not say (or it does not expire).
    pub refresh_expires_at: Option<SystemTime>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("expires_at", &self.expires_at)
            .field("refresh_token", &self.refresh_token.as_ref().map(|_| "…"))
            .field("refresh_expires_at", &self.refresh_expires_at)
            .finish_non_exhaustive()
    }
}

/// The longest time before expiry at which an access token is renewed.
const MAX_MARGIN: Duration = Duration::from_secs(30);

impl Tokens {
    /// Tokens made of a refresh token alone (kept from an earlier session): the first use refreshes them.
    pub fn from_refresh_token(refresh_token: String, refresh_expires_at: Option<SystemTime>) -> Self {
        Tokens {
            access_token: String::new(),
            expires_at: Some(SystemTime::UNIX_EPOCH),
            lifetime: None,
            refresh_token: Some(refresh_token),
            refresh_expires_at,
        }
    }

    /// Whether the access token should be renewed before it is used at `now`: it is missing, expired, or
    /// within a quarter of its lifetime (at most 30 s) of expiring.
    pub fn needs_renewal(&self, now: SystemTime) -> bool {
        if self.access_token.is_empty() {
            return true;
        }
        let Some(expires_at) = self.expires_at else { return false };
        let margin = self.lifetime.map_or(MAX_MARGIN, |life| (life / 4).min(MAX_MARGIN));
        expires_at.duration_since(now).map_or(true, |left| left <= margin)
    }

    /// The refresh token, while it has not expired at `now`.
    pub fn usable_refresh_token(&self, now: SystemTime) -> Option<&str> {
        let token = self.refresh_token.as_deref()?;
        match self.refresh_expires_at {
            Some(at) if at <= now => None,
            _ => Some(token),
        }
    }
}

/// A token endpoint's answer (RFC 6749 §5.1, with Keycloak's `refresh_expires_in`).
#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    #[serde(default)]
    token_type: Option<String>,
    #[serde(default)]
    expires_in: Option<f64>,
    #[serde(default)]
    refresh_token: Option<String>,
    #[serde(default)]
    refresh_expires_in: Option<f64>,
}

/// A token endpoint's error answer (RFC 6749 §5.2).
#[derive(Deserialize)]
struct ErrorAnswer {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// The `exp` claim of an access token that is a JWT (read, not verified: only the server checks it).
fn jwt_expiry(token: &str) -> Option<SystemTime> {
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    let exp = serde_json::from_slice::<serde_json::Value>(&bytes).ok()?.get("exp")?.as_f64()?;
    Some(SystemTime::UNIX_EPOCH + seconds(Some(exp))?)
}

fn seconds(value: Option<f64>) -> Option<Duration> {
    value.filter(|s| s.is_finite() && *s > 0.0).and_then(|s| Duration::try_from_secs_f64(s).ok())
}

/// `application/x-www-form-urlencoded` encoding of one value, as HTTP Basic client authentication needs it
/// (RFC 6749 §2.3.1).
fn form_encode(value: &str) -> String {
    reqwest::Url::parse_with_params("x:", [("v", value)])
        .ok()
        .and_then(|u| u.query().map(|q| q.trim_start_matches("v=").to_owned()))
        .unwrap_or_default()
}

/// What a refused grant means (RFC 6749 §5.2): `invalid_grant` is a refused user, password or refresh token
/// ([`RemoteError::GrantRefused`]); a refused client or secret, or a grant the client may not use, are
/// settings to fix, and the message says which one and where the secret came from. Never holds a secret.
fn refusal(
    issuer: &str,
    client: &ClientCredentials,
    grant_type: &str,
    status: u16,
    answer: Option<ErrorAnswer>,
) -> RemoteError {
    let fail = |message: String| RemoteError::SignIn { issuer: issuer.to_owned(), message };
    let Some(answer) = answer else {
        return fail(format!("its token endpoint answered HTTP {status} without an OAuth error"));
    };
    let text = answer.error_description.filter(|d| !d.trim().is_empty()).unwrap_or_else(|| answer.error.clone());
    let reason = format!("{text} ({}, HTTP {status})", answer.error);
    let id = &client.client_id;
    if answer.error == "invalid_grant" {
        return RemoteError::GrantRefused { issuer: issuer.to_owned(), message: reason };
    }
    // A wrong client or secret: `invalid_client` (RFC 6749), or Keycloak's `unauthorized_client` with 401 (which
    // Keycloak also answers to a client without a service account, saying so).
    let no_service_account = text.contains("service account");
    let client_refused = answer.error == "invalid_client"
        || (answer.error == "unauthorized_client" && status == 401 && !no_service_account);
    if client_refused {
        return fail(match (&client.client_secret, &client.secret_source) {
            (Some(_), Some(source)) => format!(
                "it refused client `{id}` with the secret from {source} ({reason}); put the client's current secret \
                 there (the provider shows it with the client's credentials)"
            ),
            (Some(_), None) => {
                format!("it refused client `{id}` with the secret given ({reason}); give the client's current secret")
            }
            (None, _) => format!(
                "it refused client `{id}` ({reason}); check the client id, and give the secret of a confidential client"
            ),
        });
    }
    if answer.error == "unauthorized_client" {
        return fail(format!(
            "client `{id}` may not use the {} grant there ({reason}); allow it at the provider ({})",
            grant_name(grant_type),
            grant_setting(grant_type)
        ));
    }
    fail(reason)
}

/// A grant type as messages name it.
fn grant_name(grant_type: &str) -> &str {
    match grant_type {
        "client_credentials" => "client credentials",
        "refresh_token" => "refresh token",
        "authorization_code" => "authorization code",
        other => other,
    }
}

/// Where Keycloak, the provider most teams run, allows a client a grant.
fn grant_setting(grant_type: &str) -> &'static str {
    match grant_type {
        "client_credentials" => "in Keycloak, turn on the client's service account roles",
        "password" => "in Keycloak, turn on the client's direct access grants",
        _ => "in the client's settings",
    }
}

impl Provider {
    /// Sends one grant to the token endpoint and reads the tokens it gives.
    async fn grant(&self, client: &ClientCredentials, mut form: Vec<(&str, String)>) -> Result<Tokens, RemoteError> {
        let started = SystemTime::now();
        let grant_type = form.iter().find(|(k, _)| *k == "grant_type").map_or("", |(_, v)| v.as_str()).to_owned();
        let grant_type = grant_type.as_str();
        let mut request = self.http()?.post(&self.token_endpoint).header("Accept", "application/json");
        match &client.client_secret {
            // Basic authentication is the one every provider must accept (RFC 6749 §2.3.1).
            Some(secret) => {
                let pair = format!("{}:{}", form_encode(&client.client_id), form_encode(secret));
                let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
                request = request.header("Authorization", format!("Basic {encoded}"));
            }
            None => form.push(("client_id", client.client_id.clone())),
        }
        let response = request.form(&form).send().await.map_err(|e| unreachable(&self.issuer, &e))?;
        let status = response.status();
        let body = response.bytes().await.map_err(|e| unreachable(&self.issuer, &e))?;
        if !status.is_success() {
            let answer = serde_json::from_slice::<ErrorAnswer>(&body).ok();
            return Err(refusal(&self.issuer, client, grant_type, status.as_u16(), answer));
        }
        let answer: TokenAnswer = serde_json::from_slice(&body).map_err(|e| RemoteError::SignIn {
            issuer: self.issuer.clone(),
            message: format!("its token endpoint answered something that is not a token answer ({e})"),
        })?;
        if answer.token_type.as_deref().is_some_and(|t| !t.eq_ignore_ascii_case("bearer")) {
            return Err(RemoteError::SignIn {
                issuer: self.issuer.clone(),
                message: format!(
                    "it gave a token of type `{}`, not a bearer token",
                    answer.token_type.unwrap_or_default()
                ),
            });
        }
        // A JWT's own `exp` is whole seconds and can be up to a second earlier than `expires_in` counted
        // from the request: whichever comes first is when the token expires.
        let expires_at = [seconds(answer.expires_in).map(|l| started + l), jwt_expiry(&answer.access_token)]
            .into_iter()
            .flatten()
            .min();
        let lifetime = expires_at.map(|at| at.duration_since(started).unwrap_or_default());
        Ok(Tokens {
            access_token: answer.access_token,
            expires_at,
            lifetime,
            refresh_token: answer.refresh_token.filter(|t| !t.is_empty()),
            refresh_expires_at: seconds(answer.refresh_expires_in).map(|l| started + l),
        })
    }

    /// The password grant (Keycloak's direct access grant).
    pub async fn password_grant(
        &self,
        client: &ClientCredentials,
        username: &str,
        password: &str,
    ) -> Result<Tokens, RemoteError> {
        let form = vec![
            ("grant_type", "password".to_owned()),
            ("username", username.to_owned()),
            ("password", password.to_owned()),
            ("scope", "openid".to_owned()),
        ];
        self.grant(client, form).await
    }

    /// The client credentials grant (RFC 6749 §4.4): the client signs in as itself, with its secret, and
    /// gets an access token for its service account (Keycloak: user `service-account-<client id>`). Such a
    /// token usually comes without a refresh token: it is renewed by the same grant.
    pub async fn client_credentials_grant(&self, client: &ClientCredentials) -> Result<Tokens, RemoteError> {
        if client.client_secret.is_none() {
            return Err(RemoteError::SignIn {
                issuer: self.issuer.clone(),
                message: format!(
                    "the client credentials grant needs the secret of client `{}`, and none was given",
                    client.client_id
                ),
            });
        }
        self.grant(client, vec![("grant_type", "client_credentials".to_owned())]).await
    }

    /// The refresh token grant with the refresh token of `current`. A refresh token that is no longer valid
    /// gives [`RemoteError::GrantRefused`].
    pub async fn refresh(&self, client: &ClientCredentials, current: &Tokens) -> Result<Tokens, RemoteError> {
        let refresh_token = current.refresh_token.clone().unwrap_or_default();
        let form = vec![("grant_type", "refresh_token".to_owned()), ("refresh_token", refresh_token)];
        let mut tokens = self.grant(client, form).await?;
        // A provider that does not rotate refresh tokens answers without one: the old one stays valid, with
        // the expiry it had.
        if tokens.refresh_token.is_none() {
            tokens.refresh_token = current.refresh_token.clone();
            tokens.refresh_expires_at = current.refresh_expires_at;
        }
        Ok(tokens)
    }

    /// The authorization code grant with its PKCE verifier.
    pub async fn exchange_code(
        &self,
        client: &ClientCredentials,
        code: &str,
        verifier: &str,
        redirect_uri: &str,
    ) -> Result<Tokens, RemoteError> {
        let form = vec![
            ("grant_type", "authorization_code".to_owned()),
            ("code", code.to_owned()),
            ("code_verifier", verifier.to_owned()),
            ("redirect_uri", redirect_uri.to_owned()),
        ];
        self.grant(client, form).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUER: &str = "https://sso.example.org/realms/team";

    fn refused(client: &ClientCredentials, grant_type: &str, status: u16, body: &str) -> RemoteError {
        refusal(ISSUER, client, grant_type, status, serde_json::from_str(body).ok())
    }

    fn pipeline() -> ClientCredentials {
        ClientCredentials::new("pipeline", Some("s3cret-value")).with_secret_source("STUDIO_REMOTE_CLIENT_SECRET")
    }

    #[test]
    fn a_refused_secret_names_the_client_and_where_the_secret_came_from_never_the_secret() {
        // oidc-provider's answer, and Keycloak's.
        for (status, body) in [
            (401, r#"{"error":"invalid_client","error_description":"client authentication failed"}"#),
            (
                401,
                r#"{"error":"unauthorized_client","error_description":"Invalid client or Invalid client credentials"}"#,
            ),
        ] {
            let err = refused(&pipeline(), "client_credentials", status, body);
            let RemoteError::SignIn { issuer, message } = &err else { panic!("{err:?}") };
            assert_eq!(issuer, ISSUER);
            assert!(
                message.starts_with("it refused client `pipeline` with the secret from STUDIO_REMOTE_CLIENT_SECRET (")
            );
            assert!(message.contains("put the client's current secret there"), "{message}");
            assert!(!format!("{err} {err:?}").contains("s3cret-value"), "{err}");
        }
        let err =
            refused(&ClientCredentials::new("pipeline", Some("x")), "password", 401, r#"{"error":"invalid_client"}"#);
        assert!(err.to_string().contains("with the secret given (invalid_client (invalid_client, HTTP 401))"), "{err}");
        let err = refused(&ClientCredentials::new("studio", None), "password", 401, r#"{"error":"invalid_client"}"#);
        assert!(err.to_string().contains("check the client id, and give the secret of a confidential client"), "{err}");
    }

    #[test]
    fn a_grant_the_client_may_not_use_says_where_to_allow_it() {
        let keycloak =
            r#"{"error":"unauthorized_client","error_description":"Client not enabled to retrieve service account"}"#;
        let err = refused(&pipeline(), "client_credentials", 401, keycloak);
        assert!(err.to_string().contains("client `pipeline` may not use the client credentials grant there"), "{err}");
        assert!(err.to_string().ends_with("(in Keycloak, turn on the client's service account roles)"), "{err}");
        let body = r#"{"error":"unauthorized_client","error_description":"requested grant type is not allowed for this client"}"#;
        let err = refused(&pipeline(), "client_credentials", 400, body);
        assert_eq!(
            err.to_string(),
            "signing in with https://sso.example.org/realms/team failed: client `pipeline` may not use the client \
             credentials grant there (requested grant type is not allowed for this client (unauthorized_client, HTTP \
             400)); allow it at the provider (in Keycloak, turn on the client's service account roles)"
        );
    }

    #[test]
    fn invalid_grant_is_a_refused_sign_in_and_anything_else_a_provider_fault() {
        let err = refused(
            &pipeline(),
            "password",
            401,
            r#"{"error":"invalid_grant","error_description":"Invalid user credentials"}"#,
        );
        assert_eq!(
            err,
            RemoteError::GrantRefused {
                issuer: ISSUER.into(),
                message: "Invalid user credentials (invalid_grant, HTTP 401)".into()
            }
        );
        let err = refused(&pipeline(), "client_credentials", 502, "<html>bad gateway</html>");
        assert!(err.to_string().ends_with("its token endpoint answered HTTP 502 without an OAuth error"), "{err}");
        let err = refused(&pipeline(), "client_credentials", 400, r#"{"error":"invalid_scope"}"#);
        assert!(err.to_string().ends_with("failed: invalid_scope (invalid_scope, HTTP 400)"), "{err}");
    }
}

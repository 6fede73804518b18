//! How a client signs in to a server, and keeping its access token valid: renewed shortly before it
//! expires (the refresh token grant), and once more when the server answers 401. When there is no refresh
//! token (the client credentials grant gives none) or refreshing fails (the provider's session ended), the
//! sign-in's grant is repeated (the password grant with the password given, or the client credentials grant
//! with the client's secret); without one the caller is told to sign in again ([`RemoteError::SignInNeeded`])
//! and can hand the session new tokens.
//!
//! One renewal runs at a time: requests that find the token expiring wait for the same renewal instead of
//! each starting their own. Tokens and passwords never appear in logs, `Debug` output or errors.

use std::sync::Arc;
use std::time::SystemTime;

use tokio::sync::{Mutex, OnceCell};

use crate::error::RemoteError;
use crate::oidc::{ClientCredentials, Provider, Tokens};

/// A username and password for the password grant.
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordCredentials {
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for PasswordCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PasswordCredentials").field("username", &self.username).finish_non_exhaustive()
    }
}

/// The grant that signs a session in without a person: at first, and again whenever there is no refresh
/// token to renew the tokens with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    /// The password grant (Keycloak's direct access grant), as this user.
    Password(PasswordCredentials),
    /// The client credentials grant: the client signs in as itself (its service account) with its secret.
    ClientCredentials,
}

impl Grant {
    /// The grant's `grant_type` (RFC 6749), as logs name it; nothing of its credentials.
    pub fn grant_type(&self) -> &'static str {
        match self {
            Grant::Password(_) => "password",
            Grant::ClientCredentials => "client_credentials",
        }
    }
}

/// Signing in through an OpenID Connect provider. Its `Debug` output names the issuer and client only.
#[derive(Clone)]
pub struct ProviderSignIn {
    /// The provider's issuer URL; its endpoints come from OpenID discovery.
    pub issuer: String,
    pub client: ClientCredentials,
    /// The grant used to sign in at first and again whenever refreshing fails or is not possible; none
    /// when a person signs in (through the browser) and hands the session its tokens.
    pub grant: Option<Grant>,
    /// Tokens already obtained (through the browser, or a refresh token kept from an earlier session).
    pub tokens: Option<Tokens>,
}

impl std::fmt::Debug for ProviderSignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderSignIn")
            .field("issuer", &self.issuer)
            .field("client", &self.client)
            .field("grant", &self.grant)
            .field("tokens", &self.tokens)
            .finish()
    }
}

/// How a client proves who it is to a server.
// Made once per connection and moved into its transport: the size of the provider's variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum SignIn {
    /// No Authorization header.
    Anonymous,
    /// A pasted access token, sent as it is and never renewed.
    Token(String),
    /// Tokens of an OpenID Connect provider, renewed as they expire.
    Provider(ProviderSignIn),
}

impl std::fmt::Debug for SignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SignIn::Anonymous => f.write_str("Anonymous"),
            SignIn::Token(_) => f.write_str("Token(…)"),
            SignIn::Provider(provider) => f.debug_tuple("Provider").field(provider).finish(),
        }
    }
}

impl SignIn {
    /// A pasted token, or no sign-in for `None` or a blank token.
    pub fn token(token: Option<&str>) -> SignIn {
        match token.map(str::trim).filter(|t| !t.is_empty()) {
            Some(t) => SignIn::Token(t.to_owned()),
            None => SignIn::Anonymous,
        }
    }
}

/// Told about every new set of tokens, so that the refresh token can be kept (in the keyring) for the next
/// start, and about every renewal and its outcome, so that a server can count them. Called while the
/// session's lock is held: it must not call back into the session.
pub trait TokenKeeper: Send + Sync {
    /// New tokens: keep the refresh token (and its expiry) for the next start.
    fn keep(&self, tokens: &Tokens);
    /// New tokens were obtained from the provider (a refresh, or the sign-in's grant, the first sign-in
    /// included).
    fn renewed(&self) {}
    /// Obtaining new tokens failed with `error` (the provider unreachable, or the sign-in ended).
    fn renewal_failed(&self, error: &RemoteError) {
        let _ = error;
    }
    /// The sign-in has ended (the provider refused the refresh token and the grant, or there is none):
    /// forget what was kept, a remembered password included, so that nothing stale is offered again.
    fn ended(&self) {}
}

/// The tokens of one server's sign-in through a provider.
pub struct Session {
    server: String,
    issuer: String,
    client: ClientCredentials,
    grant: std::sync::Mutex<Option<Grant>>,
    provider: OnceCell<Provider>,
    tokens: Mutex<Option<Tokens>>,
    keeper: Option<Arc<dyn TokenKeeper>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("server", &self.server).field("issuer", &self.issuer).finish_non_exhaustive()
    }
}

impl Session {
    /// A session for `server` (used in messages) with the given sign-in. Nothing is sent yet.
    pub fn new(server: &str, sign_in: ProviderSignIn, keeper: Option<Arc<dyn TokenKeeper>>) -> Session {
        Session {
            server: server.to_owned(),
            issuer: crate::oidc::normalise_issuer(&sign_in.issuer),
            client: sign_in.client,
            grant: std::sync::Mutex::new(sign_in.grant),
            provider: OnceCell::new(),
            tokens: Mutex::new(sign_in.tokens),
            keeper,
        }
    }

    /// The issuer URL.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The provider's endpoints, discovered on first use.
    pub async fn provider(&self) -> Result<&Provider, RemoteError> {
        self.provider.get_or_try_init(|| Provider::discover(&self.issuer)).await
    }

    fn grant(&self) -> Option<Grant> {
        self.grant.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// An access token that is valid now, renewing it first when it is about to expire.
    pub async fn bearer(&self) -> Result<String, RemoteError> {
        let mut tokens = self.tokens.lock().await;
        match tokens.as_ref() {
            Some(t) if !t.needs_renewal(SystemTime::now()) => Ok(t.access_token.clone()),
            _ => self.renew(&mut tokens).await,
        }
    }

    /// The server refused `sent`: renews the token (unless another request already did) and returns the new one.
    pub async fn rejected(&self, sent: &str) -> Result<String, RemoteError> {
        let mut tokens = self.tokens.lock().await;
        match tokens.as_ref() {
            Some(t) if t.access_token != sent && !t.needs_renewal(SystemTime::now()) => Ok(t.access_token.clone()),
            _ => self.renew(&mut tokens).await,
        }
    }

    /// Takes tokens obtained elsewhere (a browser sign-in).
    pub async fn sign_in_with_tokens(&self, fresh: Tokens) {
        self.store(&mut *self.tokens.lock().await, fresh);
    }

    /// Keeps new tokens (telling the keeper) and returns the access token.
    fn store(&self, slot: &mut Option<Tokens>, fresh: Tokens) -> String {
        if let Some(keeper) = &self.keeper {
            keeper.keep(&fresh);
        }
        let bearer = fresh.access_token.clone();
        *slot = Some(fresh);
        bearer
    }

    /// Renews the tokens, telling the keeper how it went.
    async fn renew(&self, slot: &mut Option<Tokens>) -> Result<String, RemoteError> {
        let renewed = self.renew_once(slot).await;
        if let Some(keeper) = &self.keeper {
            match &renewed {
                Ok(_) => keeper.renewed(),
                Err(e) => keeper.renewal_failed(e),
            }
        }
        renewed
    }

    /// Refresh, else the sign-in's grant, else "sign in again". A provider that cannot be reached is
    /// reported as such, and the tokens are kept for the next try. A grant the provider refuses (a wrong
    /// password) is forgotten at once, so that it is not tried again on every request (a provider may lock
    /// the account after a few failures).
    async fn renew_once(&self, slot: &mut Option<Tokens>) -> Result<String, RemoteError> {
        let current = slot.clone().filter(|t| t.usable_refresh_token(SystemTime::now()).is_some());
        if current.is_none() && self.grant().is_none() {
            return Err(self.end(slot, None));
        }
        let provider = self.provider().await?;
        let mut ended = None;
        if let Some(current) = current {
            match provider.refresh(&self.client, &current).await {
                Ok(fresh) => {
                    tracing::debug!(issuer = %self.issuer, "access token refreshed");
                    return Ok(self.store(slot, fresh));
                }
                Err(RemoteError::GrantRefused { message, .. }) => {
                    ended = Some(format!("the session with {} has ended ({message})", self.issuer));
                }
                Err(other) => return Err(other),
            }
        }
        if let Some(grant) = self.grant() {
            let given = match &grant {
                Grant::Password(c) => provider.password_grant(&self.client, &c.username, &c.password).await,
                Grant::ClientCredentials => provider.client_credentials_grant(&self.client).await,
            };
            match given {
                Ok(fresh) => {
                    tracing::debug!(issuer = %self.issuer, grant = grant.grant_type(), "signed in with the grant");
                    return Ok(self.store(slot, fresh));
                }
                Err(RemoteError::GrantRefused { message, .. }) => {
                    *self.grant.lock().unwrap_or_else(|p| p.into_inner()) = None;
                    ended = Some(match grant {
                        Grant::Password(c) => {
                            format!("{} refused the password of {} ({message})", self.issuer, c.username)
                        }
                        Grant::ClientCredentials => format!(
                            "{} refused the client credentials of `{}` ({message})",
                            self.issuer, self.client.client_id
                        ),
                    });
                }
                Err(other) => return Err(other),
            }
        }
        Err(self.end(slot, ended))
    }

    /// Ends the sign-in: forgets the tokens, tells the keeper, and says why (`refused`: what the provider
    /// refused; none when there was nothing left to try).
    fn end(&self, slot: &mut Option<Tokens>, refused: Option<String>) -> RemoteError {
        let had_tokens = slot.take().is_some();
        if let (true, Some(keeper)) = (had_tokens || refused.is_some(), &self.keeper) {
            keeper.ended();
        }
        let reason = refused.unwrap_or_else(|| format!("there is no valid sign-in with {}", self.issuer));
        RemoteError::SignInNeeded { server: self.server.clone(), reason }
    }
}

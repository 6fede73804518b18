//! How a client signs in to a server, and keeping its access token valid: renewed shortly before it
//! expires (the refresh token grant), and once more when the server answers 401. When refreshing fails
//! (the provider's session ended), the password grant is repeated if a password was given; otherwise the
//! caller is told to sign in again ([`RemoteError::SignInNeeded`]) and can hand the session new tokens.
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

/// Signing in through an OpenID Connect provider.
#[derive(Debug, Clone)]
pub struct ProviderSignIn {
    /// The provider's issuer URL; its endpoints come from OpenID discovery.
    pub issuer: String,
    pub client: ClientCredentials,
    /// For the password grant: used to sign in at first and again whenever refreshing fails.
    pub password: Option<PasswordCredentials>,
    /// Tokens already obtained (through the browser, or a refresh token kept from an earlier session).
    pub tokens: Option<Tokens>,
}

/// How a client proves who it is to a server.
#[derive(Debug, Clone)]
pub enum SignIn {
    /// No Authorization header.
    Anonymous,
    /// A pasted access token, sent as it is and never renewed.
    Token(String),
    /// Tokens of an OpenID Connect provider, renewed as they expire.
    Provider(ProviderSignIn),
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
/// start. Called while the session's lock is held: it must not call back into the session.
pub trait TokenKeeper: Send + Sync {
    fn keep(&self, tokens: &Tokens);
}

/// The tokens of one server's sign-in through a provider.
pub struct Session {
    server: String,
    issuer: String,
    client: ClientCredentials,
    password: std::sync::Mutex<Option<PasswordCredentials>>,
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
            password: std::sync::Mutex::new(sign_in.password),
            provider: OnceCell::new(),
            tokens: Mutex::new(sign_in.tokens),
            keeper,
        }
    }

    /// The issuer URL.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The client id and secret.
    pub fn client(&self) -> &ClientCredentials {
        &self.client
    }

    /// The provider's endpoints, discovered on first use.
    pub async fn provider(&self) -> Result<&Provider, RemoteError> {
        self.provider.get_or_try_init(|| Provider::discover(&self.issuer)).await
    }

    fn password(&self) -> Option<PasswordCredentials> {
        match self.password.lock() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
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

    /// Signs in with the password grant now (replacing the password kept for later renewals).
    pub async fn sign_in_with_password(&self, credentials: PasswordCredentials) -> Result<(), RemoteError> {
        let provider = self.provider().await?;
        let fresh = provider.password_grant(&self.client, &credentials.username, &credentials.password).await?;
        match self.password.lock() {
            Ok(mut guard) => *guard = Some(credentials),
            Err(poisoned) => *poisoned.into_inner() = Some(credentials),
        }
        self.store(&mut *self.tokens.lock().await, fresh);
        Ok(())
    }

    /// Takes tokens obtained elsewhere (a browser sign-in).
    pub async fn sign_in_with_tokens(&self, fresh: Tokens) {
        self.store(&mut *self.tokens.lock().await, fresh);
    }

    fn store(&self, slot: &mut Option<Tokens>, fresh: Tokens) {
        if let Some(keeper) = &self.keeper {
            keeper.keep(&fresh);
        }
        *slot = Some(fresh);
    }

    /// Refresh, else the password grant, else "sign in again". A provider that cannot be reached is
    /// reported as such, and the tokens are kept for the next try.
    async fn renew(&self, slot: &mut Option<Tokens>) -> Result<String, RemoteError> {
        let provider = self.provider().await?;
        let mut ended = None;
        if let Some(refresh) = slot.as_ref().and_then(|t| t.usable_refresh_token(SystemTime::now())) {
            match provider.refresh(&self.client, refresh).await {
                Ok(fresh) => {
                    tracing::debug!(issuer = %self.issuer, "access token refreshed");
                    let bearer = fresh.access_token.clone();
                    self.store(slot, fresh);
                    return Ok(bearer);
                }
                Err(RemoteError::GrantRefused { message, .. }) => ended = Some(message),
                Err(other) => return Err(other),
            }
        }
        if let Some(credentials) = self.password() {
            let fresh = provider.password_grant(&self.client, &credentials.username, &credentials.password).await?;
            tracing::debug!(issuer = %self.issuer, "signed in again with the password grant");
            let bearer = fresh.access_token.clone();
            self.store(slot, fresh);
            return Ok(bearer);
        }
        *slot = None;
        let reason = match ended {
            Some(message) => format!("the session with {} has ended ({message})", self.issuer),
            None => format!("there is no valid sign-in with {}", self.issuer),
        };
        Err(RemoteError::SignInNeeded { server: self.server.clone(), reason })
    }
}

//! Bearer-token authentication and per-group authorisation (docs/api.md, Authentication).
//!
//! Two kinds of token name a caller: the tokens of the auth file ([`file`], kept only as SHA-256 digests)
//! and, with `--oidc-issuer`, JWT access tokens signed by an OpenID Connect provider ([`provider`]), whose
//! groups claim names groups of the same file. Whatever the kind, the caller becomes one [`Principal`]
//! whose rights are those of its groups. Neither a token nor its digest is ever logged, and no answer
//! repeats one.

mod file;
mod principal;
pub mod provider;
mod web;

use std::path::Path;
use std::sync::{Arc, RwLock};

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;

use crate::error::AppError;
use file::FileCallers;
pub use file::{token_digest, AuthFileError};
pub use principal::{Operation, Principal};
pub use provider::{ProviderSettings, ProviderSetupError, ProviderTokens};
pub use web::WebSignIn;

/// The callers the server knows: the auth file's users and groups, and the provider whose tokens it also
/// accepts, if any.
pub struct Auth {
    /// The auth file's users and groups, replaced whole when the file is read again ([`Auth::reload`]); a
    /// request holds the ones it started with.
    callers: RwLock<Arc<FileCallers>>,
    provider: Option<ProviderTokens>,
}

impl Auth {
    fn of(callers: FileCallers) -> Auth {
        Auth { callers: RwLock::new(Arc::new(callers)), provider: None }
    }

    /// Reads an auth file (docs/api.md, The auth file).
    pub fn from_file(path: &Path) -> Result<Auth, AuthFileError> {
        Ok(Auth::of(FileCallers::read(path)?))
    }

    /// One user, `name`, with a fresh random token granting everything. Returns the token to show once.
    pub fn single_random_user(name: &str) -> (Auth, String) {
        let (callers, token) = FileCallers::single_random_user(name);
        (Auth::of(callers), token)
    }

    /// The users and groups in force now.
    fn callers(&self) -> Arc<FileCallers> {
        // A panic while the lock was held cannot leave a half-written value: the value is swapped whole.
        self.callers.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Takes the users and groups of `other` (the auth file read again), keeping this one's provider.
    /// Requests already authenticated keep the rights they had.
    pub fn replace_users(&self, other: Auth) {
        let fresh = other.callers();
        *self.callers.write().unwrap_or_else(std::sync::PoisonError::into_inner) = fresh;
    }

    /// How many users the auth file in force names.
    pub fn user_count(&self) -> usize {
        self.callers().users.len()
    }

    /// Also accepts the access tokens `provider` verifies; their groups claim names this file's groups.
    pub fn with_provider_tokens(mut self, provider: ProviderTokens) -> Auth {
        self.provider = Some(provider);
        self
    }

    /// The provider sign-in the web UI offers, when the provider's tokens are accepted and a client for
    /// the web UI is named.
    pub fn web_sign_in(&self) -> Option<WebSignIn> {
        let provider = self.provider.as_ref()?;
        WebSignIn::new(provider.issuer(), provider.ui_client_id()?)
    }

    /// Resolves the `Authorization` header of a request: an auth-file token first, then (when a provider
    /// is configured and the token is shaped like a JWT) a provider's access token.
    pub async fn authenticate(&self, header: Option<&str>) -> Result<Principal, AppError> {
        let header = header
            .ok_or_else(|| AppError::unauthorized("this request needs the header `Authorization: Bearer <token>`"))?;
        let token = header
            .split_once(' ')
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .filter(|token| !token.is_empty())
            .ok_or_else(|| AppError::unauthorized("the Authorization header must be `Bearer <token>`"))?;
        if let Some(principal) = self.callers().principal_of(token) {
            return Ok(principal);
        }
        match &self.provider {
            Some(provider) if provider::looks_like_jwt(token) => {
                let user = provider.verify(token).await.map_err(|e| AppError::unauthorized(e.to_string()))?;
                Ok(self.token_principal(user))
            }
            _ => Err(AppError::unauthorized("the bearer token is not known to this server")),
        }
    }

    /// The principal of a verified provider token: the auth file's groups its groups claim names. A group
    /// path's leading `/` (Keycloak writes `/designers`) is not part of the name; unknown groups grant
    /// nothing.
    fn token_principal(&self, user: provider::TokenUser) -> Principal {
        let callers = self.callers();
        let grants =
            user.groups.iter().filter_map(|group| callers.groups.get(group.strip_prefix('/').unwrap_or(group)));
        Principal::with_grants(user.name, grants)
    }
}

/// Middleware: resolves the caller and puts their [`Principal`] into the request, or answers 401.
pub async fn require_token(
    State(auth): State<Arc<Auth>>,
    mut request: Request,
    next: Next,
) -> Result<Response, AppError> {
    let header = request.headers().get(AUTHORIZATION).map(|v| v.to_str().unwrap_or(""));
    let principal = auth.authenticate(header).await?;
    request.extensions_mut().insert(principal);
    Ok(next.run(request).await)
}

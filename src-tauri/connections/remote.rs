//! The client of a remote connection: a `RemoteBackend` built from the connection and its secrets, which
//! renews a provider's tokens by itself and tells the secrets about every new refresh token, so that the
//! next start goes on without signing in until the provider's session ends.

use std::sync::Arc;

use studio_model::{BackendError, ErrorCode};
use studio_remote::oidc::{ClientCredentials, Provider, Tokens};
use studio_remote::{Grant, PasswordCredentials, ProviderSignIn, RemoteBackend, RemoteOptions, SignIn, TokenKeeper};

use super::model::{SignInMethod, StoredConnection};
use crate::error::IpcError;
use crate::secrets::{Held, Secrets};

/// Saves the refresh token of every new set of tokens of one connection, and forgets the tokens and the
/// remembered password once the provider has ended the sign-in.
struct KeepInSecrets {
    id: String,
    secrets: Arc<Secrets>,
}

impl TokenKeeper for KeepInSecrets {
    fn keep(&self, tokens: &Tokens) {
        self.secrets.keep_tokens(&self.id, tokens);
    }

    fn ended(&self) {
        self.secrets.end_sign_in(&self.id);
    }
}

/// The provider client of `connection`, with the client secret `held` keeps.
pub fn client(connection: &StoredConnection, held: &Held) -> ClientCredentials {
    ClientCredentials::new(connection.client_id(), held.saved.client_secret.as_deref())
}

/// How the client of `connection` signs in, from what `held` keeps.
fn sign_in(connection: &StoredConnection, held: &Held) -> Result<SignIn, IpcError> {
    Ok(match connection.sign_in {
        SignInMethod::None => SignIn::Anonymous,
        SignInMethod::Token => SignIn::token(held.session_token.as_deref().or(held.saved.token.as_deref())),
        SignInMethod::Password | SignInMethod::Browser => {
            let password = match (&connection.username, &held.saved.password) {
                (Some(username), Some(password)) if connection.sign_in == SignInMethod::Password => {
                    Some(PasswordCredentials { username: username.clone(), password: password.clone() })
                }
                _ => None,
            };
            SignIn::Provider(ProviderSignIn {
                issuer: connection.issuer()?.to_owned(),
                client: client(connection, held),
                grant: password.map(Grant::Password),
                tokens: held.tokens.clone().or_else(|| held.saved.refresh_tokens()),
            })
        }
    })
}

/// A new client of `connection`'s server, signing in with `held` (the secrets it has, or is about to
/// have); the tokens it renews go to `secrets`.
pub fn build(connection: &StoredConnection, held: &Held, secrets: &Arc<Secrets>) -> Result<RemoteBackend, IpcError> {
    let keeper: Arc<dyn TokenKeeper> =
        Arc::new(KeepInSecrets { id: connection.id.clone(), secrets: Arc::clone(secrets) });
    RemoteBackend::signed_in(&connection.url, sign_in(connection, held)?, RemoteOptions::default(), Some(keeper))
        .map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot set up a client for {}: {e}", connection.url)))
}

/// Signs in to `connection`'s provider with the password grant, as `username`.
pub async fn password_grant(connection: &StoredConnection, held: &Held, password: &str) -> Result<Tokens, IpcError> {
    let username = connection.username.as_deref().unwrap_or_default();
    let provider = Provider::discover(connection.issuer()?).await.map_err(BackendError::from)?;
    Ok(provider.password_grant(&client(connection, held), username, password).await.map_err(BackendError::from)?)
}

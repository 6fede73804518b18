//! Signing in to a remote connection when its tokens are missing or the provider's session has ended: with
//! a password (the password grant), a pasted token, or through the system browser (authorization code with
//! PKCE and a loopback redirect); and signing out. Each gives the connection a new client holding the new
//! tokens; the provider's refresh token is saved so that the next start needs no sign-in.
//!
//! A sign-in takes time (the provider, the designer in the browser), and the connection may be removed or
//! edited meanwhile: what it obtained is kept only if the connection is still there and still signs in the
//! same way. A connection has at most one browser sign-in waiting; a new one, a cancel or removing the
//! connection ends the wait and closes its loopback listener.

use std::time::Duration;

use studio_model::{Backend, BackendError, ErrorCode};
use studio_remote::oidc::browser::BrowserSignIn;
use studio_remote::oidc::{Provider, Tokens};
use studio_remote::{RemoteBackend, RemoteOptions, SignIn};

use super::model::{given, Connections, SignInInput, SignInMethod, StoredConnection};
use super::remote;
use super::store::ConnectionStore;
use crate::error::IpcError;
use crate::state::BackendSlot;

fn refused(message: impl Into<String>) -> IpcError {
    IpcError::new(ErrorCode::BadRequest, message)
}

/// "5 minutes", "30 seconds".
fn spoken(wait: Duration) -> String {
    match wait.as_secs() {
        s if s >= 60 && s % 60 == 0 => format!("{} minute{}", s / 60, if s == 60 { "" } else { "s" }),
        s => format!("{s} second{}", if s == 1 { "" } else { "s" }),
    }
}

impl ConnectionStore {
    /// Under the edits lock, after a sign-in: `connection` is still there and signs in the same way, so
    /// what the sign-in obtained belongs to it.
    fn still_signs_in_as(&self, connection: &StoredConnection) -> Result<(), IpcError> {
        match self.find(&connection.id) {
            Err(_) => Err(IpcError::new(
                ErrorCode::NotFound,
                format!("{} was removed while signing in; nothing was kept", connection.name),
            )),
            Ok(now) if !now.same_sign_in(connection) => Err(IpcError::new(
                ErrorCode::Conflict,
                format!("{} was changed while signing in; sign in again", connection.name),
            )),
            Ok(_) => Ok(()),
        }
    }

    /// Signs in to connection `id` with a password (password method) or a pasted token (token method).
    pub async fn sign_in(&self, slot: &BackendSlot, id: &str, input: SignInInput) -> Result<Connections, IpcError> {
        let connection = self.find(id)?;
        match connection.sign_in {
            SignInMethod::Password => self.sign_in_with_password(&connection, &input).await?,
            SignInMethod::Token => self.sign_in_with_token(&connection, &input).await?,
            SignInMethod::Browser => return Err(refused(format!("{} signs in through the browser", connection.name))),
            SignInMethod::None => return Err(refused(format!("{} needs no sign-in", connection.name))),
        }
        self.renew_client(slot, id)?;
        Ok(self.list())
    }

    async fn sign_in_with_password(&self, connection: &StoredConnection, input: &SignInInput) -> Result<(), IpcError> {
        let password = given(input.password.as_deref()).ok_or_else(|| refused("type the password to sign in"))?;
        let tokens = remote::password_grant(connection, &self.secrets.get(&connection.id), &password).await?;
        let _edit = self.edits.lock().await;
        self.still_signs_in_as(connection)?;
        self.secrets
            .change(&connection.id, |h| {
                h.saved.keep_refresh(&tokens);
                h.tokens = Some(tokens);
                h.saved.password = input.remember.then_some(password);
            })
            .await?;
        if connection.remember_password != input.remember {
            let mut list = self.stored();
            for kept in list.iter_mut().filter(|c| c.id == connection.id) {
                kept.remember_password = input.remember;
            }
            self.write_list(&list)?;
        }
        Ok(())
    }

    /// Takes a pasted token once the server has accepted it.
    async fn sign_in_with_token(&self, connection: &StoredConnection, input: &SignInInput) -> Result<(), IpcError> {
        let token = given(input.token.as_deref()).ok_or_else(|| refused("paste the access token to sign in"))?;
        let probe =
            RemoteBackend::signed_in(&connection.url, SignIn::Token(token.clone()), RemoteOptions::default(), None)
                .map_err(BackendError::from)?;
        probe.list_configurations().await?;
        let _edit = self.edits.lock().await;
        self.still_signs_in_as(connection)?;
        self.secrets
            .change(&connection.id, |h| match input.remember {
                true => (h.saved.token, h.session_token) = (Some(token), None),
                false => (h.saved.token, h.session_token) = (None, Some(token)),
            })
            .await?;
        Ok(())
    }

    /// Signs in to connection `id` through the system browser: opens the provider's sign-in page and waits
    /// (at most the browser wait, 5 minutes) for it to come back to the loopback redirect. A sign-in to it
    /// still waiting ends (cancelled): only the newest is waited for.
    pub async fn sign_in_browser(&self, slot: &BackendSlot, id: &str) -> Result<Connections, IpcError> {
        let connection = self.find(id)?;
        if !connection.sign_in.uses_provider() {
            return Err(refused(format!("{} does not sign in through a provider", connection.name)));
        }
        let (number, stopped) = self.browser_waits.begin(id);
        let obtained = tokio::select! {
            tokens = self.browser_tokens(&connection) => tokens,
            _ = stopped => Err(IpcError::new(
                ErrorCode::Task,
                format!("the sign-in to {} in the browser was cancelled", connection.name),
            )),
        };
        self.browser_waits.end(id, number);
        let tokens = obtained?;
        let _edit = self.edits.lock().await;
        self.still_signs_in_as(&connection)?;
        self.secrets
            .change(id, |h| {
                h.saved.keep_refresh(&tokens);
                h.tokens = Some(tokens);
            })
            .await?;
        self.renew_client(slot, id)?;
        Ok(self.list())
    }

    /// Ends the browser sign-in to connection `id` that is waiting (the designer cancelled it); its
    /// loopback listener closes. Nothing waiting is no error.
    pub fn cancel_sign_in(&self, id: &str) {
        if self.browser_waits.cancel(id) {
            tracing::info!(connection = %id, "the browser sign-in was cancelled");
        }
    }

    /// The tokens of a browser sign-in to `connection`: the provider's page opened, the redirect awaited.
    async fn browser_tokens(&self, connection: &StoredConnection) -> Result<Tokens, IpcError> {
        let issuer = connection.issuer()?;
        let provider = Provider::discover(issuer).await.map_err(BackendError::from)?;
        let client = remote::client(connection, &self.secrets.get(&connection.id));
        let pending = BrowserSignIn::start(provider, client).await.map_err(BackendError::from)?;
        self.opener.open(pending.authorize_url()).map_err(|e| {
            IpcError::new(ErrorCode::Internal, format!("cannot open the sign-in page of {issuer} in a browser: {e}"))
        })?;
        let wait = self.browser_wait;
        let tokens = tokio::time::timeout(wait, pending.finish(wait + Duration::from_secs(1)))
            .await
            .map_err(|_| {
                IpcError::new(
                    ErrorCode::Timeout,
                    format!(
                        "the sign-in with {issuer} did not come back from the browser within {}; sign in again",
                        spoken(wait)
                    ),
                )
            })?
            .map_err(BackendError::from)?;
        Ok(tokens)
    }

    /// Forgets connection `id`'s tokens and remembered password; the next request asks for a sign-in.
    pub async fn sign_out(&self, slot: &BackendSlot, id: &str) -> Result<Connections, IpcError> {
        let _edit = self.edits.lock().await;
        self.find(id)?;
        self.secrets
            .change(id, |h| {
                (h.tokens, h.session_token) = (None, None);
                (h.saved.token, h.saved.refresh_token, h.saved.refresh_expires_at, h.saved.password) =
                    (None, None, None, None);
            })
            .await?;
        self.renew_client(slot, id)?;
        Ok(self.list())
    }
}

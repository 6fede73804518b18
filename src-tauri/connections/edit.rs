//! Adding, changing and removing connections. A connection saved with a password signs in first, and
//! nothing is saved when the provider refuses. Secrets that the connection's sign-in method does not use
//! are forgotten, and so are tokens obtained for another server, provider, client or user.

use std::sync::Arc;

use studio_model::ErrorCode;

use super::model::{given, new_id, ConnectionInput, Connections, SignInMethod, FOLDER_ID, LOCAL_ID};
use super::remote;
use super::store::ConnectionStore;
use crate::error::IpcError;
use crate::secrets::Held;
use crate::state::BackendSlot;

/// Drops the secrets that `method` does not use.
fn keep_only_for(held: &mut Held, method: SignInMethod) {
    if method != SignInMethod::Token {
        held.saved.token = None;
        held.session_token = None;
    }
    if !method.uses_provider() {
        held.tokens = None;
        (held.saved.refresh_token, held.saved.refresh_expires_at) = (None, None);
        held.saved.client_secret = None;
    }
    if method != SignInMethod::Password {
        held.saved.password = None;
    }
}

impl ConnectionStore {
    /// Adds (`input.id` null) or changes a remote connection; when it is current, its new client is used
    /// from now on. Nothing is kept unless its client can be built: a connection that can be saved can be
    /// used.
    pub async fn save(&self, slot: &BackendSlot, input: ConnectionInput) -> Result<Connections, IpcError> {
        let before = match input.id.as_deref() {
            Some(LOCAL_ID) => return Err(IpcError::new(ErrorCode::BadRequest, "the local store cannot be changed")),
            Some(id) => Some(self.find(id)?),
            None => None,
        };
        let id = before.as_ref().map_or_else(new_id, |c| c.id.clone());
        let connection = input.to_stored(&id)?;
        let mut known = self.secrets.get(&id);
        if let Some(secret) = &input.client_secret {
            known.saved.client_secret = given(Some(secret));
        }
        let client_secret = known.saved.client_secret.clone();
        let password = given(input.password.as_deref()).filter(|_| connection.sign_in == SignInMethod::Password);
        let fresh = match &password {
            Some(password) => Some(remote::password_grant(&connection, &known, password).await?),
            None => None,
        };

        let _edit = self.edits.lock().await;
        // Read again: it may have been edited or removed while the provider was asked.
        let before = match before {
            Some(b) => Some(self.find(&b.id).map_err(|_| {
                IpcError::new(ErrorCode::NotFound, format!("{} was removed meanwhile; nothing was saved", b.name))
            })?),
            None => None,
        };
        let same_sign_in = before.as_ref().is_some_and(|b| b.same_sign_in(&connection));
        let edit = |h: &mut Held| {
            if !same_sign_in {
                h.tokens = None;
                h.session_token = None;
                (h.saved.refresh_token, h.saved.refresh_expires_at) = (None, None);
                h.saved.password = None;
            }
            h.saved.client_secret = client_secret.clone();
            if let Some(token) = &input.token {
                h.saved.token = given(Some(token));
            }
            if let Some(tokens) = &fresh {
                h.saved.keep_refresh(tokens);
                h.tokens = Some(tokens.clone());
            }
            match (&password, connection.remember_password) {
                (_, false) => h.saved.password = None,
                (Some(password), true) => h.saved.password = Some(password.clone()),
                (None, true) => {}
            }
            keep_only_for(h, connection.sign_in);
        };
        let mut next = self.secrets.get(&id);
        edit(&mut next);
        let client = Arc::new(remote::build(&connection, &next, &self.secrets)?);
        self.secrets.change(&id, edit).await?;
        let mut list = self.stored();
        match list.iter_mut().find(|c| c.id == id) {
            Some(kept) => *kept = connection.clone(),
            None => list.push(connection.clone()),
        }
        self.write_list(&list)?;
        self.install_client(slot, &connection, client);
        Ok(self.list())
    }

    /// Removes remote connection `id`, stops a browser sign-in to it, and forgets its secrets; removing
    /// the current one switches to the local store.
    pub async fn remove(&self, slot: &BackendSlot, id: &str) -> Result<Connections, IpcError> {
        if id == LOCAL_ID {
            return Err(IpcError::new(ErrorCode::BadRequest, "the local store is always there; it cannot be removed"));
        }
        let _edit = self.edits.lock().await;
        if id == FOLDER_ID {
            return self.forget_folder(slot);
        }
        self.find(id)?;
        if self.current_id() == id {
            slot.use_local();
            self.set_current(LOCAL_ID)?;
        }
        let list: Vec<_> = self.stored().into_iter().filter(|c| c.id != id).collect();
        self.write_list(&list)?;
        self.clients().remove(id);
        self.retarget_folder(slot, id);
        self.browser_waits.cancel(id);
        self.secrets.forget(id).await?;
        Ok(self.list())
    }
}

//! The desktop's connections (docs/choices.md, Connections and sign-in (desktop)): the local store, always there as `local`, and any number of
//! named remote servers, each with its URL and sign-in method; one is current, and the [`BackendSlot`]
//! holds its backend. The list lives in the preferences file without a secret; the secrets live in
//! [`Secrets`]. One client per remote connection is built when first needed and kept, so its tokens stay
//! with it, and built again when the connection is edited or signed in again.
//!
//! Drafts and published versions are keyed by the backend key, which for a remote connection stays its
//! base URL, so drafts made before connections existed are still found.

mod browser_waits;
mod edit;
mod folder;
mod folder_apply;
mod folder_state;
mod migrate;
pub mod model;
mod notices;
mod remote;
mod sign_in;
mod store;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use studio_model::{Backend, BackendError, ErrorCode};
use studio_sync::LOCAL_KEY;

use crate::browser::Opener;
use crate::error::IpcError;
use crate::folder::watch::ChangeSink;
use crate::prefs::Prefs;
use crate::secrets::KeyringAccess;
use crate::state::BackendSlot;
pub use folder_apply::{FolderApplied, FolderPlan};
pub use folder_state::StoredFolder;
pub use model::{
    Connection, ConnectionInput, Connections, SignInInput, SignInMethod, StoredConnection, FOLDER_ID, LOCAL_ID,
};
pub use store::ConnectionStore;

/// Whether `e` means the server wants a (new) sign-in: it refused the token, or the provider's session ended.
fn asks_to_sign_in(e: &BackendError) -> bool {
    matches!(e, BackendError::Unauthorized(_) | BackendError::SignInNeeded(_))
}

impl ConnectionStore {
    /// Reads the connections (made from the old single-server preferences on the first start that has
    /// connections) and their secrets. Changes to the folder workspace on disk go to `folder_events`.
    pub async fn open(
        prefs: Prefs,
        keyring: Option<KeyringAccess>,
        opener: Arc<dyn Opener>,
        browser_wait: Duration,
        folder_events: ChangeSink,
    ) -> Result<Self, IpcError> {
        let secrets = migrate::run(&prefs, keyring).await?;
        Ok(ConnectionStore {
            prefs,
            secrets,
            clients: Mutex::default(),
            edits: tokio::sync::Mutex::new(()),
            switches: AtomicU64::new(0),
            notices: Mutex::default(),
            opener,
            browser_wait,
            browser_waits: browser_waits::BrowserWaits::default(),
            folder: Mutex::default(),
            folder_events,
        })
    }

    /// Makes the current connection's backend the one in `slot` (at start; no request is sent). A
    /// connection that cannot be set up leaves the local store in use, and the local store becomes the
    /// current connection, with a notice that says why.
    pub fn restore(&self, slot: &BackendSlot) {
        let current = self.current_id();
        if current == LOCAL_ID {
            return;
        }
        if current == FOLDER_ID {
            if let Err(e) = self.use_folder(slot) {
                tracing::warn!("staying on the local store: {}", e.message);
                let name = self.folder_connection().map_or(current.clone(), |c| c.name);
                self.notice(notices::not_restored(&name, &e.message));
                self.back_to_local(slot);
            }
            return;
        }
        let found = self.find(&current).and_then(|c| self.client(&c).map(|client| (c, client)));
        match found {
            Ok((connection, client)) => slot.set_remote(&connection.url, client),
            Err(e) => {
                tracing::warn!("staying on the local store: {}", e.message);
                let name = self.find(&current).map_or(current.clone(), |c| c.name);
                self.notice(notices::not_restored(&name, &e.message));
                self.back_to_local(slot);
            }
        }
    }

    /// Makes the local store current again, after the last connection could not be set up.
    fn back_to_local(&self, slot: &BackendSlot) {
        slot.use_local();
        if let Err(e) = self.set_current(LOCAL_ID) {
            tracing::warn!("the local store could not be made the current connection: {}", e.message);
        }
    }

    /// Switches to connection `id`. A remote server is asked first whether it answers; if it does not, the
    /// current connection stays. A server that wants a sign-in is switched to all the same, and the
    /// answer is `unauthorized` or `sign_in_needed` so that the UI asks for it. When another switch was asked for while the
    /// server was being asked, the later one wins and this one changes nothing.
    pub async fn switch(&self, slot: &BackendSlot, id: &str) -> Result<Connections, IpcError> {
        let this_switch = self.switches.fetch_add(1, Ordering::SeqCst) + 1;
        let answer = match id {
            LOCAL_ID | FOLDER_ID => Ok(()),
            _ => {
                let client = self.client(&self.find(id)?)?;
                let answer = client.list_configurations().await.map(|_| ());
                if let Err(e) = &answer {
                    if !asks_to_sign_in(e) {
                        return Err(e.clone().into());
                    }
                }
                answer
            }
        };
        let _edit = self.edits.lock().await;
        if self.switches.load(Ordering::SeqCst) != this_switch {
            let wanted = self.find(id).map_or(id.to_owned(), |c| c.name);
            return Err(IpcError::new(
                ErrorCode::Conflict,
                format!("not switched to {wanted}: another connection was chosen while it was being reached"),
            ));
        }
        if id == LOCAL_ID {
            slot.use_local();
        } else if id == FOLDER_ID {
            self.use_folder(slot)?;
        } else {
            let connection = self.find(id)?;
            slot.set_remote(&connection.url, self.client(&connection)?);
        }
        self.set_current(id)?;
        answer?;
        Ok(self.list())
    }

    /// The backend of connection `id` and its key for drafts and history, for copying to it. The current
    /// connection is refused: a configuration is copied to another one.
    pub fn target(&self, slot: &BackendSlot, id: &str) -> Result<(Arc<dyn Backend>, String), IpcError> {
        if id == self.current_id() {
            return Err(IpcError::new(
                ErrorCode::BadRequest,
                "the configuration is already on that connection; choose another one to copy it to",
            ));
        }
        if id == LOCAL_ID {
            return Ok((Arc::new(slot.local().clone()), LOCAL_KEY.to_owned()));
        }
        if id == FOLDER_ID {
            return self.folder_target(slot);
        }
        let connection = self.find(id)?;
        Ok((self.client(&connection)?, connection.url))
    }

    /// Waits for the secrets still being written (before the app exits).
    pub async fn flush(&self) {
        self.secrets.flush().await;
    }
}

//! The connections' list and clients as the commands share them: the list in the preferences file, the
//! current connection, and one client per remote connection, built when first needed and kept. The
//! operations that change connections (editing, signing in, switching) are written in the modules above,
//! each adding its own `impl` on [`ConnectionStore`].

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::json;
use studio_model::ErrorCode;
use studio_remote::RemoteBackend;

use super::browser_waits::BrowserWaits;
use super::folder_state::OpenFolder;
use super::model::{Connection, Connections, StoredConnection, FOLDER_ID, LOCAL_ID};
use super::{notices, remote};
use crate::browser::Opener;
use crate::error::IpcError;
use crate::folder::watch::ChangeSink;
use crate::prefs::Prefs;
use crate::secrets::Secrets;
use crate::state::BackendSlot;

/// The preferences keys of the list and of the current connection's id.
pub(super) const LIST_KEY: &str = "connections";
pub(super) const CURRENT_KEY: &str = "currentConnection";

/// The connections of one data directory, their secrets and their clients.
pub struct ConnectionStore {
    pub(super) prefs: Prefs,
    pub(super) secrets: Arc<Secrets>,
    pub(super) clients: Mutex<HashMap<String, Arc<RemoteBackend>>>,
    /// Changes to the list, to the secrets and to the current connection, one at a time (never held across
    /// a request to a server, which could take long: what was asked before the request is checked again
    /// under it).
    pub(super) edits: tokio::sync::Mutex<()>,
    /// How many switches were asked for: a switch whose server answers after a later switch was asked for
    /// does not take effect, so the newest one wins.
    pub(super) switches: AtomicU64,
    /// What went wrong with the connections since the start (for Settings).
    pub(super) notices: Mutex<Vec<String>>,
    pub(super) opener: Arc<dyn Opener>,
    /// How long a browser sign-in waits for the provider's redirect.
    pub(super) browser_wait: Duration,
    /// The browser sign-ins under way, at most one per connection.
    pub(super) browser_waits: BrowserWaits,
    /// The folder workspace, once it was used.
    pub(super) folder: Mutex<Option<OpenFolder>>,
    /// Where the changes to the folder on disk are reported.
    pub(super) folder_events: ChangeSink,
}

impl ConnectionStore {
    /// Every connection, the local store first, the current one, and the notices.
    pub fn list(&self) -> Connections {
        let stored = self.stored();
        let mut connections = vec![Connection::local()];
        connections.extend(self.folder_connection());
        connections.extend(stored.iter().map(|c| Connection::remote(c, &self.secrets.get(&c.id))));
        let mut said = self.notices.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
        said.extend(self.secrets.notices().iter().map(|n| notices::secrets(n, &stored)));
        Connections { connections, current: self.current_id(), notices: said }
    }

    pub(super) fn notice(&self, text: String) {
        self.notices.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(text);
    }

    pub(super) fn stored(&self) -> Vec<StoredConnection> {
        self.prefs.read(LIST_KEY).unwrap_or_default()
    }

    pub(super) fn write_list(&self, list: &[StoredConnection]) -> Result<(), IpcError> {
        self.prefs.write(LIST_KEY, json!(list))
    }

    pub(super) fn current_id(&self) -> String {
        let current: Option<String> = self.prefs.read(CURRENT_KEY);
        let known = |id: &String| {
            (id == FOLDER_ID && self.stored_folder().is_some()) || self.stored().iter().any(|c| &c.id == id)
        };
        current.filter(known).unwrap_or_else(|| LOCAL_ID.to_owned())
    }

    pub(super) fn set_current(&self, id: &str) -> Result<(), IpcError> {
        self.prefs.write(CURRENT_KEY, json!(id))
    }

    /// The remote connection `id`.
    pub(super) fn find(&self, id: &str) -> Result<StoredConnection, IpcError> {
        self.stored().into_iter().find(|c| c.id == id).ok_or_else(|| {
            let what = if id == LOCAL_ID {
                "the local store has no such setting".to_owned()
            } else {
                format!("there is no connection `{id}`")
            };
            IpcError::new(ErrorCode::NotFound, what)
        })
    }

    pub(super) fn clients(&self) -> MutexGuard<'_, HashMap<String, Arc<RemoteBackend>>> {
        self.clients.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The client of `connection`, built when first needed.
    pub(super) fn client(&self, connection: &StoredConnection) -> Result<Arc<RemoteBackend>, IpcError> {
        if let Some(client) = self.clients().get(&connection.id) {
            return Ok(Arc::clone(client));
        }
        let client = Arc::new(remote::build(connection, &self.secrets.get(&connection.id), &self.secrets)?);
        Ok(Arc::clone(self.clients().entry(connection.id.clone()).or_insert(client)))
    }

    /// Makes `client` the one of `connection`; when it is current, the slot's too.
    pub(super) fn install_client(&self, slot: &BackendSlot, connection: &StoredConnection, client: Arc<RemoteBackend>) {
        self.clients().insert(connection.id.clone(), Arc::clone(&client));
        self.retarget_folder(slot, &connection.id);
        if self.current_id() == connection.id {
            slot.set_remote(&connection.url, client);
        }
    }

    /// Drops the client of `id` (its settings or tokens changed); when `id` is current, its new client
    /// takes the slot.
    pub(super) fn renew_client(&self, slot: &BackendSlot, id: &str) -> Result<(), IpcError> {
        self.clients().remove(id);
        self.retarget_folder(slot, id);
        if self.current_id() == id {
            let connection = self.find(id)?;
            slot.set_remote(&connection.url, self.client(&connection)?);
        }
        Ok(())
    }
}

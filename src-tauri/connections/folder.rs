//! The folder workspace among the connections: one folder is remembered (its path, and which connection its
//! preview searches) in the preferences like the other connections, listed as the connection `folder`, and
//! made current like them. Its backend is opened, and the folder followed on disk, when it is first used, and
//! kept while the app runs, so its ids stay the same.

use std::path::Path;
use std::sync::{Arc, MutexGuard};

use serde_json::json;
use studio_model::{Backend, ErrorCode};

use super::folder_state::{local_id, OpenFolder, StoredFolder, FOLDER_KEY};
use super::model::Connections;
use super::model::{Connection, FOLDER_ID, LOCAL_ID, LOCAL_NAME};
use super::store::{ConnectionStore, CURRENT_KEY};
use crate::error::IpcError;
use crate::folder::watch;
use crate::folder::{FolderBackend, FolderChange, SearchTarget};
use crate::state::BackendSlot;

fn no_folder() -> IpcError {
    IpcError::new(ErrorCode::NotFound, "no folder is open; open one in Settings → Connections")
}

impl ConnectionStore {
    pub(super) fn stored_folder(&self) -> Option<StoredFolder> {
        self.prefs.read(FOLDER_KEY)
    }

    fn open_folder_slot(&self) -> MutexGuard<'_, Option<OpenFolder>> {
        self.folder.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The remembered folder as a connection of the list.
    pub(super) fn folder_connection(&self) -> Option<Connection> {
        self.stored_folder().map(|f| Connection::folder(&f.path, &f.search))
    }

    /// What connection `id` searches as, for a folder's preview: the local store or the remote connection's
    /// client.
    fn search_target(&self, slot: &BackendSlot, id: &str) -> Result<SearchTarget, IpcError> {
        if id == LOCAL_ID {
            return Ok(SearchTarget { backend: Arc::new(slot.local().clone()), name: LOCAL_NAME.to_owned() });
        }
        let connection = self.find(id)?;
        Ok(SearchTarget { backend: self.client(&connection)?, name: connection.name })
    }

    /// The backend of the folder `stored` names, opened and followed when it is not the one open already.
    fn folder_backend(&self, slot: &BackendSlot, stored: &StoredFolder) -> Result<Arc<FolderBackend>, IpcError> {
        let mut open = self.open_folder_slot();
        if let Some(held) = open.as_ref().filter(|o| o.backend.dir() == Path::new(&stored.path)) {
            return Ok(Arc::clone(&held.backend));
        }
        // A search connection removed meanwhile leaves the local store searched.
        let target = self.search_target(slot, &stored.search).or_else(|_| self.search_target(slot, LOCAL_ID))?;
        let backend = Arc::new(FolderBackend::open(Path::new(&stored.path), target)?);
        let following = watch::follow(Arc::clone(&backend), Arc::clone(&self.folder_events))?;
        *open = Some(OpenFolder { backend: Arc::clone(&backend), _following: following });
        Ok(backend)
    }

    /// Makes the remembered folder the backend in `slot`.
    pub(super) fn use_folder(&self, slot: &BackendSlot) -> Result<(), IpcError> {
        let stored = self.stored_folder().ok_or_else(no_folder)?;
        let backend = self.folder_backend(slot, &stored)?;
        slot.set(&backend.key(), backend);
        Ok(())
    }

    /// The folder and its key for drafts and history, when it is the target of a copy.
    pub(super) fn folder_target(&self, slot: &BackendSlot) -> Result<(Arc<dyn Backend>, String), IpcError> {
        let stored = self.stored_folder().ok_or_else(no_folder)?;
        let backend = self.folder_backend(slot, &stored)?;
        Ok((Arc::clone(&backend) as Arc<dyn Backend>, backend.key()))
    }

    /// Opens the folder at `path` as the workspace and makes it the current connection. Its preview searches
    /// what the folder remembered before searched (the local store at first).
    pub async fn open_folder(&self, slot: &BackendSlot, path: &str) -> Result<Connections, IpcError> {
        let _edit = self.edits.lock().await;
        // A switch to a server still being reached does not take effect after this one.
        self.switches.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let search = self.stored_folder().map_or_else(local_id, |f| f.search);
        let asked = StoredFolder { path: path.trim().to_owned(), search };
        if asked.path.is_empty() {
            return Err(IpcError::new(ErrorCode::BadRequest, "choose a folder to open"));
        }
        let backend = self.folder_backend(slot, &asked)?;
        let stored = StoredFolder { path: backend.dir().display().to_string(), ..asked };
        self.prefs.write_all(&[(FOLDER_KEY, json!(stored)), (CURRENT_KEY, json!(FOLDER_ID))], &[])?;
        slot.set(&backend.key(), backend);
        Ok(self.list())
    }

    /// Makes the folder's preview search connection `id` (`local` or a remote one) from now on.
    pub async fn set_folder_search(&self, slot: &BackendSlot, id: &str) -> Result<Connections, IpcError> {
        let _edit = self.edits.lock().await;
        let mut stored = self.stored_folder().ok_or_else(no_folder)?;
        let target = self.search_target(slot, id)?;
        stored.search = id.to_owned();
        self.prefs.write(FOLDER_KEY, json!(stored))?;
        if let Some(open) = self.open_folder_slot().as_ref() {
            open.backend.set_target(target);
        }
        Ok(self.list())
    }

    /// After connection `id` got a new client or went: the open folder's searches go to its new client, or to
    /// the local store.
    pub(super) fn retarget_folder(&self, slot: &BackendSlot, id: &str) {
        let Some(stored) = self.stored_folder().filter(|f| f.search == id) else { return };
        let target = self.search_target(slot, id).or_else(|_| self.search_target(slot, LOCAL_ID));
        if let (Some(open), Ok(target)) = (self.open_folder_slot().as_ref(), target) {
            open.backend.set_target(target);
        }
        if self.find(id).is_err() {
            let _ = self.prefs.write(FOLDER_KEY, json!(StoredFolder { search: local_id(), ..stored }));
        }
    }

    /// Forgets the folder (its files stay as they are); when it is current, the local store becomes current.
    pub(super) fn forget_folder(&self, slot: &BackendSlot) -> Result<Connections, IpcError> {
        if self.current_id() == FOLDER_ID {
            slot.use_local();
            self.prefs.write_all(&[(CURRENT_KEY, json!(LOCAL_ID))], &[FOLDER_KEY])?;
        } else {
            self.prefs.write_all(&[], &[FOLDER_KEY])?;
        }
        *self.open_folder_slot() = None;
        Ok(self.list())
    }

    /// The open folder's path and the files of it that cannot be read now.
    pub fn folder_status(&self) -> Result<FolderChange, IpcError> {
        let backend = self.open_folder_slot().as_ref().map(|o| Arc::clone(&o.backend)).ok_or_else(no_folder)?;
        Ok(backend.status()?)
    }
}

//! The local store's life in the desktop app: opening it at launch (or finding it damaged, or behind its
//! newest backup, and then waiting for the user's choice on the recovery screen), recovering it without a
//! restart, its automatic backups, and closing it on exit so that only its files and backups remain.
//!
//! The store holds the remote connections' drafts, published versions and pull bookmarks too, so nothing
//! that needs the store (no backend, local or remote) is set up until the store is open: the recovery
//! screen stands in front of the whole app.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use studio_local::demo::DemoError;
use studio_local::{LocalBackend, Store, StoreError};
use studio_model::{Backend, BackendError, ErrorCode};
use tauri::{Manager, Runtime};
use ts_rs::TS;

use crate::connections::ConnectionStore;
use crate::error::IpcError;
use crate::state::BackendSlot;
use crate::work;

pub use studio_local::backup::{self, Backups, Policy};
pub use studio_local::check;
pub use studio_local::recover::{self, LostDocuments, RecoverReport};

/// What the app found when it opened the local store, for the UI to show the editor or the recovery screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum StoreStatus {
    /// The store is open; the editor can start.
    Ready,
    /// The store cannot be opened: `file` is damaged; `problem` says how, `message` what to do.
    #[serde(rename_all = "camelCase")]
    Damaged { file: String, problem: String, message: String, data_dir: String },
    /// The store opens, but the newest backup holds newer versions of these configurations (the store
    /// lost its last writes).
    #[serde(rename_all = "camelCase")]
    BehindBackup { configurations: Vec<String>, data_dir: String },
}

/// Why the local store could not be opened, read, or given its demo data.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot open the local store: {0}")]
    Store(#[from] StoreError),
    #[error("cannot read the local store: {0}")]
    Read(#[from] BackendError),
    #[error("cannot load the demo data: {0}")]
    Demo(DemoError),
}

impl From<OpenError> for IpcError {
    fn from(e: OpenError) -> Self {
        match e {
            OpenError::Store(s) => s.into(),
            OpenError::Read(b) => b.into(),
            other => IpcError::new(ErrorCode::Storage, other.to_string()),
        }
    }
}

/// Loads the demo search space into `local` when the store is new (no configurations, no documents).
fn with_demo(local: LocalBackend) -> Result<LocalBackend, OpenError> {
    let fresh = tauri::async_runtime::block_on(async {
        let list = local.list_configurations().await?;
        let spaces = local.search_spaces().await?;
        Ok::<_, BackendError>(list.configurations.is_empty() && spaces.is_empty())
    })?;
    if fresh {
        work::load_demo(&local, &mut |_| {}, Arc::new(AtomicBool::new(false))).map_err(OpenError::Demo)?;
    }
    Ok(local)
}

/// The store's state at launch and after, in managed state.
pub struct Launch {
    data_dir: PathBuf,
    status: Mutex<StoreStatus>,
}

impl Launch {
    pub fn status(&self) -> StoreStatus {
        lock(&self.status).clone()
    }

    fn set(&self, status: StoreStatus) {
        *lock(&self.status) = status;
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The open store's automatic backups and the handle that closes it on exit.
#[derive(Default)]
pub struct StoreLife(Mutex<Option<(Backups, Store)>>);

impl StoreLife {
    /// Takes the exit backup, then checkpoints the store's logs and closes its connections. Once only.
    pub fn close(&self) {
        let Some((backups, store)) = lock(&self.0).take() else { return };
        tracing::info!("closing the store {}", store.path().display());
        match backups.finish() {
            Ok(Some(path)) => tracing::info!("exit backup: {}", path.display()),
            Ok(None) => {}
            Err(e) => tracing::error!("the exit backup failed: {e}"),
        }
        if let Err(e) = close_store(store) {
            tracing::error!("cannot close the store: {e}");
        }
    }
}

/// Closes `store`, leaving only its files.
fn close_store(store: Store) -> Result<(), StoreError> {
    store.close()
}

/// The damaged file and what is wrong with it, when opening the store (or its first read) failed because
/// it is damaged.
fn damage(e: &OpenError, data_dir: &Path) -> Option<(String, String)> {
    let default_file = || data_dir.join(studio_local::DB_FILE).display().to_string();
    match e {
        OpenError::Store(StoreError::Damaged { path, detail }) => {
            Some((path.clone().unwrap_or_else(default_file), detail.clone()))
        }
        OpenError::Read(BackendError::StoreDamaged(message)) => Some((default_file(), message.clone())),
        _ => None,
    }
}

/// Opens the store in `data_dir` at launch and, when it is healthy, sets up the backends on it. A damaged
/// store, or one behind its newest backup, is not an error: the launch state says so and the app shows the
/// recovery screen. Other failures end the start.
pub fn launch<R: Runtime, M: Manager<R>>(app: &M, data_dir: &Path) -> Result<(), OpenError> {
    // Damage shows when opening (within a second: the files are checked before the pool is built), or only
    // when the first read meets a bad page.
    let opened = Store::open_dir(data_dir).map_err(OpenError::from).and_then(|store| match behind_backup(data_dir) {
        configurations if !configurations.is_empty() => {
            close_store(store)?;
            Ok(StoreStatus::BehindBackup { configurations, data_dir: data_dir.display().to_string() })
        }
        _ => start(app, store, data_dir).map(|()| StoreStatus::Ready),
    });
    let status = match opened {
        Ok(status) => status,
        Err(e) => match damage(&e, data_dir) {
            Some((file, problem)) => {
                StoreStatus::Damaged { file, problem, message: e.to_string(), data_dir: data_dir.display().to_string() }
            }
            None => return Err(e),
        },
    };
    app.manage(Launch { data_dir: data_dir.to_owned(), status: Mutex::new(status) });
    Ok(())
}

/// How long the launch waits for the comparison with the newest backup before it opens the store anyway.
const COMPARE_LIMIT: Duration = Duration::from_secs(10);

/// The configurations whose newest backup is newer than the store's copy (none without backups). A
/// comparison that takes too long (a badly damaged file read row by row) is left to finish on its own: it
/// must not keep the window from opening.
fn behind_backup(data_dir: &Path) -> Vec<String> {
    let (answer, answered) = std::sync::mpsc::channel();
    let dir = data_dir.to_owned();
    let spawned = std::thread::Builder::new()
        .name("studio-compare-backup".into())
        .spawn(move || answer.send(check::compare_with_backup(&dir)));
    if let Err(e) = spawned {
        tracing::warn!("cannot compare the store with its newest backup: {e}");
        return Vec::new();
    }
    match answered.recv_timeout(COMPARE_LIMIT) {
        Ok(Ok(newer)) => newer.iter().map(|n| format!("{} (configuration {})", n.title, n.id)).collect(),
        Ok(Err(e)) => {
            tracing::warn!("cannot compare the store with its newest backup: {e}");
            Vec::new()
        }
        Err(_) => {
            tracing::warn!(
                "comparing the store with its newest backup takes over {COMPARE_LIMIT:?}; going on without it"
            );
            Vec::new()
        }
    }
}

/// Sets up the backends over the open `store`: the local backend (with the demo data when the store is
/// new), the current connection, and the automatic backups.
fn start<R: Runtime, M: Manager<R>>(app: &M, store: Store, data_dir: &Path) -> Result<(), OpenError> {
    let local = with_demo(LocalBackend::new(store.clone()))?;
    let slot = BackendSlot::new(local, data_dir.to_owned());
    if let Some(connections) = app.try_state::<ConnectionStore>() {
        connections.restore(&slot);
    }
    app.manage(slot);
    let backups = Backups::start(&store);
    if let Some(life) = app.try_state::<StoreLife>() {
        *lock(&life.0) = Some((backups, store));
    }
    Ok(())
}

/// Why the store could not be recovered or opened after a recovery.
#[derive(Debug, thiserror::Error)]
pub enum RecoverError {
    #[error("the store is open and in use; there is nothing to recover")]
    NotNeeded,
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("recovered, but the new store cannot be opened: {0}")]
    Start(#[from] OpenError),
}

impl From<RecoverError> for IpcError {
    fn from(e: RecoverError) -> Self {
        match e {
            RecoverError::NotNeeded => IpcError::new(ErrorCode::Conflict, e.to_string()),
            RecoverError::Store(s) => s.into(),
            RecoverError::Start(s) => s.into(),
        }
    }
}

/// Recovers the store of a launch that found it damaged (or behind its backup), then opens the recovered
/// store and sets up the backends, so that the editor starts without a restart.
pub fn recover_and_start<R: Runtime, M: Manager<R>>(app: &M) -> Result<RecoverReport, RecoverError> {
    let launch = app.try_state::<Launch>().ok_or(RecoverError::NotNeeded)?;
    if launch.status() == StoreStatus::Ready {
        return Err(RecoverError::NotNeeded);
    }
    let data_dir = launch.data_dir().to_owned();
    let report = recover::recover(&data_dir)?;
    start(app, Store::open_dir(&data_dir)?, &data_dir)?;
    launch.set(StoreStatus::Ready);
    Ok(report)
}

/// Opens a store that is behind its newest backup as it is, when the user chooses to go on with it.
pub fn open_as_is<R: Runtime, M: Manager<R>>(app: &M) -> Result<(), RecoverError> {
    let launch = app.try_state::<Launch>().ok_or(RecoverError::NotNeeded)?;
    if !matches!(launch.status(), StoreStatus::BehindBackup { .. }) {
        return Err(RecoverError::NotNeeded);
    }
    start(app, Store::open_dir(launch.data_dir())?, launch.data_dir())?;
    launch.set(StoreStatus::Ready);
    Ok(())
}

//! What runs when the app starts: the environment WebKit needs, the log, the plugins and commands, the state
//! every command reads (preferences, connections, tasks, the local store) and the main window; and the event
//! loop, which ends with the exit's own work (`exit`).
//!
//! Nothing below this module imports it: it only puts the other modules together.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tauri::{App, Emitter, Manager, Runtime};

use crate::browser::{Browser, Opener, SystemBrowser};
use crate::commands;
use crate::connections::ConnectionStore;
use crate::error::IpcError;
use crate::exit;
use crate::folder;
use crate::local_store::{self, OpenError, StoreLife};
use crate::prefs::{Geometry, Prefs};
use crate::secrets::KeyringAccess;
use crate::state::{Tasks, PROGRESS_EVENT};
use crate::window;

/// glibc's allocator gives the threads that allocate at the same time heaps of their own, up to eight per core;
/// the app's threads (the async runtime's, the store's pool, the full-text index's, GTK's) each kept one, partly
/// used. One per core is as many as can allocate at once: about a megabyte less in the idle app
/// (docs/performance-journal.md, "The window shown with its first screen"). `MALLOC_ARENA_MAX`, when set, is
/// the user's choice and kept.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_heap_per_core() {
    use std::os::raw::c_int;
    /// glibc's `M_ARENA_MAX` (malloc.h).
    const M_ARENA_MAX: c_int = -8;
    extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    // SAFETY: `mallopt` takes two integers and no pointer; it is called before any other thread starts.
    unsafe {
        mallopt(M_ARENA_MAX, c_int::try_from(cores).unwrap_or(c_int::MAX));
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_heap_per_core() {}

/// How long the store must go unused before the memory its connections cache is given back: a second without a
/// call is a designer reading what the app shows; the next call reads its pages again from the system's file cache
/// (docs/choices.md, "The desktop app").
const IDLE_RELEASE_AFTER: Duration = Duration::from_secs(1);

/// The data directory: `SEARCH_STUDIO_DATA_DIR`, else the OS data directory's `search-studio` (README).
pub fn data_dir() -> Option<PathBuf> {
    std::env::var_os("SEARCH_STUDIO_DATA_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(studio_local::default_data_dir)
}

/// Why the shell could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    LocalStore(#[from] OpenError),
    #[error("cannot open the settings: {}", .0.message)]
    Settings(IpcError),
}

/// What the shell uses from its surroundings; tests replace the browser and the keyring.
pub struct ShellOptions {
    /// Opens links and the browser sign-in's page.
    pub opener: Arc<dyn Opener>,
    /// Where secrets are kept when it answers (else in the secrets file); `None` keeps them in the file.
    pub keyring: Option<KeyringAccess>,
    /// How long a browser sign-in waits for the provider to come back.
    pub browser_wait: Duration,
}

impl Default for ShellOptions {
    fn default() -> Self {
        ShellOptions {
            opener: Arc::new(SystemBrowser),
            keyring: Some(KeyringAccess::system()),
            browser_wait: Duration::from_secs(5 * 60),
        }
    }
}

/// Registers the state for the store in `data_dir` (see [`install_state_with`]) with the default options.
pub fn install_state<R: Runtime, M: Manager<R>>(app: &M, data_dir: &Path) -> Result<Option<Geometry>, StartError> {
    install_state_with(app, data_dir, ShellOptions::default())
}

/// Registers the preferences, connections, task list and the store's launch state for the store in
/// `data_dir`; when the store opens healthy, also the backend (with the connection that was current last
/// time) and the store's backups. A damaged store is no error here: the launch state says so, and the UI
/// shows the recovery screen. Returns the preferences' window geometry.
pub fn install_state_with<R: Runtime, M: Manager<R>>(
    app: &M,
    data_dir: &Path,
    options: ShellOptions,
) -> Result<Option<Geometry>, StartError> {
    let prefs = Prefs::open(data_dir).map_err(StartError::Settings)?;
    let opener = Arc::clone(&options.opener);
    let changes = app.app_handle().clone();
    let connections = tauri::async_runtime::block_on(ConnectionStore::open(
        prefs.clone(),
        options.keyring,
        Arc::clone(&opener),
        options.browser_wait,
        Arc::new(move |change| {
            let _ = changes.emit(folder::CHANGE_EVENT, change);
        }),
    ))
    .map_err(StartError::Settings)?;
    let geometry = prefs.geometry();
    let events = app.app_handle().clone();
    app.manage(prefs);
    app.manage(connections);
    app.manage(Browser(opener));
    app.manage(Tasks::new(Arc::new(move |progress| {
        let _ = events.emit(PROGRESS_EVENT, progress);
    })));
    app.manage(StoreLife::default());
    local_store::launch(app, data_dir)?;
    Ok(geometry)
}

/// Starts the app ([`start`]); a start that fails ends the process with its reason on one line, as a failed build
/// does, rather than Tauri's panic for a failed setup.
fn setup<R: Runtime>(app: &mut App<R>) -> Result<(), Box<dyn std::error::Error>> {
    if let Err(e) = start(app) {
        could_not_start(e);
    }
    Ok(())
}

/// Ends the process with `reason` on one line and exit code 1.
fn could_not_start(reason: impl std::fmt::Display) -> ! {
    eprintln!("error: Search Studio could not start: {reason}");
    std::process::exit(1)
}

/// Registers state and opens the window, with the backend and geometry the preferences remember.
fn start<R: Runtime>(app: &mut App<R>) -> Result<(), Box<dyn std::error::Error>> {
    let data_dir = data_dir().ok_or("no data directory: set SEARCH_STUDIO_DATA_DIR")?;
    let geometry = install_state(app, &data_dir)?;
    window::open_main(app, geometry)?;
    #[cfg(target_os = "linux")]
    crate::appearance::follow_desktop();
    exit::end_on_signals(app.handle().clone());
    Ok(())
}

/// Adds this app's plugins and commands to `base` (the real builder, or the mock one in tests): the system's file
/// dialogs, and the command list's invoke handler.
pub fn with_app<R: Runtime>(base: tauri::Builder<R>) -> tauri::Builder<R> {
    base.plugin(tauri_plugin_dialog::init()).invoke_handler(commands::handler())
}

/// The app's context (configuration, assets, capabilities) for any runtime.
pub fn context<R: Runtime>() -> tauri::Context<R> {
    tauri::generate_context!()
}

/// Runs the desktop app.
pub fn run() {
    one_heap_per_core();
    studio_model::webkit::set_env();
    studio_local::release_memory_when_idle(IDLE_RELEASE_AFTER);
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let app = match with_app(tauri::Builder::default()).setup(setup).build(context()) {
        Ok(app) => app,
        Err(e) => could_not_start(e),
    };
    app.run(|app, event| {
        if let tauri::RunEvent::Exit = event {
            exit::finish_writes(app);
        }
    });
}

//! The desktop shell of Search Studio: a window over the web UI, IPC commands over one switchable
//! `Backend` (the local store or a remote connection), the connections with their sign-in and secrets,
//! preferences, and long work with progress.
//!
//! The shell holds no rules of the API: commands delegate to the backends of the core crates.

#[cfg(target_os = "linux")]
mod appearance;
pub mod browser;
mod commands;
pub mod connections;
mod error;
mod prefs;
pub mod secrets;
mod state;
pub mod store;
mod work;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use studio_local::{LocalBackend, StoreError};
use studio_model::{Backend, BackendError};
use tauri::webview::PageLoadEvent;
use tauri::{App, Emitter, Manager, Runtime, WebviewUrl, WebviewWindowBuilder, WindowEvent};

use browser::{Browser, Opener, SystemBrowser};
pub use commands::store::{BackupSettings, Folder};
pub use commands::sync::ConnectionState;
use connections::ConnectionStore;
pub use error::IpcError;
pub use prefs::{Geometry, Prefs, Settings, Theme, PREFS_FILE};
use secrets::KeyringAccess;
pub use state::{BackendSlot, Tasks};
pub use work::Progress;

/// The window's title; external checks look for it.
pub const WINDOW_TITLE: &str = "Search Studio";

/// On Linux, WebKitGTK's web process paints into shared memory instead of GL buffers (its DMA-BUF renderer
/// off), unless the variable is set already: the editor is a page of forms and a preview, which the CPU paints
/// without effort, while the GL path kept about 120 MB more in the web process (on a machine without a GPU,
/// Mesa's software GL) and slowed the first results (docs/performance-journal.md, "The desktop app as a whole").
/// Set before any thread or WebKit process starts, so that WebKit's processes inherit it.
fn paint_on_the_cpu() {
    const VARIABLE: &str = "WEBKIT_DISABLE_DMABUF_RENDERER";
    if cfg!(target_os = "linux") && std::env::var_os(VARIABLE).is_none() {
        std::env::set_var(VARIABLE, "1");
    }
}

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
    #[error("cannot open the local store: {0}")]
    Store(#[from] StoreError),
    #[error("cannot read the local store: {0}")]
    Read(#[from] BackendError),
    #[error("cannot load the demo data: {0}")]
    Demo(studio_local::demo::DemoError),
    #[error("cannot open the settings: {}", .0.message)]
    Settings(IpcError),
}

/// Loads the demo search space into `local` when the store is new (no configurations, no documents).
pub fn with_demo(local: LocalBackend) -> Result<LocalBackend, StartError> {
    let fresh = tauri::async_runtime::block_on(async {
        let list = local.list_configurations().await?;
        let spaces = local.search_spaces().await?;
        Ok::<_, BackendError>(list.configurations.is_empty() && spaces.is_empty())
    })?;
    if fresh {
        work::load_demo(&local, &mut |_| {}, Arc::new(AtomicBool::new(false))).map_err(StartError::Demo)?;
    }
    Ok(local)
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
pub fn install_state<R: Runtime, M: Manager<R>>(
    app: &M,
    data_dir: &std::path::Path,
) -> Result<Option<Geometry>, StartError> {
    install_state_with(app, data_dir, ShellOptions::default())
}

/// Registers the preferences, connections, task list and the store's launch state for the store in
/// `data_dir`; when the store opens healthy, also the backend (with the connection that was current last
/// time) and the store's backups. A damaged store is no error here: the launch state says so, and the UI
/// shows the recovery screen. Returns the preferences' window geometry.
pub fn install_state_with<R: Runtime, M: Manager<R>>(
    app: &M,
    data_dir: &std::path::Path,
    options: ShellOptions,
) -> Result<Option<Geometry>, StartError> {
    let prefs = Prefs::open(app.app_handle(), data_dir).map_err(StartError::Settings)?;
    let opener = Arc::clone(&options.opener);
    let connections = tauri::async_runtime::block_on(ConnectionStore::open(
        prefs.clone(),
        options.keyring,
        Arc::clone(&opener),
        options.browser_wait,
    ))
    .map_err(StartError::Settings)?;
    let geometry = prefs.geometry();
    let events = app.app_handle().clone();
    app.manage(prefs);
    app.manage(connections);
    app.manage(Browser(opener));
    app.manage(Tasks::new(Arc::new(move |progress| {
        let _ = events.emit(work::PROGRESS_EVENT, progress);
    })));
    app.manage(store::StoreLife::default());
    store::launch(app, data_dir)?;
    Ok(geometry)
}

/// How long the exit waits for the long tasks under way to stop once asked.
const TASKS_WAIT: Duration = Duration::from_secs(30);

/// How long the exit waits for the search engine's own work on the store (its upkeep) to end.
const ENGINE_WAIT: Duration = Duration::from_secs(10);

/// Ends what uses the store and closes it before the app ends, so that only the store's files and backups
/// remain (docs/choices.md, "Closing the desktop app"): waits for what the shell still writes in the
/// background (a renewed refresh token), stops the long tasks (an import keeps the batches it wrote) and waits
/// for them, takes the exit backup and closes the store (every pooled connection, whoever holds a clone of
/// the store), then waits for the search engine's upkeep, whose own connection is the last to close.
pub fn finish_writes<R: Runtime, M: Manager<R>>(app: &M) {
    if let Some(connections) = app.try_state::<ConnectionStore>() {
        tauri::async_runtime::block_on(connections.flush());
    }
    if let Some(tasks) = app.try_state::<Tasks>() {
        let running = tasks.stop_all(TASKS_WAIT);
        if running > 0 {
            tracing::warn!("{running} task(s) did not stop within {TASKS_WAIT:?}; closing the store anyway");
        }
    }
    if let Some(life) = app.try_state::<store::StoreLife>() {
        life.close();
    }
    if let Some(slot) = app.try_state::<BackendSlot>() {
        if !slot.settle(ENGINE_WAIT) {
            tracing::warn!("the store's upkeep did not end within {ENGINE_WAIT:?}; its log is read at the next start");
        }
    }
}

/// Registers state and opens the window, with the backend and geometry the preferences remember.
fn setup<R: Runtime>(app: &mut App<R>) -> Result<(), Box<dyn std::error::Error>> {
    let data_dir = data_dir().ok_or("no data directory: set SEARCH_STUDIO_DATA_DIR")?;
    let geometry = install_state(app, &data_dir)?;

    let mut builder = WebviewWindowBuilder::new(app, "main", WebviewUrl::App("index.html".into()))
        .title(WINDOW_TITLE)
        .min_inner_size(900.0, 600.0)
        .inner_size(1400.0, 900.0)
        .visible(false)
        .on_page_load(|window, payload| {
            if payload.event() == PageLoadEvent::Finished {
                show(&window);
            }
        });
    if let Some(g) = geometry {
        builder = builder.inner_size(g.width.max(900.0), g.height.max(600.0)).position(g.x, g.y);
    }
    let window = builder.build()?;
    let shown = window.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(SHOW_AT_THE_LATEST).await;
        show(&shown);
    });
    #[cfg(target_os = "linux")]
    appearance::follow_desktop(app.handle());
    end_on_signals(app.handle().clone());
    let handle = window.clone();
    window.on_window_event(move |event| {
        if matches!(event, WindowEvent::CloseRequested { .. } | WindowEvent::Resized(_) | WindowEvent::Moved(_)) {
            remember_geometry(&handle);
        }
    });
    Ok(())
}

/// How long after its creation the window is shown even when its page has not finished loading.
const SHOW_AT_THE_LATEST: Duration = Duration::from_secs(3);

/// Shows the window when it is hidden: it is created hidden and shown when its page has loaded (see `setup`).
fn show<R: Runtime>(window: &tauri::WebviewWindow<R>) {
    if !window.is_visible().unwrap_or(true) {
        if let Err(e) = window.show() {
            tracing::warn!("cannot show the window: {e}");
        }
    }
}

/// SIGTERM and SIGINT end the app as closing its window does: the exit backup is taken and the store closed
/// (`RunEvent::Exit`), instead of the process ending where it stands.
fn end_on_signals<R: Runtime>(app: tauri::AppHandle<R>) {
    #[cfg(unix)]
    tauri::async_runtime::spawn(async move {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
            tracing::warn!("cannot listen for SIGTERM and SIGINT; they end the app without closing the store");
            return;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        app.exit(0);
    });
}

fn remember_geometry<R: Runtime>(window: &tauri::WebviewWindow<R>) {
    let (Ok(scale), Ok(size), Ok(pos)) = (window.scale_factor(), window.inner_size(), window.outer_position()) else {
        return;
    };
    if window.is_minimized().unwrap_or(false) || window.is_maximized().unwrap_or(false) {
        return;
    }
    let (size, pos) = (size.to_logical::<f64>(scale), pos.to_logical::<f64>(scale));
    let geometry = Geometry { x: pos.x, y: pos.y, width: size.width, height: size.height };
    if let Some(prefs) = window.try_state::<Prefs>() {
        if prefs.geometry() != Some(geometry) {
            let _ = prefs.set_geometry(geometry);
        }
    }
}

/// Adds this app's plugins and commands to `base` (the real builder, or the mock one in tests).
pub fn with_app<R: Runtime>(base: tauri::Builder<R>) -> tauri::Builder<R> {
    base.plugin(tauri_plugin_store::Builder::new().build())
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(commands::handler())
}

/// The app's context (configuration, assets, capabilities) for any runtime.
pub fn context<R: Runtime>() -> tauri::Context<R> {
    tauri::generate_context!()
}

/// Runs the desktop app.
pub fn run() {
    paint_on_the_cpu();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let app = match with_app(tauri::Builder::default()).setup(setup).build(context()) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: Search Studio could not start: {e}");
            std::process::exit(1);
        }
    };
    app.run(|app, event| {
        if let tauri::RunEvent::Exit = event {
            finish_writes(app);
        }
    });
}

//! The desktop shell of Search Studio: a window over the web UI, IPC commands over one switchable
//! `Backend` (the local store or a remote connection), the connections with their sign-in and secrets,
//! preferences, and long work with progress.
//!
//! The shell holds no rules of the API: commands delegate to the backends of the core crates. This file only
//! names the modules and what the app's binary and tests use; no module imports from it. From the top:
//! `startup` puts the app together and `exit` ends it; `commands` are the IPC; below them `local_store`,
//! `connections`, `work`, `window`, `appearance` (and, in the benchmark's build only, `bench_hooks`); `folder`
//! below `connections`; then
//! `state`, `prefs`, `secrets` and `browser`; and `error`, which imports none of them.

#[cfg(target_os = "linux")]
mod appearance;
#[cfg(feature = "bench-hooks")]
mod bench_hooks;
pub mod browser;
mod commands;
pub mod connections;
mod error;
mod exit;
pub mod folder;
pub mod local_store;
mod prefs;
pub mod secrets;
mod startup;
mod state;
mod window;
mod work;

pub use commands::store::{BackupSettings, Folder};
pub use commands::sync::ConnectionState;
pub use error::{Answer, IpcError};
pub use exit::finish_writes;
pub use prefs::{Geometry, Prefs, Settings, Theme, PREFS_FILE};
pub use startup::{context, data_dir, install_state, install_state_with, run, with_app, ShellOptions, StartError};
pub use state::{BackendSlot, Progress, Tasks};
pub use window::WINDOW_TITLE;

//! The IPC commands, one module per domain. Each command is a few lines that delegate to the current
//! backend, the connections or the preferences; no rule of the API lives here. Which commands exist is
//! written once, in `list.rs`: the invoke handler below, the permissions and the capability (build.rs) and
//! the UI's wrappers (the commands test) all come from it.

pub mod backend;
pub mod connections;
pub mod copy;
pub mod drafts;
pub mod files;
pub mod folder;
pub mod links;
pub mod settings;
pub mod store;
pub mod sync;
pub mod tasks;
pub mod window;

/// Makes [`handler`] from the command list.
macro_rules! command_list {
    ($($module:ident :: $command:ident),* $(,)?) => {
        /// The invoke handler: every command of `list.rs`, and no other.
        #[cfg(not(feature = "bench-hooks"))]
        pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$($module::$command),*]
        }

        /// The invoke handler of the benchmark's build: every command of `list.rs`, and the benchmark's one
        /// (`crate::bench_hooks`, which build.rs grants in that build only).
        #[cfg(feature = "bench-hooks")]
        pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$($module::$command,)* crate::bench_hooks::first_results_shown]
        }
    };
}

include!("list.rs");

//! How the app ends: closing its window or a SIGTERM or SIGINT, after which what uses the local store is ended
//! and the store closed, so that only its files and backups remain (docs/choices.md, "Closing the desktop app").

use std::time::Duration;

use tauri::{Manager, Runtime};

use crate::connections::ConnectionStore;
use crate::local_store::StoreLife;
use crate::state::{BackendSlot, Tasks};

/// How long the exit waits for the long tasks under way to stop once asked.
const TASKS_WAIT: Duration = Duration::from_secs(30);

/// How long the exit waits for the search engine's own work on the store (its upkeep) to end.
const ENGINE_WAIT: Duration = Duration::from_secs(10);

/// Ends what uses the store and closes it before the app ends: waits for what the shell still writes in the
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
    if let Some(life) = app.try_state::<StoreLife>() {
        life.close();
    }
    if let Some(slot) = app.try_state::<BackendSlot>() {
        if !slot.settle(ENGINE_WAIT) {
            tracing::warn!("the store's upkeep did not end within {ENGINE_WAIT:?}; its log is read at the next start");
        }
    }
}

/// SIGTERM and SIGINT end the app as closing its window does: the exit backup is taken and the store closed
/// (`RunEvent::Exit`), instead of the process ending where it stands.
pub fn end_on_signals<R: Runtime>(app: tauri::AppHandle<R>) {
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

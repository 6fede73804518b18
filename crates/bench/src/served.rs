//! A benchmark store served as `studio serve` serves it: studio-server's router with its network limits on a
//! loopback port, one user with a random token, and the benchmark's configuration in the store (created, or set
//! to the benchmark's settings again when an earlier start created it) and made the active one, which the web UI
//! opens first. Used by the pull ([`crate::pull`]) and the preview
//! ([`crate::preview`]) figures.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;
use studio_local::{LocalBackend, SearchEngine, Store};
use studio_model::{Backend, Caller};
use studio_server::listen::{self, Limits};
use studio_server::Auth;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::error::BenchError;
use crate::workload::bench_config;

/// A running server of a store; [`Served::stop`] ends it.
pub struct Served {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    pub token: String,
    /// The benchmark configuration's id on the server.
    pub config_id: i32,
    stop: oneshot::Sender<()>,
    server: JoinHandle<()>,
    /// The served backend's engine, whose background work [`Served::settle`] waits for.
    engine: Arc<SearchEngine>,
}

impl Served {
    /// Serves `store` (and the built web UI in `ui_dir`, when given) on a loopback port of the running runtime.
    pub async fn start(store: &Store, ui_dir: Option<PathBuf>) -> Result<Served, BenchError> {
        let backend = LocalBackend::new(store.clone());
        let engine = backend.engine().clone();
        let config = bench_config();
        // One benchmark configuration per store, set to the benchmark's settings again on every start, so that
        // serving a kept store again and again does not add one each time.
        let kept = backend.list_configurations().await?.configurations.into_iter().find(|c| {
            c.user == caller().user && c.config.title == config.title && c.config.search_space == config.search_space
        });
        let body = json!({ "config": config });
        let written = match kept.and_then(|c| c.id) {
            Some(id) => backend.update_configuration(&caller(), id, body).await?,
            None => backend.create_configuration(&caller(), body).await?,
        };
        let config_id = written.config.id.ok_or(BenchError::NoConfigId)?;
        backend.set_active(&caller(), config_id).await?;
        let (auth, token) = Auth::single_random_user("bench");
        let app = studio_server::router(Arc::new(backend), Arc::new(auth), ui_dir);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(serve_error("listen on loopback"))?;
        let base = format!("http://{}", listener.local_addr().map_err(serve_error("listen on loopback"))?);
        let (stop, stopped) = oneshot::channel::<()>();
        let server = tokio::spawn(listen::serve(listener, app, Limits::default(), async {
            let _ = stopped.await;
        }));
        Ok(Served { base, token, config_id, stop, server, engine })
    }

    /// Waits for the work the served engine started on threads of its own (after building its index) to end.
    pub fn settle(&self) {
        self.engine.settle();
    }

    /// Ends the server and waits for it and for its engine's background work.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.server.await;
        self.engine.settle();
    }
}

/// The user the benchmark acts as.
pub fn caller() -> Caller {
    Caller { user: "bench".into() }
}

/// For `map_err`: the runtime or the listener could not be started.
pub fn serve_error(what: &'static str) -> impl FnOnce(std::io::Error) -> BenchError {
    move |source| BenchError::Serve { what, source }
}

//! A real Search Studio server (the axum router over a local store) on a loopback port, and clients of it.

use std::sync::Arc;

use studio_local::{LocalBackend, Store};
use studio_remote::RemoteBackend;
use studio_server::Auth;
use studio_sync::SyncStore;

pub struct Remote {
    pub base: String,
    pub token: String,
    _dir: tempfile::TempDir,
}

impl Remote {
    pub fn client(&self) -> RemoteBackend {
        RemoteBackend::new(&self.base, Some(&self.token)).unwrap()
    }
}

/// Starts a server over a fresh store; `fill` prepares the store first.
pub async fn serve(fill: impl FnOnce(&Store)) -> Remote {
    serve_with(fill, |app| app).await
}

/// [`serve`] with `layer` put in front of the server's routes (to hold answers back).
pub async fn serve_with(fill: impl FnOnce(&Store), layer: impl FnOnce(axum::Router) -> axum::Router) -> Remote {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    fill(&store);
    let local = LocalBackend::new(store);
    let (auth, token) = Auth::single_random_user("ana");
    let app = layer(studio_server::router(Arc::new(local), Arc::new(auth), None));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    Remote { base, token, _dir: dir }
}

/// A fresh local store of the app (drafts, published versions, pulled documents).
pub fn app_store() -> (tempfile::TempDir, LocalBackend, SyncStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    (dir, LocalBackend::new(store.clone()), SyncStore::new(store))
}

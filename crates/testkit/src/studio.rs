//! This project's own API server on loopback, for clients to connect to: the `studio serve` router over a
//! real store in a temp directory, on its own thread and runtime, with either one random token or the access
//! tokens of an OpenID Connect provider (checking their signature, issuer and expiry against the provider's
//! published keys, as `studio serve --oidc-issuer` does). A token server can be slow on demand: behind a
//! [`Gate`], requests wait until the test opens it.
//!
//! Only with the `studio` feature, which links the server and the store: crates whose own tests need neither
//! (the remote client's, the server's) do not build them for their tests. Everything here panics when the
//! server cannot be set up, since the test cannot go on.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use studio_local::{LocalBackend, Store};
use studio_model::{Backend, Caller};
use studio_server::auth::{ProviderSettings, ProviderTokens};
use studio_server::Auth;

/// A server running on its own thread until the tests end.
pub struct ApiServer {
    pub url: String,
    /// The bearer token it knows (token servers only).
    pub token: String,
    /// The store behind it, to change it "elsewhere" in a test.
    pub backend: LocalBackend,
    _dir: tempfile::TempDir,
}

impl ApiServer {
    /// Creates a configuration on this server as another designer would.
    pub fn create(&self, body: Value) -> i32 {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let written =
            runtime.block_on(self.backend.create_configuration(&Caller { user: "elsewhere".into() }, body)).unwrap();
        written.config.id.unwrap()
    }

    /// Changes configuration `id` on this server as another designer would.
    pub fn update(&self, id: i32, body: Value) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(self.backend.update_configuration(&Caller { user: "elsewhere".into() }, id, body)).unwrap();
    }
}

/// Holds a server's requests until the test opens it.
pub struct Gate {
    open: tokio::sync::watch::Sender<bool>,
    arrived: AtomicUsize,
}

impl Gate {
    fn new() -> Arc<Gate> {
        Arc::new(Gate { open: tokio::sync::watch::channel(false).0, arrived: AtomicUsize::new(0) })
    }

    async fn pass(&self) {
        self.arrived.fetch_add(1, Ordering::SeqCst);
        let mut open = self.open.subscribe();
        let _ = open.wait_for(|open| *open).await;
    }

    /// Waits (a few seconds at most) until a request is held at the gate.
    pub fn wait_for_a_request(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.arrived.load(Ordering::SeqCst) == 0 {
            assert!(Instant::now() < deadline, "no request reached the gate");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Lets every held request, and every later one, through.
    pub fn open(&self) {
        self.open.send_replace(true);
    }
}

/// Serves a fresh store (prepared by `fill`) with the auth `make_auth` builds inside the server's runtime.
fn serve<F>(fill: impl FnOnce(&Store), make_auth: impl FnOnce() -> F, token: String) -> ApiServer
where
    F: std::future::Future<Output = Auth>,
{
    serve_behind(None, fill, make_auth, token)
}

/// [`serve`], with every request held at `gate` first, when there is one.
fn serve_behind<F>(
    gate: Option<Arc<Gate>>,
    fill: impl FnOnce(&Store),
    make_auth: impl FnOnce() -> F,
    token: String,
) -> ApiServer
where
    F: std::future::Future<Output = Auth>,
{
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    fill(&store);
    let backend = LocalBackend::new(store);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let auth = runtime.block_on(make_auth());
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let mut app = studio_server::router(Arc::new(backend.clone()), Arc::new(auth), None);
    if let Some(gate) = gate {
        app = app.layer(axum::middleware::from_fn(move |request, next: axum::middleware::Next| {
            let gate = gate.clone();
            async move {
                gate.pass().await;
                next.run(request).await
            }
        }));
    }
    std::thread::spawn(move || runtime.block_on(async { axum::serve(listener, app).await }));
    ApiServer { url, token, backend, _dir: dir }
}

/// A server whose one user `remote-ana` has a random token.
pub fn token_server(fill: impl FnOnce(&Store)) -> ApiServer {
    let (auth, token) = Auth::single_random_user("remote-ana");
    serve(fill, || async { auth }, token)
}

/// A token server whose requests wait at the gate it answers with, until the test opens it.
pub fn slow_token_server(fill: impl FnOnce(&Store)) -> (ApiServer, Arc<Gate>) {
    let gate = Gate::new();
    let (auth, token) = Auth::single_random_user("remote-ana");
    (serve_behind(Some(gate.clone()), fill, || async { auth }, token), gate)
}

/// A server that accepts `issuer`'s access tokens; members of its group `designers` may read, write and
/// search every search space.
pub fn provider_server(issuer: &str) -> ApiServer {
    let auth_dir = tempfile::tempdir().unwrap();
    let file = crate::designers_auth_file(auth_dir.path());
    let issuer = issuer.to_owned();
    serve(
        |_| {},
        move || async move {
            let tokens = ProviderTokens::start(ProviderSettings::new(&issuer)).await.unwrap();
            Auth::from_file(&file).unwrap().with_provider_tokens(tokens)
        },
        String::new(),
    )
}

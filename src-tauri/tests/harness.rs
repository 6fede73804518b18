//! The desktop app on Tauri's mock runtime, for the command tests: a store in a temp directory, the real
//! capabilities, and calls shaped as the UI makes them. Secrets go to the secrets file, or to a keyring
//! stand-in ([`keyring::TestKeyring`]) — never to the keyring of the machine running the tests — and the
//! system's browser is a stand-in ([`TestBrowser`]).

#[path = "keyring.rs"]
pub mod keyring;
/// Real `studio serve` routers on loopback for the app to connect to.
pub use studio_testkit::studio as servers;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use search_studio::browser::Opener;
use search_studio::secrets::KeyringAccess;
use search_studio::ShellOptions;
use serde_json::{json, Value};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::{App, Listener, WebviewWindow, WebviewWindowBuilder};

/// The browser the app opens pages in: it notes every address, and when told whom to sign in as, goes
/// through the provider's login page like a person would (on its own thread, as a browser runs beside the
/// app).
#[derive(Default)]
pub struct TestBrowser {
    pub opened: Mutex<Vec<String>>,
    sign_in_as: Mutex<Option<(String, String)>>,
}

impl TestBrowser {
    /// Signs in as `user` with `password` on every sign-in page opened from now on.
    pub fn sign_in_as(&self, user: &str, password: &str) {
        *self.sign_in_as.lock().unwrap() = Some((user.to_owned(), password.to_owned()));
    }

    /// Waits (a few seconds at most) until `count` pages have been opened, and answers the last one.
    pub fn page(&self, count: usize) -> String {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(url) = self.opened.lock().unwrap().get(count - 1) {
                return url.clone();
            }
            assert!(std::time::Instant::now() < deadline, "the app did not open sign-in page {count}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Opener for TestBrowser {
    fn open(&self, url: &str) -> std::io::Result<()> {
        self.opened.lock().unwrap().push(url.to_owned());
        if let Some((user, password)) = self.sign_in_as.lock().unwrap().clone() {
            let url = url.to_owned();
            std::thread::spawn(move || {
                if let Err(e) = studio_testkit::browser_sign_in(&url, &user, &password) {
                    eprintln!("the browser stand-in did not sign in: {e}");
                }
            });
        }
        Ok(())
    }
}

pub struct Harness {
    pub app: App<MockRuntime>,
    pub window: WebviewWindow<MockRuntime>,
    pub dir: tempfile::TempDir,
    pub browser: Arc<TestBrowser>,
    browser_wait: Duration,
    keyring: Option<KeyringAccess>,
}

pub fn harness() -> Harness {
    harness_in(tempfile::tempdir().unwrap(), Duration::from_secs(60))
}

/// The app over data directory `dir`; a browser sign-in waits at most `browser_wait`.
pub fn harness_in(dir: tempfile::TempDir, browser_wait: Duration) -> Harness {
    harness_with(dir, browser_wait, None)
}

/// The app over data directory `dir`, keeping secrets in `keyring` when it answers.
pub fn harness_with(dir: tempfile::TempDir, browser_wait: Duration, keyring: Option<KeyringAccess>) -> Harness {
    let browser = Arc::new(TestBrowser::default());
    let app = search_studio::with_app(mock_builder()).build(search_studio::context::<MockRuntime>()).unwrap();
    let options = ShellOptions { opener: browser.clone(), keyring: keyring.clone(), browser_wait };
    search_studio::install_state_with(&app, dir.path(), options).unwrap();
    let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    Harness { app, window, dir, browser, browser_wait, keyring }
}

/// Calls command `cmd` in `window` as the UI does (usable from another thread, with a clone of the window).
pub fn invoke_in(window: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(window, request).map(|body| body.deserialize::<Value>().unwrap())
}

impl Harness {
    pub fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        invoke_in(&self.window, cmd, args)
    }

    /// Every `task-progress` event from now on, as the UI receives it.
    pub fn task_reports(&self) -> Arc<Mutex<Vec<Value>>> {
        let events: Arc<Mutex<Vec<Value>>> = Arc::default();
        let seen = Arc::clone(&events);
        self.app.listen_any("task-progress", move |event| {
            seen.lock().unwrap().push(serde_json::from_str(event.payload()).unwrap());
        });
        events
    }

    /// Calls command `cmd` on its own thread (it answers later, like a slow command while the UI goes on).
    pub fn invoke_later(&self, cmd: &str, args: Value) -> std::thread::JoinHandle<Result<Value, Value>> {
        let (window, cmd) = (self.window.clone(), cmd.to_owned());
        std::thread::spawn(move || invoke_in(&window, &cmd, args))
    }

    pub fn ok(&self, cmd: &str, args: Value) -> Value {
        self.invoke(cmd, args).unwrap_or_else(|e| panic!("{cmd}: {e}"))
    }

    /// The app quits (finishing its writes) and starts again over the same data directory.
    pub fn restart(self) -> Harness {
        search_studio::finish_writes(&self.app);
        let Harness { app, window, dir, browser_wait, keyring, .. } = self;
        drop(window);
        drop(app);
        harness_with(dir, browser_wait, keyring)
    }

    /// The app quits as on a clean exit (its writes finished, the store closed); answers its data directory.
    pub fn quit(self) -> tempfile::TempDir {
        search_studio::finish_writes(&self.app);
        let Harness { app, window, dir, .. } = self;
        drop(window);
        drop(app);
        dir
    }

    /// Saves a connection to the server at `url` that sends `token`, and answers its id.
    pub fn add_token_connection(&self, name: &str, url: &str, token: &str) -> String {
        let saved =
            self.ok("save_connection", json!({"input": connection_input(name, url, "token", json!({"token": token}))}));
        saved["connections"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// Saves a connection with `token` and makes it the current one.
    pub fn use_token_connection(&self, url: &str, token: &str) -> String {
        let id = self.add_token_connection("Remote", url, token);
        self.ok("use_connection", json!({"id": id}));
        id
    }

    /// The connection `id` as `list_connections` shows it.
    pub fn connection(&self, id: &str) -> Value {
        let list = self.ok("list_connections", json!({}));
        list["connections"].as_array().unwrap().iter().find(|c| c["id"] == id).cloned().unwrap_or(Value::Null)
    }

    /// The text of a file of the data directory ("" when it does not exist).
    pub fn data_file(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default()
    }

    /// The notices Settings shows with the connections.
    pub fn notices(&self) -> Vec<String> {
        let list = self.ok("list_connections", json!({}));
        list["notices"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_owned()).collect()
    }
}

/// A `ConnectionInput` for a new connection; `extra` sets or overrides fields.
pub fn connection_input(name: &str, url: &str, sign_in: &str, extra: Value) -> Value {
    let mut input = json!({
        "id": null, "name": name, "url": url, "signIn": sign_in, "issuer": null, "clientId": null,
        "username": null, "rememberPassword": false, "token": null, "clientSecret": null, "password": null,
    });
    for (key, value) in extra.as_object().unwrap() {
        input[key] = value.clone();
    }
    input
}

//! The desktop app on Tauri's mock runtime, for the command tests: a store in a temp directory, the real
//! capabilities, and calls shaped as the UI makes them.

#![allow(dead_code)]

use serde_json::Value;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::{App, WebviewWindow, WebviewWindowBuilder};

pub struct Harness {
    pub app: App<MockRuntime>,
    pub window: WebviewWindow<MockRuntime>,
    pub dir: tempfile::TempDir,
}

pub fn harness() -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let app = search_studio::with_app(mock_builder()).build(search_studio::context::<MockRuntime>()).unwrap();
    search_studio::install_state(&app, dir.path()).unwrap();
    let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    Harness { app, window, dir }
}

impl Harness {
    pub fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        let request = InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        };
        get_ipc_response(&self.window, request).map(|body| body.deserialize::<Value>().unwrap())
    }

    pub fn ok(&self, cmd: &str, args: Value) -> Value {
        self.invoke(cmd, args).unwrap_or_else(|e| panic!("{cmd}: {e}"))
    }
}

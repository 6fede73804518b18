//! Running the real `studio` binary for the hardening tests (crash safety, load, security): start it on a
//! free loopback port, read the token and address it prints, and stop it by its own process id.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const STUDIO: &str = env!("CARGO_BIN_EXE_studio");

/// A running `studio serve`; killed (SIGKILL) when dropped.
pub struct Served {
    pub child: Child,
    pub base: String,
    pub token: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// A client for this server's requests (30 s per request).
    pub fn client(&self) -> reqwest::blocking::Client {
        client(30)
    }

    /// `GET path` with the server's token: the status and the JSON body (null when there is none).
    pub fn get(&self, path: &str) -> (u16, serde_json::Value) {
        answer(self.client().get(format!("{}{path}", self.base)).bearer_auth(&self.token))
    }

    /// `POST path` with `body` as JSON and the server's token.
    pub fn post(&self, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        answer(self.client().post(format!("{}{path}", self.base)).bearer_auth(&self.token).json(body))
    }

    /// `PUT path` with `body` as JSON and the server's token.
    pub fn put(&self, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        answer(self.client().put(format!("{}{path}", self.base)).bearer_auth(&self.token).json(body))
    }
}

fn answer(request: reqwest::blocking::RequestBuilder) -> (u16, serde_json::Value) {
    let response = request.send().expect("the server answers");
    (response.status().as_u16(), response.json().unwrap_or(serde_json::Value::Null))
}

/// Starts `studio serve` over `data_dir` with extra `args`, stderr going to `stderr`.
pub fn serve_with(data_dir: &Path, args: &[&str], envs: &[(&str, &str)], stderr: Stdio) -> Served {
    let mut command = Command::new(STUDIO);
    command.args(serve_args(data_dir)).args(args);
    command.env_remove("RUST_LOG").envs(envs.iter().copied());
    serve_command(command.stderr(stderr))
}

/// The arguments of `studio serve` over `data_dir` on a free loopback port.
pub fn serve_args(data_dir: &Path) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> =
        ["serve", "--listen", "127.0.0.1:0", "--data-dir"].iter().map(Into::into).collect();
    args.push(data_dir.into());
    args
}

/// Starts `command` (a `studio serve`, perhaps run by another program) and reads the token and address it
/// prints.
pub fn serve_command(command: &mut Command) -> Served {
    let mut child = command.stdout(Stdio::piped()).spawn().expect("studio starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout is piped")).lines();
    let mut token = String::new();
    let base = loop {
        let line = lines.next().expect("studio prints its address").expect("stdout reads");
        if let Some(t) = line.strip_prefix("token: ") {
            token = t.to_owned();
        } else if let Some(b) = line.strip_prefix("listening on ") {
            break b.to_owned();
        }
    };
    Served { child, base, token }
}

/// Starts `studio serve` over `data_dir` with its random token.
pub fn serve(data_dir: &Path) -> Served {
    serve_with(data_dir, &[], &[], Stdio::null())
}

/// A blocking HTTP client that gives up on a request after `seconds`.
pub fn client(seconds: u64) -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder().timeout(Duration::from_secs(seconds)).build().expect("a client")
}

/// Runs `studio` to completion with `args`; panics when it fails.
pub fn studio(args: &[&str], data_dir: &Path) -> String {
    let out = Command::new(STUDIO).args(args).arg("--data-dir").arg(data_dir).output().expect("studio runs");
    assert!(out.status.success(), "studio {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Sends `signal` (`-TERM`, `-HUP`) to `child`.
pub fn kill(child: &Child, signal: &str) {
    assert!(Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap().success());
}

/// Waits (up to 30 s) for `child` to end by itself.
pub fn wait_exit(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "the server did not end within 30 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

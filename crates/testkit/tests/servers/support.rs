//! What the server tests share: JSON requests, reading a JWT's parts, a loopback listener standing in for
//! an application's redirect URI, and a real `studio serve`.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::Value;
use sha2::{Digest, Sha256};

pub fn http() -> reqwest::blocking::Client {
    reqwest::blocking::Client::new()
}

/// Status and JSON body of an answer.
pub fn json(answer: reqwest::blocking::Response) -> (u16, Value) {
    let status = answer.status().as_u16();
    let text = answer.text().unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{status} answer is not JSON: {text}"));
    (status, body)
}

pub fn get_json(url: &str) -> (u16, Value) {
    json(http().get(url).send().unwrap())
}

/// The header and payload of a JWT, decoded (not verified).
pub fn jwt(token: &str) -> (Value, Value) {
    let parts: Vec<&str> = token.split('.').collect();
    assert_eq!(parts.len(), 3, "a JWT has three parts: {token}");
    let decode = |part: &str| serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap();
    (decode(parts[0]), decode(parts[1]))
}

/// The S256 code challenge of a PKCE verifier.
pub fn code_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// A loopback listener on a free port that answers one request, as an application's redirect URI does.
pub struct Callback {
    pub port: u16,
    requests: mpsc::Receiver<String>,
}

impl Callback {
    pub fn listen() -> Callback {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let (sender, requests) = mpsc::channel();
        thread::spawn(move || {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\nConnection: close\r\n\r\nsigned in");
            let _ = sender.send(request_line.trim_end().to_owned());
        });
        Callback { port, requests }
    }

    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    /// The request line it received ("GET /callback?code=… HTTP/1.1").
    pub fn received(&self) -> String {
        self.requests.recv_timeout(Duration::from_secs(5)).expect("the browser opened the redirect URI")
    }
}

/// The query parameters of a request line's target.
pub fn query(request_line: &str) -> Vec<(String, String)> {
    let target = request_line.split(' ').nth(1).unwrap_or_default();
    let url = reqwest::Url::parse(&format!("http://127.0.0.1{target}")).unwrap();
    url.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

pub fn param<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
}

/// A real `studio serve` over a store in a temp directory, with the token it printed.
pub struct StudioServe {
    child: Child,
    pub url: String,
    pub token: String,
    _dir: tempfile::TempDir,
}

impl Drop for StudioServe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `studio` program cargo built beside this test (target/<profile>/studio), or `STUDIO_BIN`.
pub fn studio_program() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("STUDIO_BIN") {
        return Some(PathBuf::from(path));
    }
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?;
    let program = profile_dir.join(format!("studio{}", std::env::consts::EXE_SUFFIX));
    program.is_file().then_some(program)
}

impl StudioServe {
    pub fn start(program: &Path) -> StudioServe {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(program)
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let token = lines.next().unwrap().unwrap().strip_prefix("token: ").unwrap().to_owned();
        let url = lines.next().unwrap().unwrap().strip_prefix("listening on ").unwrap().to_owned();
        thread::spawn(move || for _ in lines {});
        StudioServe { child, url, token, _dir: dir }
    }
}

//! The real `studio serve --oidc-issuer` against the real OpenID Connect provider of studio-testkit
//! (Keycloak-shaped: users ana in `/designers`, bob in `/viewers`; client `ppt`), and its start-up errors.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};
use studio_testkit::{OidcProvider, ProviderOptions};

const STUDIO: &str = env!("CARGO_BIN_EXE_studio");

struct Serve {
    child: Child,
    base: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write_auth_file(dir: &Path) -> PathBuf {
    let path = dir.join("auth.json");
    let groups = json!({"users": [], "groups": [
        { "name": "designers", "operations": ["read", "write", "search"], "searchSpaces": ["*"] },
        { "name": "viewers", "operations": ["read", "search"], "searchSpaces": ["*"] }
    ]});
    std::fs::write(&path, groups.to_string()).unwrap();
    path
}

/// `studio serve --auth FILE --oidc-issuer ISSUER --oidc-audience search-studio`, logging everything (trace)
/// to a file.
fn serve(dir: &Path, issuer: &str) -> Serve {
    let log = dir.join("serve.log");
    let mut child = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--auth"])
        .arg(write_auth_file(dir))
        .args(["--oidc-issuer", issuer, "--oidc-audience", "search-studio", "--data-dir"])
        .arg(dir.join("data"))
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(File::create(&log).unwrap())
        .spawn()
        .expect("studio starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().map(|line| line.unwrap()).unwrap_or_default();
    let base = first
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("`{first}`; its log: {}", std::fs::read_to_string(&log).unwrap_or_default()))
        .to_owned();
    Serve { child, base }
}

fn access_token(provider: &OidcProvider, user: &str) -> String {
    let answer = provider.password_grant("ppt", Some("ppt-secret"), user, &format!("{user}-password"));
    answer["access_token"].as_str().unwrap_or_else(|| panic!("no access token: {answer}")).to_owned()
}

impl Serve {
    fn call(&self, method: reqwest::Method, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
        let mut request =
            reqwest::blocking::Client::new().request(method, format!("{}{path}", self.base)).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = request.send().unwrap();
        (answer.status().as_u16(), answer.json().unwrap_or(Value::Null))
    }

    fn create(&self, token: &str, title: &str) -> (u16, Value) {
        self.call(
            reqwest::Method::POST,
            "/api/configurations",
            token,
            Some(json!({"config": {"title": title, "searchSpace": "demo"}})),
        )
    }
}

#[test]
fn tokens_of_the_real_provider_are_accepted_with_their_users_rights_and_after_key_rotation() {
    let options = ProviderOptions { audience: Some("search-studio".into()), ..ProviderOptions::default() };
    let provider = OidcProvider::start(options).expect("the provider starts (npm ci --prefix crates/testkit/servers)");
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path(), provider.issuer());

    let ana = access_token(&provider, "ana");
    let (status, created) = server.create(&ana, "Signed in");
    assert_eq!(status, 200, "{created}");
    let id = created["config"]["id"].as_i64().unwrap();
    let (status, logs) = server.call(reqwest::Method::GET, &format!("/api/configurations/{id}/logs"), &ana, None);
    assert_eq!((status, &logs["logs"][0]["user"]), (200, &json!("ana")), "{logs}");

    let bob = access_token(&provider, "bob");
    assert_eq!(server.call(reqwest::Method::GET, "/api/configurations", &bob, None).0, 200);
    let (status, refused) = server.create(&bob, "Not allowed");
    assert_eq!(status, 403, "{refused}");

    provider.rotate_keys();
    let rotated = access_token(&provider, "ana");
    assert_ne!(ana.split('.').next(), rotated.split('.').next(), "the new token names the new key");
    let (status, created) = server.create(&rotated, "After rotation");
    assert_eq!(status, 200, "{created}");

    drop(server);
    let log = std::fs::read_to_string(dir.path().join("serve.log")).unwrap();
    assert!(log.contains("OpenID Connect"), "the log says which provider's tokens are accepted");
    for token in [&ana, &bob, &rotated] {
        for part in token.split('.') {
            assert!(!log.contains(part), "a token's part reached the log");
        }
    }
}

#[test]
fn serve_stops_at_once_when_the_provider_cannot_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--auth"])
        .arg(write_auth_file(dir.path()))
        .args(["--oidc-issuer", "http://127.0.0.1:9/realms/gone", "--data-dir"])
        .arg(dir.path().join("data"))
        .env("RUST_LOG", "off")
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--oidc-issuer http://127.0.0.1:9/realms/gone"), "{stderr}");

    // The groups claim names groups of the auth file, so the flag needs one.
    let out = Command::new(STUDIO).args(["serve", "--oidc-issuer", "http://127.0.0.1:9/realms/gone"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--auth"));
}

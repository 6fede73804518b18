//! `studio serve --oidc-ui-client-id` in the real binary: `/api-docs` names the web UI's client and the
//! content security policy lets the page reach the issuer; the flag needs an issuer and an id. The same
//! through the router is tested in crates/server (`web_sign_in`).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use studio_testkit::designers_auth_file as write_auth_file;
use studio_testkit::http::{connect_src, origin_of};
use studio_testkit::provider;

use crate::support::STUDIO;

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_flag_names_the_client_in_api_docs_and_needs_an_issuer() {
    let provider = provider();
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--auth"])
        .arg(write_auth_file(dir.path()))
        .args(["--oidc-issuer", provider.issuer(), "--oidc-ui-client-id", "studio-web", "--data-dir"])
        .arg(dir.path().join("data"))
        .env("RUST_LOG", "off")
        .stdout(Stdio::piped())
        .spawn()
        .expect("studio starts");
    let first = BufReader::new(child.stdout.take().unwrap()).lines().next().map(|l| l.unwrap()).unwrap_or_default();
    let _serve = Serve(child);
    let base = first.strip_prefix("listening on ").unwrap_or_else(|| panic!("`{first}`"));
    let answer = reqwest::blocking::get(format!("{base}/api-docs")).unwrap();
    let csp = answer.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let docs: Value = answer.json().unwrap();
    assert_eq!(docs["components"]["securitySchemes"]["oidc"]["x-search-studio-client-id"], "studio-web");
    assert_eq!(connect_src(&csp), ["'self'".to_owned(), origin_of(provider.issuer())]);

    // The client belongs to the provider whose tokens are accepted, so the flag needs one; and an id.
    let out = Command::new(STUDIO).args(["serve", "--oidc-ui-client-id", "studio-web"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--oidc-issuer"), "{stderr}");
    let out = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--auth"])
        .arg(write_auth_file(dir.path()))
        .args(["--oidc-issuer", provider.issuer(), "--oidc-ui-client-id", " ", "--data-dir"])
        .arg(dir.path().join("data"))
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--oidc-ui-client-id"), "{stderr}");
}

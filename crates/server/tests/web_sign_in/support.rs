//! What the web sign-in tests of the router (crates/server) and of the real binary (crates/cli, which
//! includes this file by path) share: the real OpenID Connect provider, an auth file, and reading the
//! content security policy.

#![allow(dead_code)]

use serde_json::json;
use studio_testkit::{OidcProvider, ProviderOptions};

pub fn provider() -> OidcProvider {
    OidcProvider::start(ProviderOptions::default())
        .expect("the provider starts (npm ci --prefix crates/testkit/servers)")
}

/// `http://127.0.0.1:PORT` of an issuer `http://127.0.0.1:PORT/realms/studio`.
pub fn origin_of(issuer: &str) -> String {
    let after_scheme = issuer.find("://").map(|i| i + 3).unwrap();
    let end = issuer[after_scheme..].find('/').map_or(issuer.len(), |i| after_scheme + i);
    issuer[..end].to_owned()
}

pub fn write_auth_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("auth.json");
    let groups = json!({"users": [], "groups": [
        { "name": "designers", "operations": ["read", "write", "search"], "searchSpaces": ["*"] }
    ]});
    std::fs::write(&path, groups.to_string()).unwrap();
    path
}

/// What the page is allowed to connect to.
pub fn connect_src(csp: &str) -> Vec<String> {
    let directive = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("connect-src "))
        .unwrap_or_else(|| panic!("no connect-src: {csp}"));
    directive.split_whitespace().skip(1).map(str::to_owned).collect()
}

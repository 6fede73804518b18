//! The Keycloak-shaped OpenID Connect provider (`servers/oidc-provider.mjs`) and the browser stand-in
//! (`servers/browser.mjs`) that signs in through its login page.
//!
//! The realm is `studio`; its clients are `ppt` (confidential, secret `ppt-secret`),
//! `studio-pipeline` (confidential, secret `studio-pipeline-secret`, the client credentials grant only: its
//! tokens name the service account `service-account-studio-pipeline`, group `/pipelines`),
//! `studio-desktop` (public, PKCE required) and `studio-web` (the web UI's: public, PKCE required,
//! redirect URI `http://127.0.0.1:<any port>/signed-in`); its users are `ana` (group `/designers`),
//! `bob` (`/viewers`) and `cy` (no group), each with the password `<name>-password`. The other
//! clients' redirect URIs are `http://127.0.0.1:<any port>/callback`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::error::TestkitError;
use crate::process::{servers_dir, ServerProcess};

/// How a provider is started.
#[derive(Debug, Clone)]
pub struct ProviderOptions {
    /// Lifetime of access tokens (whole seconds, at least one).
    pub access_ttl: Duration,
    /// Lifetime of refresh tokens (whole seconds, at least one); each refresh starts a new one.
    pub refresh_ttl: Duration,
    /// The `aud` of access tokens; Keycloak's `account` when None.
    pub audience: Option<String>,
}

impl Default for ProviderOptions {
    /// Keycloak's defaults: 5 minutes for access tokens, 30 for refresh tokens.
    fn default() -> Self {
        ProviderOptions { access_ttl: Duration::from_secs(300), refresh_ttl: Duration::from_secs(1800), audience: None }
    }
}

/// A provider with Keycloak's defaults. Panics with the reason (its packages missing, Node missing, what it
/// wrote) when it cannot start, since the test cannot go on.
pub fn provider() -> OidcProvider {
    OidcProvider::start(ProviderOptions::default()).unwrap_or_else(|error| panic!("{error}"))
}

/// Writes `auth.json` into `dir` for a server that accepts this provider's tokens: no users of its own, and
/// the group `designers` (ana's) may read, write and search every search space. Answers the file's path;
/// panics when it cannot be written.
pub fn designers_auth_file(dir: &Path) -> PathBuf {
    let path = dir.join("auth.json");
    let groups = serde_json::json!({"users": [], "groups": [
        { "name": "designers", "operations": ["read", "write", "search"], "searchSpaces": ["*"] }
    ]});
    std::fs::write(&path, groups.to_string()).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    path
}

/// A running provider; killed when dropped.
pub struct OidcProvider {
    _process: ServerProcess,
    issuer: String,
    origin: String,
    http: reqwest::blocking::Client,
}

fn seconds(duration: Duration) -> String {
    duration.as_secs().max(1).to_string()
}

impl OidcProvider {
    /// Starts a provider on a free loopback port.
    pub fn start(options: ProviderOptions) -> Result<OidcProvider, TestkitError> {
        let modules = servers_dir().join("node_modules");
        if !modules.is_dir() {
            return Err(TestkitError::NotInstalled { dir: modules });
        }
        let mut args: Vec<OsString> = vec![
            "--port".into(),
            "0".into(),
            "--access-ttl".into(),
            seconds(options.access_ttl).into(),
            "--refresh-ttl".into(),
            seconds(options.refresh_ttl).into(),
        ];
        if let Some(audience) = options.audience {
            args.extend(["--audience".into(), audience.into()]);
        }
        let (process, announced) = ServerProcess::start("oidc-provider.mjs", &args)?;
        let issuer = announced["issuer"].as_str().unwrap_or_default().to_owned();
        let origin = issuer.split("/realms/").next().unwrap_or_default().to_owned();
        if !issuer.starts_with("http://127.0.0.1:") || !issuer.contains("/realms/") {
            return Err(TestkitError::NotStarted {
                script: "oidc-provider.mjs".into(),
                reason: format!("it announced {announced}, not an issuer"),
                output: String::new(),
            });
        }
        Ok(OidcProvider { _process: process, issuer, origin, http: reqwest::blocking::Client::new() })
    }

    /// `http://127.0.0.1:PORT/realms/studio`
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// `ISSUER/protocol/openid-connect/token`
    pub fn token_endpoint(&self) -> String {
        format!("{}/protocol/openid-connect/token", self.issuer)
    }

    /// Ends every session and refresh token: the next refresh fails with `invalid_grant`, as when a
    /// Keycloak session has ended. Panics if the provider does not do it (the test cannot go on).
    pub fn revoke_sessions(&self) {
        self.control("revoke-sessions");
    }

    /// Adds a signing key (a new `kid`) that signs every token from now on; the old key stays published.
    /// Panics if the provider does not do it (the test cannot go on).
    pub fn rotate_keys(&self) {
        self.control("rotate-keys");
    }

    fn control(&self, name: &str) {
        let url = format!("{}/test/{name}", self.origin);
        match self.http.post(&url).send() {
            Ok(answer) if answer.status().as_u16() == 204 => {}
            Ok(answer) => panic!("POST {url} answered {}", answer.status()),
            Err(error) => panic!("POST {url} failed: {error}"),
        }
    }

    /// The raw answer of the token endpoint to a client credentials grant (the secret sent in the form),
    /// whatever its status. Panics if the provider cannot be reached or answers something that is not JSON.
    pub fn client_credentials_grant(&self, client_id: &str, client_secret: &str) -> Value {
        self.token_request(&[
            ("grant_type", "client_credentials"),
            ("client_id", client_id),
            ("client_secret", client_secret),
        ])
    }

    /// The raw answer of the token endpoint to a password grant (client secret sent in the form when
    /// given), whatever its status: `{access_token, refresh_token, …}` or `{error, error_description}`.
    /// Panics if the provider cannot be reached or answers something that is not JSON.
    pub fn password_grant(&self, client_id: &str, client_secret: Option<&str>, user: &str, password: &str) -> Value {
        let mut form =
            vec![("grant_type", "password"), ("client_id", client_id), ("username", user), ("password", password)];
        if let Some(secret) = client_secret {
            form.push(("client_secret", secret));
        }
        self.token_request(&form)
    }

    fn token_request(&self, form: &[(&str, &str)]) -> Value {
        let url = self.token_endpoint();
        let answer =
            self.http.post(&url).form(form).send().unwrap_or_else(|error| panic!("POST {url} failed: {error}"));
        let status = answer.status();
        answer.json().unwrap_or_else(|error| panic!("POST {url} answered {status} without JSON: {error}"))
    }
}

/// Opens `authorize_url` in the browser stand-in and signs in as `user`: Ok once the browser has reached
/// the loopback redirect URI (whatever that answered), an error if sign-in failed or it got lost.
pub fn browser_sign_in(authorize_url: &str, user: &str, password: &str) -> Result<(), TestkitError> {
    let script = servers_dir().join("browser.mjs");
    let output = Command::new("node")
        .arg(&script)
        .arg(authorize_url)
        .args(["--username", user, "--password", password])
        .output()
        .map_err(|source| TestkitError::Spawn { script: "browser.mjs".into(), source })?;
    if output.status.success() {
        return Ok(());
    }
    Err(TestkitError::Browser {
        status: output.status.to_string(),
        output: format!("{}{}", String::from_utf8_lossy(&output.stderr), String::from_utf8_lossy(&output.stdout)),
    })
}

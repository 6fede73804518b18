//! A pipeline signing in without a person: `studio pull` and `studio serve --upstream` with the client
//! credentials grant of the real test provider (client `studio-pipeline`, whose service account is in the
//! group `/pipelines`), against a `studio serve` that takes the provider's tokens and gives that group write
//! rights in its auth file. Neither the secret nor a token ever shows on a terminal or in a log.

use std::fs::File;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use studio_testkit::{OidcProvider, ProviderOptions};

use crate::support::{client, serve_with, studio, Served, STUDIO};

pub(crate) const CLIENT: &str = "studio-pipeline";
pub(crate) const SECRET: &str = "studio-pipeline-secret";
const WRONG: &str = "an-old-secret-4c1d";
/// The client's HTTP Basic credentials, base64 of `studio-pipeline:studio-pipeline-secret`.
const BASIC: &str = "c3R1ZGlvLXBpcGVsaW5lOnN0dWRpby1waXBlbGluZS1zZWNyZXQ";

/// The test provider with access tokens of two seconds.
fn provider() -> OidcProvider {
    OidcProvider::start(ProviderOptions {
        access_ttl: Duration::from_secs(2),
        refresh_ttl: Duration::from_secs(120),
        audience: Some("search-studio".into()),
    })
    .expect("the test provider starts (npm ci --prefix crates/testkit/servers)")
}

/// A `studio serve` with the demo data that takes the provider's tokens for `search-studio` (see
/// [`pipelines_server`]).
fn server(issuer: &str) -> (tempfile::TempDir, Served) {
    let data = tempfile::tempdir().unwrap();
    studio(&["demo-data"], data.path());
    pipelines_server(data, issuer)
}

/// A `studio serve` over `data` that takes the provider's tokens for `search-studio`: the group `pipelines`
/// (the pipeline's service account) may read, write and search.
pub(crate) fn pipelines_server(data: tempfile::TempDir, issuer: &str) -> (tempfile::TempDir, Served) {
    let auth = data.path().join("auth.json");
    let groups = json!({"users": [], "groups": [
        {"name": "pipelines", "operations": ["read", "write", "search"], "searchSpaces": ["*"]}
    ]});
    std::fs::write(&auth, groups.to_string()).unwrap();
    let args = ["--auth", auth.to_str().unwrap(), "--oidc-issuer", issuer, "--oidc-audience", "search-studio"];
    let served = serve_with(data.path(), &args, &[], Stdio::null());
    (data, served)
}

/// What must never be shown: the secrets, the client's Basic credentials, and any JWT (every token of the
/// provider begins with the base64 of `{"`).
pub(crate) fn assert_no_secret(what: &str, text: &str) {
    for secret in [SECRET, WRONG, BASIC, "eyJ"] {
        assert!(!text.contains(secret), "{what} shows `{secret}`: {text}");
    }
}

/// `studio pull` of configuration 1 into `data_dir`, signed in as the pipeline's client (no user name or
/// password in its environment), with `envs` and `args`.
fn pull(server: &Served, issuer: &str, data_dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Output {
    Command::new(STUDIO)
        .args(["pull", "--from", &server.base, "--config", "1", "--issuer", issuer, "--client-id", CLIENT])
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("STUDIO_REMOTE_USERNAME")
        .env_remove("STUDIO_REMOTE_PASSWORD")
        .env_remove("STUDIO_REMOTE_CLIENT_SECRET")
        .envs(envs.iter().copied())
        .output()
        .unwrap()
}

fn shown(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn pull_signs_in_as_the_pipelines_client_from_a_variable_or_a_file_and_shows_no_secret() {
    let provider = provider();
    let (_data, inner) = server(provider.issuer());
    let secrets = tempfile::tempdir().unwrap();
    let secret_file = secrets.path().join("pipeline-secret");
    std::fs::write(&secret_file, format!("{SECRET}\n")).unwrap();

    for (how, args, envs) in [
        ("the variable", vec![], vec![("STUDIO_REMOTE_CLIENT_SECRET", SECRET)]),
        ("the file", vec!["--client-secret-file", secret_file.to_str().unwrap()], vec![]),
    ] {
        let local = tempfile::tempdir().unwrap();
        let out = pull(&inner, provider.issuer(), local.path(), &args, &envs);
        assert!(out.status.success(), "secret from {how}: {}", shown(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.starts_with("pulled 2400 documents into demo as configuration"), "{how}: {stdout}");
        assert_no_secret(how, &shown(&out));
    }
}

#[test]
fn a_refused_secret_stops_pull_naming_where_it_came_from_and_writes_nothing() {
    let provider = provider();
    let (_data, inner) = server(provider.issuer());
    let secrets = tempfile::tempdir().unwrap();
    let secret_file = secrets.path().join("pipeline-secret");
    std::fs::write(&secret_file, WRONG).unwrap();
    let file_source = format!("the file {}", secret_file.display());

    for (source, args, envs) in [
        ("STUDIO_REMOTE_CLIENT_SECRET", vec![], vec![("STUDIO_REMOTE_CLIENT_SECRET", WRONG)]),
        (file_source.as_str(), vec!["--client-secret-file", secret_file.to_str().unwrap()], vec![]),
    ] {
        let local = tempfile::tempdir().unwrap();
        let data_dir = local.path().join("data");
        let out = pull(&inner, provider.issuer(), &data_dir, &args, &envs);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(&format!("it refused client `{CLIENT}` with the secret from {source} (")), "{stderr}");
        assert!(stderr.contains("put the client's current secret there"), "{stderr}");
        assert!(!data_dir.exists(), "nothing is written locally: {source}");
        assert_no_secret(source, &shown(&out));
    }

    let local = tempfile::tempdir().unwrap();
    let out = pull(&inner, provider.issuer(), local.path(), &[], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "--issuer needs the user's credentials in STUDIO_REMOTE_USERNAME and STUDIO_REMOTE_PASSWORD (the password \
             grant), or only the client's secret in STUDIO_REMOTE_CLIENT_SECRET (the client credentials grant"
        ),
        "{}",
        shown(&out)
    );
}

fn call(served: &Served, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = client(30).request(method, format!("{}{path}", served.base)).bearer_auth(&served.token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let answer = request.send().unwrap();
    (answer.status().as_u16(), answer.json().unwrap_or(Value::Null))
}

#[test]
fn a_proxy_signed_in_as_a_pipeline_outlives_its_tokens_and_writes_as_the_service_account() {
    let provider = provider();
    let (_data, inner) = server(provider.issuer());
    let proxy_dir = tempfile::tempdir().unwrap();
    let log = proxy_dir.path().join("proxy.log");
    let args = [
        "--upstream",
        &inner.base,
        "--upstream-issuer",
        provider.issuer(),
        "--upstream-client-id",
        CLIENT,
        "--log-level",
        "trace",
    ];
    let envs = [("STUDIO_UPSTREAM_CLIENT_SECRET", SECRET)];
    let proxy = serve_with(&proxy_dir.path().join("data"), &args, &envs, Stdio::from(File::create(&log).unwrap()));

    // Longer than a token's life plus the server's leeway for clock skew: only renewed tokens get through.
    let until = Instant::now() + Duration::from_secs(9);
    let mut calls = 0;
    while Instant::now() < until {
        let (status, body) = call(&proxy, reqwest::Method::GET, "/api/configurations", None);
        assert_eq!(status, 200, "request {calls}: {body}");
        calls += 1;
        std::thread::sleep(Duration::from_millis(250));
    }
    let config = json!({"config": {"title": "Promoted by the pipeline", "searchSpace": "demo"}});
    let (status, created) = call(&proxy, reqwest::Method::POST, "/api/configurations", Some(config));
    assert!(status == 200 || status == 201, "the auth file's group gives the service account write rights: {created}");
    assert_eq!(created["config"]["user"], "service-account-studio-pipeline", "{created}");
    drop(proxy);
    assert_no_secret("the proxy's trace log", &std::fs::read_to_string(&log).unwrap());
}

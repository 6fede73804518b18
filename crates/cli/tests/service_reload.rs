//! `studio serve` as a service, continued: SIGHUP applies the settings of the configuration file that can
//! change while the server runs (and keeps them when the file is broken) without disturbing a request in
//! flight, and the metrics count what no request shows: token renewals towards an upstream's provider and
//! the reads of an OpenID provider's keys, failures included.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;
use studio_testkit::{designers_auth_file, OidcProvider, ProviderOptions};

use crate::service::{network_address, sample, scrape, stderr_lines, wait_line};
use crate::support::{client, kill, serve_command, serve_with, Served, STUDIO};

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn sighup_applies_the_settings_the_configuration_file_changed_and_keeps_them_when_it_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("serve.toml");
    write(&config, "log-level = \"info\"\n");
    let mut command = Command::new(STUDIO);
    command.args(["serve", "--listen", "0.0.0.0:0", "--config"]).arg(&config).arg("--data-dir").arg(dir.path());
    let mut server = serve_command(command.env_remove("RUST_LOG").stderr(Stdio::piped()));
    let lines = stderr_lines(&mut server);
    let port = server.base.rsplit(':').next().unwrap().to_owned();
    let ip = network_address();
    let metrics_from_network =
        || client(10).get(format!("http://{ip}:{port}/metrics")).send().unwrap().status().as_u16();
    assert_eq!(metrics_from_network(), 403);

    write(&config, &format!("log-level = \"debug\"\nlog-format = \"json\"\nmetrics-allow = [\"{ip}/32\"]\n"));
    kill(&server.child, "-HUP");
    let seen = wait_line(&lines, |line| line.contains("read the configuration file"));
    let applied = seen.last().unwrap();
    assert!(applied.contains("applied log-level, log-format, metrics-allow"), "{applied}");
    assert_eq!(metrics_from_network(), 200, "the network allowed at SIGHUP reads /metrics");
    // A probe's line is written at debug level only, and now as JSON.
    let healthz = client(10).get(format!("{}/healthz", server.base)).send().unwrap();
    let id = healthz.headers()["x-request-id"].to_str().unwrap().to_owned();
    let seen = wait_line(&lines, |line| line.contains(&id));
    let line: Value = serde_json::from_str(seen.last().unwrap()).expect("a JSON line");
    assert_eq!(line["level"], "DEBUG", "{line}");
    assert_eq!(line["operation"], "GET /healthz", "{line}");

    write(&config, "log-level = \"debug\"\nmetrics-allow = 12\n");
    kill(&server.child, "-HUP");
    let seen = wait_line(&lines, |line| line.contains("kept the running settings"));
    let why = seen.last().unwrap();
    assert!(why.contains("serve.toml") && why.contains("line 2") && why.contains("metrics-allow"), "{why}");
    assert_eq!(seen.iter().filter(|l| l.contains("SIGHUP")).count(), 1, "one line says why: {seen:?}");
    assert_eq!(metrics_from_network(), 200, "the running settings are kept");
    assert!(server.child.try_wait().unwrap().is_none(), "the server runs on");
}

/// An upstream server that holds each list request until the test releases it, then answers an empty
/// list. Says on `arrived` when a request is held.
fn held_upstream() -> (String, mpsc::Receiver<()>, mpsc::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (arrived_tx, arrived) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let body = if head.starts_with(b"GET /api/configurations ") {
                let _ = arrived_tx.send(());
                if released.recv_timeout(Duration::from_secs(60)).is_err() {
                    return;
                }
                r#"{"configurations": [], "activeId": null, "message": "held, then answered"}"#
            } else {
                r#"{"status": 404, "error": "Not Found", "message": "not here"}"#
            };
            let status = if body.contains("held") { "200 OK" } else { "404 Not Found" };
            let answer = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    (base, arrived, release)
}

#[test]
fn a_request_in_flight_during_sighup_is_answered_normally() {
    let (upstream, arrived, release) = held_upstream();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("serve.toml");
    let settings = format!("upstream = \"{upstream}\"\n");
    write(&config, &settings);
    let mut server = serve_with(
        dir.path(),
        &["--config", config.to_str().unwrap()],
        &[("STUDIO_UPSTREAM_TOKEN", "upstream-token")],
        Stdio::piped(),
    );
    let lines = stderr_lines(&mut server);
    let (url, token) = (format!("{}/api/configurations", server.base), server.token.clone());
    let (answered_tx, answered) = mpsc::channel();
    std::thread::spawn(move || {
        let answer = client(60).get(url).bearer_auth(token).send().unwrap();
        let _ = answered_tx.send((answer.status().as_u16(), answer.json::<Value>().unwrap_or(Value::Null)));
    });
    arrived.recv_timeout(Duration::from_secs(20)).expect("the request reaches the upstream");

    // The request's log lines began as text and end as JSON.
    write(&config, &format!("{settings}log-level = \"debug\"\nlog-format = \"json\"\n"));
    kill(&server.child, "-HUP");
    wait_line(&lines, |line| line.contains("applied log-level, log-format"));
    release.send(()).unwrap();
    let (status, body) = answered.recv_timeout(Duration::from_secs(30)).expect("the request is answered");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["configurations"], Value::Array(Vec::new()), "{body}");
}

/// A counter's value in a scrape of `served`'s /metrics (0 when it is absent).
fn counter(served: &Served, metric: &str) -> f64 {
    sample(&scrape(&format!("{}/metrics", served.base)), metric, &[]).unwrap_or(0.0)
}

/// A JWT shaped token whose header names a key id no provider published:
/// `{"alg":"RS256","kid":"made-up-key","typ":"JWT"}`, `{"sub":"nobody"}`, a made-up signature.
const MADE_UP_KEY_TOKEN: &str =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6Im1hZGUtdXAta2V5IiwidHlwIjoiSldUIn0.eyJzdWIiOiJub2JvZHkifQ.c2lnbmF0dXJl";

#[test]
fn metrics_count_token_renewals_towards_an_upstream_and_the_providers_key_reads_with_their_failures() {
    let provider = OidcProvider::start(ProviderOptions {
        access_ttl: Duration::from_secs(2),
        refresh_ttl: Duration::from_secs(120),
        audience: None,
    })
    .expect("the test provider starts (npm ci --prefix crates/testkit/servers)");
    let inner_dir = tempfile::tempdir().unwrap();
    let auth = designers_auth_file(inner_dir.path());
    let inner = serve_with(
        &inner_dir.path().join("data"),
        &["--auth", auth.to_str().unwrap(), "--oidc-issuer", provider.issuer()],
        &[],
        Stdio::null(),
    );
    let proxy_dir = tempfile::tempdir().unwrap();
    let proxy = serve_with(
        proxy_dir.path(),
        &["--upstream", &inner.base, "--upstream-issuer", provider.issuer()],
        &[
            ("STUDIO_UPSTREAM_USERNAME", "ana"),
            ("STUDIO_UPSTREAM_PASSWORD", "ana-password"),
            ("STUDIO_UPSTREAM_CLIENT_SECRET", "ppt-secret"),
        ],
        Stdio::null(),
    );
    assert_eq!(counter(&proxy, "studio_upstream_token_renewals_total"), 1.0, "the first sign-in");
    assert_eq!(counter(&inner, "studio_jwks_reads_total"), 1.0, "the keys read at start");
    assert_eq!(counter(&inner, "studio_jwks_read_failures_total"), 0.0);

    // Longer than two tokens' lives: the proxy renews its token and the requests get through.
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        assert_eq!(proxy.get("/api/configurations").0, 200);
        std::thread::sleep(Duration::from_millis(250));
    }
    assert!(counter(&proxy, "studio_upstream_token_renewals_total") >= 2.0, "the renewals are counted");
    assert_eq!(counter(&proxy, "studio_upstream_token_renewal_failures_total"), 0.0);

    // The provider is gone: the inner server's read of its keys for an unknown key id fails, and so does
    // the proxy's next renewal.
    drop(provider);
    let answer = client(10).get(format!("{}/api/configurations", inner.base)).bearer_auth(MADE_UP_KEY_TOKEN).send();
    assert_eq!(answer.unwrap().status().as_u16(), 401);
    assert_eq!(counter(&inner, "studio_jwks_reads_total"), 2.0, "the read for the unknown key id");
    assert_eq!(counter(&inner, "studio_jwks_read_failures_total"), 1.0);
    let deadline = Instant::now() + Duration::from_secs(20);
    while proxy.get("/api/configurations").0 == 200 {
        assert!(Instant::now() < deadline, "the proxy still answered 200 20 s after its provider went away");
        std::thread::sleep(Duration::from_millis(250));
    }
    assert!(counter(&proxy, "studio_upstream_token_renewal_failures_total") >= 1.0, "the failed renewal is counted");
}

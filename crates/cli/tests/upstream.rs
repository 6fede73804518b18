//! `studio serve --upstream` in front of a misbehaving server (studio_testkit::http's): the status rules of
//! docs/api.md, In front of another server (502 unreachable or not the API, 504 timeout, the upstream's own
//! 4xx passed through), a healthy proxy throughout, and recovery when the upstream comes back.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

use crate::remote_support::{api_error, cut_short, free_port, json, response, FakeServer, Reply, Seen};

const STUDIO: &str = env!("CARGO_BIN_EXE_studio");
const UPSTREAM_TOKEN: &str = "upstream-s3cret";

struct Proxy {
    child: Child,
    base: String,
    token: String,
    client: reqwest::Client,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `studio serve --upstream URL` with a 0.3 s upstream timeout.
fn proxy(upstream: &str) -> Proxy {
    let data = tempfile::tempdir().unwrap();
    let mut child = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--upstream", upstream, "--upstream-timeout", "0.3", "--data-dir"])
        .arg(data.path())
        .env("STUDIO_UPSTREAM_TOKEN", UPSTREAM_TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("studio starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let token = lines.next().unwrap().unwrap().strip_prefix("token: ").expect("token line").to_owned();
    let base = lines.next().unwrap().unwrap().strip_prefix("listening on ").expect("address line").to_owned();
    Proxy { child, base, token, client: reqwest::Client::new() }
}

impl Proxy {
    async fn call(&self, method: &str, path: &str) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let r =
            self.client.request(method, format!("{}{path}", self.base)).bearer_auth(&self.token).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// The proxy still answers its health check and a request the upstream answers well.
    async fn assert_healthy(&self) {
        let health = self.client.get(format!("{}/healthz", self.base)).send().await.unwrap();
        assert_eq!(health.status().as_u16(), 200);
        let (status, body) = self.call("GET", "/api/configurations").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["configurations"][0]["config"]["title"], "Good");
    }
}

fn good_list() -> Reply {
    json(
        200,
        json!({"configurations": [{"id": 1, "user": "u", "created": null, "config": {"title": "Good"}}], "activeId": 1}),
    )
}

/// A fake upstream that misbehaves per configuration id in the path and answers the list well.
fn misbehaving(_: usize, seen: &Seen) -> Reply {
    let path = seen.line.split_whitespace().nth(1).unwrap_or_default().to_owned();
    match path.as_str() {
        "/api/configurations" => good_list(),
        "/api/configurations/1" => response(200, "text/html", "<html><body>Welcome to nginx</body></html>", &[]),
        "/api/configurations/2" => json(200, json!({"configuration": "not an object"})),
        "/api/configurations/3" => api_error(500, "NullPointerException"),
        "/api/configurations/4" => response(500, "", "", &[]),
        "/api/configurations/5" => Reply::Stall,
        "/api/configurations/6" => cut_short(4000),
        "/api/configurations/7" => api_error(404, "configuration 7 does not exist"),
        "/api/configurations/8" => api_error(401, "token expired"),
        "/api/configurations/9" => api_error(403, "group readers may not read 9"),
        "/api/configurations/10" => api_error(405, "no DELETE here"),
        "/api/configurations/11" => api_error(409, "configuration 11 is the active one"),
        "/api/configurations/12" => api_error(413, "too large"),
        _ => api_error(400, "bad request"),
    }
}

#[tokio::test]
async fn the_proxy_answers_502_504_and_passes_4xx_through_and_stays_healthy() {
    let upstream = FakeServer::start(misbehaving).await;
    let proxy = proxy(&upstream.base);
    proxy.assert_healthy().await;
    let cases: [(&str, &str, u16, &str); 12] = [
        ("GET", "/api/configurations/1", 502, "is not the Search Studio API (HTTP 200"),
        ("GET", "/api/configurations/2", 502, "field `configuration` has the wrong shape"),
        ("GET", "/api/configurations/3", 502, "failed to answer (500): NullPointerException"),
        ("GET", "/api/configurations/4", 502, "failed to answer (500): its answer had no body"),
        ("GET", "/api/configurations/5", 504, "did not answer within 0.3 s"),
        ("GET", "/api/configurations/6", 502, "broke before its answer was complete"),
        ("GET", "/api/configurations/7", 404, "configuration 7 does not exist"),
        ("GET", "/api/configurations/8", 401, "rejected the access token (401): token expired"),
        ("GET", "/api/configurations/9", 403, "does not allow this (403): group readers may not read 9"),
        ("DELETE", "/api/configurations/10", 405, "refused the request (405): no DELETE here"),
        ("DELETE", "/api/configurations/11", 409, "configuration 11 is the active one"),
        ("PUT", "/api/configurations/12", 413, "refused the request (413): too large"),
    ];
    for (method, path, status, message) in cases {
        let mut request =
            proxy.client.request(method.parse().unwrap(), format!("{}{path}", proxy.base)).bearer_auth(&proxy.token);
        if method == "PUT" {
            request = request.json(&json!({"config": {"title": "x"}}));
        }
        let answer = request.send().await.unwrap();
        assert_eq!(answer.status().as_u16(), status, "{method} {path}");
        let body: Value = answer.json().await.unwrap();
        assert_eq!(body["status"], status, "{body}");
        let text = body["message"].as_str().unwrap();
        assert!(text.contains(message), "{method} {path}: {text}");
        proxy.assert_healthy().await;
    }
    let seen = upstream.seen();
    assert!(seen.iter().all(|s| s.header("authorization").as_deref() == Some(&format!("Bearer {UPSTREAM_TOKEN}"))));
    assert!(seen.iter().all(|s| s.header("accept").as_deref() == Some("application/json")));
}

#[tokio::test]
async fn the_proxy_recovers_by_itself_when_the_upstream_comes_back() {
    let port = free_port();
    let proxy = proxy(&format!("http://127.0.0.1:{port}"));
    let (status, body) = proxy.call("GET", "/api/configurations").await;
    assert_eq!(status, 502, "{body}");
    assert!(body["message"].as_str().unwrap().starts_with(&format!("cannot reach http://127.0.0.1:{port}")), "{body}");
    let health = proxy.client.get(format!("{}/healthz", proxy.base)).send().await.unwrap();
    assert_eq!(health.status().as_u16(), 200);

    let upstream =
        FakeServer::start_on(port, |n, _| if n == 0 { api_error(503, "starting") } else { good_list() }).await;
    proxy.assert_healthy().await;
    assert_eq!(upstream.hits(), 2, "the 503 of a starting upstream was retried");
}

#[test]
fn a_bad_upstream_address_fails_with_one_line_and_the_timeout_needs_an_upstream() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--upstream", "ftp://example.org"])
        .env("SEARCH_STUDIO_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: --upstream: `ftp://example.org` is not a usable server address"), "{stderr}");
    let out = Command::new(STUDIO)
        .args(["serve", "--upstream", "http://127.0.0.1:1", "--upstream-timeout", "0"])
        .env("SEARCH_STUDIO_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--upstream-timeout 0: give a positive number of seconds"));
    let out = Command::new(STUDIO)
        .args(["serve", "--upstream-timeout", "3"])
        .env("SEARCH_STUDIO_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "--upstream-timeout without --upstream is a usage error");
}

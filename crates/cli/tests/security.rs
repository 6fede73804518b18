//! The promises of docs/security.md, each tested against the real `studio` binary on loopback: tokens
//! never reach the logs or the disk, no CORS header is ever sent, slow or oversized request heads and slow
//! bodies are cut off, and the commands write nothing outside the data directory and the file named.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{client, serve, serve_with, studio, STUDIO};

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn tokens_never_reach_the_logs_or_the_disk_even_at_trace_level() {
    let dir = tempfile::tempdir().unwrap();
    let (data, proxy_data) = (dir.path().join("data"), dir.path().join("proxy-data"));
    let (log, proxy_log) = (dir.path().join("serve.log"), dir.path().join("proxy.log"));
    let trace = [("RUST_LOG", "trace")];
    let upstream = serve_with(&data, &[], &trace, Stdio::from(std::fs::File::create(&log).unwrap()));
    let proxy = serve_with(
        &proxy_data,
        &["--upstream", &upstream.base],
        &[("RUST_LOG", "trace"), ("STUDIO_UPSTREAM_TOKEN", upstream.token.as_str())],
        Stdio::from(std::fs::File::create(&proxy_log).unwrap()),
    );
    let wrong = "wrong-token-5f0c1a9e7d3b";
    let http = client(30);
    for server in [&upstream, &proxy] {
        let created = http
            .post(format!("{}/api/configurations", server.base))
            .bearer_auth(&server.token)
            .json(&json!({"config": {"title": "Secret keeping", "searchSpace": "demo"}}))
            .send()
            .unwrap();
        assert_eq!(created.status(), 200);
        let id = created.json::<Value>().unwrap()["config"]["id"].as_i64().unwrap();
        for path in ["/api/configurations".to_owned(), format!("/api/configurations/{id}/logs"), "/api/nothing".into()]
        {
            http.get(format!("{}{path}", server.base)).bearer_auth(&server.token).send().unwrap();
        }
        let search = http
            .post(format!("{}/api/configurations/{id}/search", server.base))
            .bearer_auth(&server.token)
            .json(&json!({}));
        assert_eq!(search.send().unwrap().status(), 200);
        let refused = http.get(format!("{}/api/configurations", server.base)).bearer_auth(wrong).send().unwrap();
        assert_eq!(refused.status(), 401);
        let odd = http
            .get(format!("{}/api/configurations", server.base))
            .header("authorization", format!("Basic {wrong}"))
            .send();
        assert_eq!(odd.unwrap().status(), 401);
    }
    let secrets = [upstream.token.clone(), proxy.token.clone(), wrong.to_owned()];
    let digests: Vec<String> = secrets.iter().map(|t| studio_server::token_digest(t)).collect();
    drop(proxy);
    drop(upstream);
    for (name, path) in [("serve", &log), ("proxy", &proxy_log)] {
        let text = std::fs::read(path).unwrap();
        assert!(contains(&text, "/api/configurations"), "{name}: the trace log should show the requests it served");
        for secret in secrets.iter().chain(&digests) {
            assert!(!contains(&text, secret), "{name}'s log holds a token or its digest");
        }
    }
    for file in files_under(&data).iter().chain(&files_under(&proxy_data)) {
        let bytes = std::fs::read(file).unwrap();
        for secret in &secrets {
            assert!(!contains(&bytes, secret), "{} holds a token", file.display());
        }
    }
}

#[test]
fn no_answer_carries_a_cors_header_not_even_a_preflight() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(&dir.path().join("data"));
    let http = client(30);
    let origin = "https://evil.example";
    let answers = [
        http.request(reqwest::Method::OPTIONS, format!("{}/api/configurations", server.base))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "authorization, content-type")
            .send(),
        http.request(reqwest::Method::OPTIONS, format!("{}/api/configurations/1/search", server.base))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .send(),
        http.get(format!("{}/api/configurations", server.base))
            .header("origin", origin)
            .bearer_auth(&server.token)
            .send(),
        http.get(format!("{}/api/configurations", server.base)).header("origin", origin).send(),
        http.get(format!("{}/healthz", server.base)).header("origin", origin).send(),
        http.get(format!("{}/api-docs", server.base)).header("origin", origin).send(),
        http.get(format!("{}/", server.base)).header("origin", origin).send(),
    ];
    for answer in answers {
        let answer = answer.unwrap();
        let cors: Vec<_> = answer.headers().keys().filter(|k| k.as_str().starts_with("access-control-")).collect();
        assert!(cors.is_empty(), "{} answered with CORS headers {cors:?}", answer.url());
        let csp = answer.headers().get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"), "{}: {csp}", answer.url());
    }
}

/// Sends `head` on a fresh connection, then waits for the server to close it; returns what it sent back
/// and how long the close took, or `None` when it kept the connection open for `patience`.
fn closed_within(base: &str, head: &[u8], patience: Duration) -> Option<(String, Duration)> {
    let mut stream = TcpStream::connect(base.trim_start_matches("http://")).unwrap();
    stream.set_read_timeout(Some(patience)).unwrap();
    let started = Instant::now();
    stream.write_all(head).unwrap();
    let mut answer = Vec::new();
    match stream.read_to_end(&mut answer) {
        Ok(_) => Some((String::from_utf8_lossy(&answer).into_owned(), started.elapsed())),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => Some((String::new(), started.elapsed())),
        Err(_) => None,
    }
}

#[test]
fn slow_request_heads_and_bodies_are_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--header-timeout", "1", "--request-timeout", "2"];
    let server = serve_with(&dir.path().join("data"), &args, &[], Stdio::null());
    // Slowloris: half a request head, then nothing. The server closes the connection.
    let half = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ";
    let (_, took) = closed_within(&server.base, half, Duration::from_secs(20)).expect("a half-sent head is cut off");
    assert!(took >= Duration::from_millis(900), "closed after the header timeout, not at once ({took:?})");
    // A connection that never sends anything is closed too.
    assert!(closed_within(&server.base, b"", Duration::from_secs(20)).is_some(), "an idle connection is closed");

    // A body that never arrives: the request is answered 408 with the error body.
    let head = format!(
        "POST /api/configurations HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"config\":",
        server.token
    );
    let (answer, _) =
        closed_within(&server.base, head.as_bytes(), Duration::from_secs(20)).expect("a stalled body is cut off");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"status\":408"), "the 408 has the error body: {answer}");

    // The server still answers others.
    assert_eq!(client(10).get(format!("{}/healthz", server.base)).send().unwrap().status(), 200);
}

#[test]
fn oversized_heads_and_bodies_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(&dir.path().join("data"));
    let http = client(30);
    let big_header = "x".repeat(40 * 1024);
    let answer = http.get(format!("{}/healthz", server.base)).header("x-big", &big_header).send().unwrap();
    assert_eq!(answer.status(), 431);
    assert_eq!(answer.json::<Value>().unwrap()["status"], 431, "the 431 has the error body");
    // Far larger heads are cut off by hyper while reading, before they are held whole.
    let huge = "x".repeat(1024 * 1024);
    if let Ok(answer) = http.get(format!("{}/healthz", server.base)).header("x-huge", &huge).send() {
        assert_eq!(answer.status(), 431);
    }
    let fine = http.get(format!("{}/healthz", server.base)).header("x-fine", "y".repeat(8 * 1024)).send().unwrap();
    assert_eq!(fine.status(), 200, "an 8 KiB header is fine");
    let body = json!({"config": {"title": "big", "searchSpace": "demo", "pad": "z".repeat(1024 * 1024)}});
    let too_big =
        http.post(format!("{}/api/configurations", server.base)).bearer_auth(&server.token).json(&body).send().unwrap();
    assert_eq!(too_big.status(), 413);
    assert_eq!(too_big.json::<Value>().unwrap()["status"], 413);
}

#[test]
fn commands_write_only_into_the_data_directory_and_the_file_named() {
    let dir = tempfile::tempdir().unwrap();
    let (home, cwd, data) = (dir.path().join("home"), dir.path().join("cwd"), dir.path().join("data"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(STUDIO)
            .args(args)
            .arg("--data-dir")
            .arg(&data)
            .current_dir(&cwd)
            .env("HOME", &home)
            .env_remove("XDG_DATA_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "studio {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    run(&["demo-data"]);
    let exported = dir.path().join("out").join("shop.json");
    std::fs::create_dir_all(exported.parent().unwrap()).unwrap();
    run(&["export-config", "1", exported.to_str().unwrap()]);
    run(&["export-config", "1"]);
    run(&["import-config", exported.to_str().unwrap()]);
    run(&["bench", "--docs", "200", "--json"]);
    assert!(files_under(&home).is_empty(), "nothing is written to the home directory: {:?}", files_under(&home));
    assert!(files_under(&cwd).is_empty(), "nothing is written to the working directory: {:?}", files_under(&cwd));
    assert_eq!(files_under(exported.parent().unwrap()), vec![exported.clone()]);
    let leftovers: Vec<_> = std::fs::read_dir(&data).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(
        leftovers.iter().all(|n| {
            let name = n.to_string_lossy();
            [studio_local::DB_FILE, studio_local::DOCUMENTS_FILE, studio_local::TEXT_FILE, studio_local::TEXT_DIR]
                .iter()
                .any(|file| name.starts_with(file))
        }),
        "the data directory holds only the store (the bench's scratch directory is gone): {leftovers:?}"
    );
    let text: Value = serde_json::from_str(&std::fs::read_to_string(&exported).unwrap()).unwrap();
    assert_eq!(text["id"], 1);
    let _ = studio(&["export-config", "1"], &data);
}

#[test]
fn the_desktop_window_runs_under_a_strict_content_security_policy() {
    let conf: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tauri.conf.json")).unwrap(),
    )
    .unwrap();
    let app = &conf["app"];
    assert_eq!(app["withGlobalTauri"], false, "no global Tauri object for injected scripts to find");
    let csp = app["security"]["csp"].as_object().expect("a CSP is set, as directives");
    let directive = |name: &str| csp.get(name).and_then(Value::as_str).unwrap_or_else(|| panic!("{name} is set"));
    assert_eq!(directive("default-src"), "'self'");
    assert_eq!(directive("script-src"), "'self'", "only the app's own scripts: no inline, eval or remote script");
    assert_eq!(directive("object-src"), "'none'");
    assert_eq!(directive("base-uri"), "'none'");
    assert_eq!(directive("frame-ancestors"), "'none'");
    for (name, value) in csp {
        let value = value.as_str().unwrap_or_default();
        assert!(!value.split_whitespace().any(|s| s == "*" || s == "'unsafe-eval'"), "{name}: {value}");
        if name != "style-src" {
            assert!(!value.contains("'unsafe-inline'"), "{name}: {value}");
        }
    }
    assert!(
        !directive("connect-src").split_whitespace().any(|s| s == "https:" || s == "http:"),
        "the window talks only to IPC"
    );
    assert!(conf["app"]["security"]["dangerousDisableAssetCspModification"].is_null());
    let caps: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../src-tauri/capabilities/default.json"))
            .unwrap(),
    )
    .unwrap();
    for permission in caps["permissions"].as_array().unwrap() {
        let p = permission.as_str().unwrap_or_default();
        assert!(!p.ends_with(":default") && !p.starts_with("shell:") && !p.starts_with("fs:"), "broad permission {p}");
    }
    assert!(caps["remote"].is_null(), "no remote origin may call the app's commands");
}

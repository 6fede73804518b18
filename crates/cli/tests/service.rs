//! `studio serve` as a service manager runs it, through the real binary on loopback: the configuration
//! file and its order of precedence, /metrics, JSON logs with request ids, and SIGHUP (the notify protocol and
//! /readyz while the store is being opened: service_notify.rs).

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::remote_support::free_port;
use crate::support::{client, kill, serve_command, serve_with, Served, STUDIO};

/// The first line of stderr of a `studio serve` that stops by itself.
fn refused(args: &[&str], envs: &[(&str, &str)]) -> String {
    let out = Command::new(STUDIO).arg("serve").args(args).envs(envs.iter().copied()).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    stderr
}

#[test]
fn the_configuration_file_counts_for_less_than_variables_and_flags_and_a_bad_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let taken_addr = taken.local_addr().unwrap().to_string();
    let config = dir.path().join("serve.toml");
    let data = dir.path().join("from-file");
    std::fs::write(
        &config,
        format!("listen = \"{taken_addr}\"\ndata-dir = \"{}\"\nlog-format = \"json\"\n", data.display()),
    )
    .unwrap();
    let config_arg = config.to_str().unwrap();

    // The file alone: its address (taken) is used, and named when it cannot be listened on.
    let stderr = refused(&["--config", config_arg], &[]);
    assert!(stderr.contains(&taken_addr), "{stderr}");

    // A variable wins over the file; the file's data directory is used.
    let mut command = Command::new(STUDIO);
    command.args(["serve", "--config", config_arg]).env("STUDIO_LISTEN", "127.0.0.1:0");
    let server = serve_command(command.env_remove("SEARCH_STUDIO_DATA_DIR").stderr(Stdio::null()));
    assert_ne!(server.base, format!("http://{taken_addr}"));
    assert_eq!(server.get("/readyz").0, 200);
    drop(server);
    assert!(data.join("studio.db").exists(), "the file's data-dir is used");

    // A flag wins over the variable.
    let port = free_port();
    let flag = format!("127.0.0.1:{port}");
    let mut command = Command::new(STUDIO);
    command.args(["serve", "--config", config_arg, "--listen", &flag]).env("STUDIO_LISTEN", &taken_addr);
    let server = serve_command(command.stderr(Stdio::null()));
    assert_eq!(server.base, format!("http://{flag}"));
    drop(server);

    // A bad value: one line naming the file, the line and the key.
    std::fs::write(&config, "listen = \"127.0.0.1:0\"\nheader-timeout = \"soon\"\n").unwrap();
    let stderr = refused(&["--config", config_arg], &[]);
    assert!(stderr.contains(config_arg) && stderr.contains("line 2") && stderr.contains("header-timeout"), "{stderr}");
    // An unknown key is named, not ignored.
    std::fs::write(&config, "listen = \"127.0.0.1:0\"\n\nlisten-address = \"0.0.0.0:80\"\n").unwrap();
    let stderr = refused(&["--config", config_arg], &[]);
    assert!(
        stderr.contains("line 3") && stderr.contains("listen-address") && stderr.contains("no such setting"),
        "{stderr}"
    );
    // A missing file is named.
    let stderr = refused(&["--config", "/no/such/serve.toml"], &[]);
    assert!(stderr.contains("/no/such/serve.toml"), "{stderr}");

    let help = Command::new(STUDIO).args(["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("A flag wins over its variable, a variable over the file"), "{help}");
    assert!(help.contains("STUDIO_LISTEN"), "{help}");
}

#[test]
fn a_secret_comes_from_the_file_a_setting_names() {
    // The upstream is a second studio serve whose token the proxy reads from a file.
    let dir = tempfile::tempdir().unwrap();
    let upstream = serve_with(&dir.path().join("upstream"), &[], &[], Stdio::null());
    let secret = dir.path().join("upstream-token");
    std::fs::write(&secret, format!("{}\n", upstream.token)).unwrap();
    let config = dir.path().join("serve.toml");
    std::fs::write(
        &config,
        format!("upstream = \"{}\"\nupstream-token-file = \"{}\"\n", upstream.base, secret.display()),
    )
    .unwrap();
    let proxy = serve_with(
        &dir.path().join("proxy"),
        &["--config", config.to_str().unwrap()],
        &[("STUDIO_UPSTREAM_TOKEN", "")],
        Stdio::null(),
    );
    let (status, list) = proxy.get("/api/configurations");
    assert_eq!(status, 200, "the upstream took the token of the file: {list}");
}

/// Reads a server's stderr lines as they come.
pub(crate) fn stderr_lines(served: &mut Served) -> mpsc::Receiver<String> {
    let stderr = served.child.stderr.take().expect("stderr is piped");
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                return;
            }
        }
    });
    lines
}

/// Waits (up to 20 s) for a line that `wanted` accepts, returning every line up to it.
pub(crate) fn wait_line(lines: &mpsc::Receiver<String>, wanted: impl Fn(&str) -> bool) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                let done = wanted(&line);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(_) => panic!("the line did not come within 20 s; saw {seen:?}"),
        }
    }
}

#[test]
fn json_log_lines_name_each_request_by_the_id_its_answer_carries_and_never_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = serve_with(dir.path(), &["--log-format", "json"], &[], Stdio::piped());
    let lines = stderr_lines(&mut server);
    let http = server.client();
    let given = http
        .get(format!("{}/api/configurations", server.base))
        .bearer_auth(&server.token)
        .header("X-Request-Id", "trace-42")
        .send()
        .unwrap();
    assert_eq!(given.status().as_u16(), 200);
    assert_eq!(given.headers()["x-request-id"], "trace-42", "the caller's id is kept");
    let wrong_token = "not-the-token-5f1e";
    let made = http.get(format!("{}/api/configurations/1", server.base)).bearer_auth(wrong_token).send().unwrap();
    assert_eq!(made.status().as_u16(), 401);
    let made_id = made.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert!(made_id.len() >= 16, "an id is made: {made_id}");

    let seen = wait_line(&lines, |line| line.contains(&made_id));
    let parsed: Vec<Value> =
        seen.iter().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect();
    for line in &parsed {
        for key in ["timestamp", "level", "message"] {
            assert!(line.get(key).is_some(), "{key} in {line}");
        }
    }
    let answered = |id: &str| {
        parsed.iter().find(|l| l["span"]["request_id"] == id && l["message"] == "answered").cloned().unwrap()
    };
    let first = answered("trace-42");
    assert_eq!(first["operation"], "GET /api/configurations");
    assert_eq!(first["status"], 200);
    assert!(first["duration_ms"].as_f64().is_some(), "{first}");
    let second = answered(&made_id);
    assert_eq!(second["operation"], "GET /api/configurations/{configId}");
    assert_eq!(second["status"], 401);
    for line in &seen {
        assert!(!line.contains(&server.token) && !line.contains(wrong_token), "a token in a log line: {line}");
    }
}

pub(crate) fn auth_file(path: &Path, users: &[(&str, &str)]) {
    let users: Vec<Value> = users
        .iter()
        .map(
            |(name, token)| json!({"name": name, "tokenSha256": studio_server::token_digest(token), "groups": ["all"]}),
        )
        .collect();
    let file = json!({"users": users,
        "groups": [{"name": "all", "operations": ["read", "write", "search"], "searchSpaces": ["*"]}]});
    std::fs::write(path, file.to_string()).unwrap();
}

#[test]
fn sighup_reads_the_auth_file_again_and_keeps_the_running_users_when_it_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    let auth = dir.path().join("auth.json");
    auth_file(&auth, &[("ana", "ana-token")]);
    let mut server = serve_with(&dir.path().join("data"), &["--auth", auth.to_str().unwrap()], &[], Stdio::piped());
    let lines = stderr_lines(&mut server);
    let status_with = |token: &str| {
        server.client().get(format!("{}/api/configurations", server.base)).bearer_auth(token).send().unwrap().status()
    };
    assert_eq!(status_with("ana-token").as_u16(), 200);
    assert_eq!(status_with("bo-token").as_u16(), 401);

    auth_file(&auth, &[("ana", "ana-token"), ("bo", "bo-token")]);
    kill(&server.child, "-HUP");
    wait_line(&lines, |line| line.contains("read the auth file"));
    assert_eq!(status_with("bo-token").as_u16(), 200, "the new user's token works without a restart");
    assert_eq!(status_with("ana-token").as_u16(), 200);

    std::fs::write(&auth, "{ \"users\": [ broken").unwrap();
    kill(&server.child, "-HUP");
    let seen = wait_line(&lines, |line| line.contains("kept the users in force"));
    let why = seen.last().unwrap();
    assert!(why.contains("auth.json"), "the line names the file: {why}");
    assert_eq!(status_with("bo-token").as_u16(), 200, "the running users are kept");
    assert!(server.child.try_wait().unwrap().is_none(), "the server runs on");
}

/// This machine's address on its network (not loopback), as a peer of a server listening on all addresses
/// sees it.
pub(crate) fn network_address() -> std::net::IpAddr {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").unwrap();
    socket.connect("192.0.2.1:9").expect("a network route, for a non-loopback address");
    let ip = socket.local_addr().unwrap().ip();
    assert!(!ip.is_loopback() && !ip.is_unspecified(), "this machine has no network address: {ip}");
    ip
}

/// A scrape of /metrics, parsed by a Prometheus text parser.
pub(crate) fn scrape(url: &str) -> prometheus_parse::Scrape {
    let text = client(10).get(url).send().unwrap().text().unwrap();
    prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).expect("the Prometheus text format")
}

pub(crate) fn sample(scrape: &prometheus_parse::Scrape, metric: &str, labels: &[(&str, &str)]) -> Option<f64> {
    scrape
        .samples
        .iter()
        .find(|s| s.metric == metric && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .and_then(|s| match s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => Some(v),
            _ => None,
        })
}

#[test]
fn metrics_count_requests_and_the_store_and_answer_only_loopback_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve_with(&dir.path().join("data"), &[], &[], Stdio::null());
    let metrics = format!("{}/metrics", server.base);
    let listed = |scrape: &prometheus_parse::Scrape| {
        sample(scrape, "studio_http_requests_total", &[("operation", "GET /api/configurations"), ("status", "200")])
            .unwrap_or(0.0)
    };
    let before = scrape(&metrics);
    for title in ["one", "two"] {
        let (status, _) =
            server.post("/api/configurations", &json!({"config": {"title": title, "searchSpace": "demo"}}));
        assert_eq!(status, 200);
    }
    for _ in 0..3 {
        assert_eq!(server.get("/api/configurations").0, 200);
    }
    let after = scrape(&metrics);
    assert_eq!(listed(&after) - listed(&before), 3.0, "the three lists are counted");
    assert_eq!(sample(&after, "studio_configurations", &[("search_space", "demo")]), Some(2.0));
    let histogram = after.samples.iter().find(|s| {
        s.metric == "studio_http_request_duration_seconds"
            && s.labels.get("operation") == Some("POST /api/configurations")
    });
    assert!(histogram.is_some(), "a latency histogram of the saves");
    assert!(sample(&after, "studio_store_file_bytes", &[("file", "studio.db")]).unwrap_or(0.0) > 0.0);
    drop(server);

    // Reached from the network: refused, unless its network is allowed.
    let ip = network_address();
    for (allow, expected) in [(None, 403), (Some(format!("{ip}/32")), 200)] {
        let mut command = Command::new(STUDIO);
        command.args(["serve", "--listen", "0.0.0.0:0", "--data-dir"]).arg(dir.path().join("data"));
        if let Some(allow) = &allow {
            command.args(["--metrics-allow", allow]);
        }
        let server = serve_command(command.stderr(Stdio::null()));
        let port = server.base.rsplit(':').next().unwrap();
        let answer = client(10).get(format!("http://{ip}:{port}/metrics")).send().unwrap();
        assert_eq!(answer.status().as_u16(), expected, "with --metrics-allow {allow:?}");
        let local = format!("http://127.0.0.1:{port}/metrics");
        assert_eq!(client(10).get(local).send().unwrap().status().as_u16(), 200, "loopback is always answered");
    }
}

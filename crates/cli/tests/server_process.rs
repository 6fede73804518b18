//! The real `studio` binary: `serve` over TCP on loopback, restarts, and the configuration file commands.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::support::{serve, STUDIO};

#[test]
fn serve_over_tcp_keeps_configurations_across_a_restart_with_a_new_token() {
    let dir = tempfile::tempdir().unwrap();
    let first = serve(dir.path());
    assert!(first.base.starts_with("http://127.0.0.1:"), "{}", first.base);
    assert_eq!(first.token.len(), 64);
    let (status, created) =
        first.post("/api/configurations", &json!({"config": {"title": "Over TCP", "searchSpace": "demo"}}));
    assert_eq!(status, 200, "{created}");
    let id = created["config"]["id"].as_i64().unwrap();
    let unauthorised = first.client().get(format!("{}/api/configurations", first.base)).send().unwrap();
    assert_eq!(unauthorised.status().as_u16(), 401);
    let old_token = first.token.clone();
    drop(first);

    let second = serve(dir.path());
    assert_ne!(second.token, old_token, "each start makes a new token");
    let stale =
        second.client().get(format!("{}/api/configurations", second.base)).bearer_auth(&old_token).send().unwrap();
    assert_eq!(stale.status().as_u16(), 401);
    let (status, list) = second.get("/api/configurations");
    assert_eq!(status, 200);
    assert_eq!(list["configurations"][0]["config"]["title"], "Over TCP");
    assert_eq!(list["activeId"], id);
    let health = second.client().get(format!("{}/healthz", second.base)).send().unwrap();
    assert_eq!(health.status().as_u16(), 200);
}

/// The server's allocator without transparent huge pages (docs/choices.md, "The allocator"): the kernel says so
/// for the running process.
#[cfg(target_os = "linux")]
#[test]
fn a_running_server_has_transparent_huge_pages_off() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(dir.path());
    assert_eq!(studio_testkit::io::transparent_huge_pages(served.child.id()), Some(false));
}

#[test]
fn serve_with_an_auth_file_uses_its_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let auth = dir.path().join("auth.json");
    let digest = studio_server::token_digest("s3cret");
    std::fs::write(
        &auth,
        json!({"users": [{"name": "ana", "tokenSha256": digest, "groups": ["all"]}],
        "groups": [{"name": "all", "operations": ["read", "write", "search"], "searchSpaces": ["*"]}]})
        .to_string(),
    )
    .unwrap();
    let mut child = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--auth"])
        .arg(&auth)
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let base = first.strip_prefix("listening on ").expect("no token is printed with --auth").to_owned();
    let client = reqwest::blocking::Client::new();
    let created: Value = client
        .post(format!("{base}/api/configurations"))
        .bearer_auth("s3cret")
        .json(&json!({"config": {"title": "A", "searchSpace": "demo"}}))
        .send()
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(created["config"]["user"], "ana");
    let _ = child.kill();
    let _ = child.wait();
}

fn studio(args: &[&str], data_dir: &Path) -> std::process::Output {
    Command::new(STUDIO).args(args).env("SEARCH_STUDIO_DATA_DIR", data_dir).output().unwrap()
}

#[test]
fn export_and_import_config_move_a_configuration_between_stores() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let file = a.path().join("seed.json");
    std::fs::write(
        &file,
        json!({"config": {"title": "Carried", "searchSpace": "demo", "custom": 1, "result": {"itemsPerPage": 30}}})
            .to_string(),
    )
    .unwrap();
    let out = studio(&["import-config", file.to_str().unwrap()], a.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("as id 1"));

    let exported = a.path().join("out.json");
    let out = studio(&["export-config", "1", exported.to_str().unwrap()], a.path());
    assert!(out.status.success());
    let out = studio(&["import-config", exported.to_str().unwrap()], b.path());
    assert!(out.status.success());
    let out = studio(&["export-config", "1"], b.path());
    let copy: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(copy["config"]["title"], "Carried");
    assert_eq!(copy["config"]["custom"], 1);
    assert_eq!(copy["config"]["result"]["itemsPerPage"], 30);
}

#[test]
fn failures_exit_1_with_one_line_naming_the_problem_and_usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = studio(&["export-config", "7"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("configuration 7 does not exist"), "{stderr}");

    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let out = studio(&["import-config", bad.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.json is not valid JSON"));

    let out = studio(&["import-config", "/no/such/file.json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file.json"));

    let out = studio(&["export-config", "not-a-number"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let out = studio(&["frobnicate"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    for sub in [&["--help"][..], &["serve", "--help"], &["export-config", "--help"], &["import-config", "--help"]] {
        let out = studio(sub, dir.path());
        assert_eq!(out.status.code(), Some(0), "{sub:?}");
    }

    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = studio(&["--data-dir", file.to_str().unwrap(), "export-config", "1"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a-file"));
}

#[test]
fn the_data_dir_flag_wins_over_the_environment() {
    let env_dir = tempfile::tempdir().unwrap();
    let flag_dir = tempfile::tempdir().unwrap();
    let file = env_dir.path().join("c.json");
    std::fs::write(&file, json!({"config": {"title": "Here", "searchSpace": "demo"}}).to_string()).unwrap();
    let out = Command::new(STUDIO)
        .args(["--data-dir", flag_dir.path().to_str().unwrap(), "import-config", file.to_str().unwrap()])
        .env("SEARCH_STUDIO_DATA_DIR", env_dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(flag_dir.path().join("studio.db").exists());
    assert!(!env_dir.path().join("studio.db").exists());
}

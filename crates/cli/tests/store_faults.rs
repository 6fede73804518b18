//! The store under real faults, through the real binary: a save answered only once it is synced, damaged files at
//! start and under a running server, and a clean exit on SIGTERM and SIGINT (a full disk: full_disk.rs).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use studio_testkit::sync_trace;

use crate::support::{serve, serve_args, serve_command, Served, STUDIO};

pub(crate) fn new_config(title: &str) -> Value {
    json!({"config": {"title": title, "searchSpace": "demo"}})
}

pub(crate) fn titles(server: &Served) -> Vec<String> {
    let (status, list) = server.get("/api/configurations");
    assert_eq!(status, 200, "{list}");
    list["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["config"]["title"].as_str().unwrap().to_owned())
        .collect()
}

/// Sends SIGTERM or SIGINT to the server and waits for it to end, returning its exit status.
fn stop(server: &mut Served, signal: &str) -> std::process::ExitStatus {
    signal_server(server, signal);
    wait_end(server, signal)
}

/// Signals the server; when it runs under another program (strace), the signal goes to that program's child.
fn signal_server(server: &Served, signal: &str) {
    let own = server.child.id();
    let children = std::fs::read_to_string(format!("/proc/{own}/task/{own}/children")).unwrap_or_default();
    let pid = children.split_whitespace().next().map_or(own.to_string(), str::to_owned);
    assert!(Command::new("kill").args([signal, &pid]).status().unwrap().success());
}

fn wait_end(server: &mut Served, signal: &str) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "the server did not end within 20 s of {signal}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("-wal") || n.ends_with("-shm"))
        .collect()
}

#[test]
fn every_save_is_answered_only_after_the_log_is_synced() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace");
    let data = dir.path().join("data");
    let mut command = Command::new("strace");
    command.args(sync_trace::strace_args(&trace)).arg(STUDIO).args(serve_args(&data)).stderr(Stdio::null());
    let mut server = serve_command(&mut command);
    let mut ids = Vec::new();
    for i in 0..10 {
        let (status, created) = server.post("/api/configurations", &new_config(&format!("saved {i}")));
        assert_eq!(status, 200, "{created}");
        ids.push(created["config"]["id"].as_i64().unwrap());
    }
    for (i, id) in ids.iter().enumerate() {
        let (status, body) = server.put(&format!("/api/configurations/{id}"), &new_config(&format!("again {i}")));
        assert_eq!(status, 200, "{body}");
    }
    assert_eq!(stop(&mut server, "-TERM").code(), Some(0));

    let trace = std::fs::read_to_string(&trace).unwrap();
    let saves = sync_trace::answers_after_sync(&trace, "/studio.db-wal", |first| {
        first.starts_with("POST /api/configurations") || first.starts_with("PUT /api/configurations/")
    });
    assert_eq!(saves.len(), 20, "every save and its answer were seen in the trace");
    let unsynced: Vec<_> = saves.iter().filter(|a| !a.synced).collect();
    assert!(unsynced.is_empty(), "answered before the log was synced: {unsynced:?}");
    assert!(saves.iter().all(|a| a.status.contains(" 200 ")));
}

/// Runs `studio serve` on `data` and expects it to stop by itself, returning its stderr.
fn serve_refused(data: &Path) -> String {
    let mut child =
        Command::new(STUDIO).args(serve_args(data)).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("studio serve on a damaged store did not stop within 10 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!child.wait().unwrap().success());
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    stderr
}

/// A store with a few configurations, closed cleanly.
fn store_with_configurations(data: &Path) {
    let mut server = serve(data);
    for i in 0..30 {
        let (status, _) = server.post("/api/configurations", &new_config(&format!("kept {i}")));
        assert_eq!(status, 200);
    }
    assert_eq!(stop(&mut server, "-TERM").code(), Some(0));
}

fn overwrite(path: &Path, at: u64, bytes: &[u8]) {
    use std::io::{Seek, SeekFrom};
    let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.seek(SeekFrom::Start(at)).unwrap();
    file.write_all(bytes).unwrap();
    file.sync_all().unwrap();
}

#[test]
fn a_damaged_store_stops_serve_at_once_with_one_line_naming_the_file() {
    // The header overwritten: not a database any more.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("header");
    store_with_configurations(&data);
    overwrite(&data.join("studio.db"), 0, &[0x55; 100]);
    let stderr = serve_refused(&data);
    assert!(
        stderr.contains("studio.db") && stderr.contains("damaged") && stderr.contains("studio recover"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");

    // A page in the middle of the configurations overwritten.
    let data = dir.path().join("page");
    store_with_configurations(&data);
    let page_size = {
        let conn = rusqlite::Connection::open(data.join("studio.db")).unwrap();
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        let root: i64 = conn
            .query_row("SELECT rootpage FROM sqlite_schema WHERE name = 'configurations'", [], |r| r.get(0))
            .unwrap();
        (size, root)
    };
    let (size, root) = page_size;
    overwrite(&data.join("studio.db"), ((root - 1) * size) as u64 + 8, &vec![0xAB; (size - 16) as usize]);
    let stderr = serve_refused(&data);
    assert!(stderr.contains("studio.db") && stderr.contains("damaged"), "{stderr}");

    // A truncated documents file.
    let data = dir.path().join("truncated");
    store_with_configurations(&data);
    let documents = data.join("studio-documents.db");
    std::fs::OpenOptions::new().write(true).open(&documents).unwrap().set_len(100).unwrap();
    let stderr = serve_refused(&data);
    assert!(stderr.contains("studio-documents.db") && stderr.contains("damaged"), "{stderr}");
}

#[test]
fn a_damaged_page_of_the_documents_answers_searches_with_what_to_do_and_keeps_configurations() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let input = dir.path().join("docs.jsonl");
    let lines: Vec<String> = (0..300)
        .map(|i| {
            json!({"id": format!("d{i}"), "title": format!("climate {i}"), "description": "water ".repeat(200)})
                .to_string()
        })
        .collect();
    std::fs::write(&input, lines.join("\n")).unwrap();
    let out = Command::new(STUDIO)
        .args(["import", "--search-space", "demo"])
        .arg(&input)
        .arg("--data-dir")
        .arg(&data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    store_with_configurations(&data);
    // Every page of the documents table's b-tree but the first is overwritten.
    let documents = data.join("studio-documents.db");
    let (size, pages) = {
        let conn = rusqlite::Connection::open(&documents).unwrap();
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0)).unwrap();
        (size, pages)
    };
    for page in (pages / 2)..pages {
        overwrite(&documents, (page * size) as u64, &vec![0xCD; size as usize]);
    }
    let server = serve(&data);
    assert_eq!(titles(&server).len(), 30, "the configurations are listed");
    assert_eq!(server.get("/readyz").0, 200, "ready before the damage is met");
    let (status, body) = server.post("/api/configurations/1/search", &json!({"input": "climate water"}));
    assert_eq!(status, 500, "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.contains("damaged") && message.contains("studio recover"), "{body}");
    let (status, ready) = server.get("/readyz");
    assert_eq!(status, 503, "not ready once a damaged file was met: {ready}");
    assert_eq!(ready["reason"], "damaged");
    assert!(ready["message"].as_str().unwrap_or_default().contains("studio recover"), "{ready}");
}

#[test]
fn sigterm_and_sigint_answer_the_request_in_flight_and_leave_only_the_files() {
    for signal in ["-TERM", "-INT"] {
        let dir = tempfile::tempdir().unwrap();
        let mut server = serve(dir.path());
        // A save whose body is still on its way when the signal comes.
        let body = new_config("in flight").to_string();
        let address = server.base.trim_start_matches("http://").to_owned();
        let mut stream = TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "POST /api/configurations HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            server.token,
            body.len()
        )
        .unwrap();
        stream.flush().unwrap();
        std::thread::sleep(Duration::from_millis(200));
        signal_server(&server, signal);
        std::thread::sleep(Duration::from_millis(200));
        stream.write_all(body.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "the request in flight is answered: {answer}");
        let status = wait_end(&mut server, signal);
        assert_eq!(status.code(), Some(0), "{signal} ends the server cleanly");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "only the store's files remain after {signal}");
        let conn = rusqlite::Connection::open(dir.path().join("studio.db")).unwrap();
        let saved: i64 = conn
            .query_row("SELECT count(*) FROM configurations WHERE envelope LIKE '%in flight%'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(saved, 1, "the save answered during the shutdown is stored");
    }
}

fn studio_in(data: &Path, args: &[&str]) -> std::process::Output {
    Command::new(STUDIO).args(args).arg("--data-dir").arg(data).output().unwrap()
}

#[test]
fn check_names_the_damage_and_recover_brings_every_configuration_back() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    store_with_configurations(&data);
    let healthy = studio_in(&data, &["check"]);
    assert!(healthy.status.success(), "{}", String::from_utf8_lossy(&healthy.stdout));
    assert!(std::fs::read_dir(data.join("backups")).unwrap().count() >= 1, "serve took its exit backup at SIGTERM");

    overwrite(&data.join("studio.db"), 0, &[0x55; 100]);
    let damaged = std::fs::read(data.join("studio.db")).unwrap();
    let checked = studio_in(&data, &["check"]);
    let said = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(1), "{said}");
    assert!(said.contains("studio.db") && said.contains("not a database"), "{said}");
    assert!(String::from_utf8_lossy(&checked.stderr).contains("studio recover"));

    let recovered = studio_in(&data, &["recover"]);
    let said = String::from_utf8_lossy(&recovered.stdout);
    assert!(recovered.status.success(), "{said}{}", String::from_utf8_lossy(&recovered.stderr));
    assert!(said.contains("moved the damaged file aside") && said.contains("30 configurations"), "{said}");
    let aside: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            // Its log, when it has one, moves with it under the same new name.
            name.contains("damaged") && !name.ends_with("-wal") && !name.ends_with("-shm")
        })
        .collect();
    let names: Vec<String> = aside.iter().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(aside.len(), 1, "the damaged file was moved aside: {names:?}");
    assert_eq!(std::fs::read(aside[0].path()).unwrap(), damaged, "and left as it was");

    assert!(studio_in(&data, &["check"]).status.success(), "the recovered store is healthy");
    let server = serve(&data);
    let listed = titles(&server);
    for i in 0..30 {
        assert!(listed.contains(&format!("kept {i}")), "configuration {i} is back: {listed:?}");
    }
}

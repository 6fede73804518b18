//! A full disk under the real binary (a small tmpfs the test mounts): a save refused with 507 while reads go on and
//! every acknowledged save is kept, an import stopped naming the file with its earlier batches kept, and an export
//! refused with the file left as it was, each in the words every full disk is given.

use std::io::Write;
use std::process::Command;

use serde_json::json;
use studio_testkit::disk::SmallDisk;

use crate::store_faults::{new_config, titles};
use crate::support::{serve, STUDIO};

#[test]
fn a_full_disk_answers_507_keeps_reads_and_saves_again_once_space_is_freed() {
    let disk = SmallDisk::mount(16);
    let data = disk.path().join("data");
    let server = serve(&data);
    let mut saved = Vec::new();
    for i in 0..5 {
        let (status, created) = server.post("/api/configurations", &new_config(&format!("before {i}")));
        assert_eq!(status, 200, "{created}");
        saved.push(format!("before {i}"));
    }
    disk.fill();
    // Writes until the log's free space runs out: every answer is 200 (kept) or 507 (nothing written).
    let mut refused = None;
    for i in 0..400 {
        let big = json!({"config": {"title": format!("while full {i}"), "searchSpace": "demo",
                                     "layout": {"logo": {"url": "x".repeat(20_000)}}}});
        let (status, body) = server.post("/api/configurations", &big);
        match status {
            200 => saved.push(format!("while full {i}")),
            507 => {
                refused = Some(body);
                break;
            }
            other => panic!("a save on a full disk answered {other}: {body}"),
        }
    }
    let refused = refused.expect("a save on the full disk was refused");
    let message = refused["message"].as_str().unwrap_or_default();
    assert!(message.contains("is full") && message.contains("studio.db"), "{refused}");
    assert!(message.contains("free some space"), "{refused}");

    // Reads and searches go on, and every acknowledged save is there.
    let listed = titles(&server);
    for title in &saved {
        assert!(listed.contains(title), "{title} was acknowledged and is listed");
    }
    let (status, _) = server.post("/api/configurations/1/search", &json!({"input": "anything"}));
    assert_eq!(status, 200, "a search on the full disk answers");
    let (status, ready) = server.get("/readyz");
    assert_eq!(status, 503, "not ready while the disk refuses writes: {ready}");
    assert_eq!(ready["reason"], "disk_full", "{ready}");
    assert!(ready["message"].as_str().unwrap_or_default().contains("is full"), "{ready}");

    disk.free();
    let (status, ready) = server.get("/readyz");
    assert_eq!(status, 200, "ready again once space is freed: {ready}");
    let (status, body) = server.post("/api/configurations", &new_config("after freeing"));
    assert_eq!(status, 200, "saves work again without a restart: {body}");
    assert!(titles(&server).contains(&"after freeing".to_owned()));
    drop(server);
    let conn = rusqlite::Connection::open(data.join("studio.db")).unwrap();
    let verdict: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(verdict, "ok");
}

#[test]
fn import_on_a_full_disk_stops_naming_the_file_and_keeps_its_batches() {
    let disk = SmallDisk::mount(8);
    let data = disk.path().join("data");
    let input = tempfile::NamedTempFile::new().unwrap();
    {
        let mut file = std::fs::File::create(input.path()).unwrap();
        for i in 0..20_000 {
            let body = format!("document {i} ").repeat(40);
            writeln!(file, "{}", json!({"id": format!("d{i}"), "title": format!("title {i}"), "description": body}))
                .unwrap();
        }
    }
    let out = Command::new(STUDIO)
        .args(["import", "--search-space", "big"])
        .arg(input.path())
        .arg("--data-dir")
        .arg(&data)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the import on a full disk fails: {stderr}");
    assert!(stderr.contains("is full") && stderr.contains("studio-documents.db"), "{stderr}");
    let conn = rusqlite::Connection::open(data.join("studio-documents.db")).unwrap();
    let kept: i64 = conn.query_row("SELECT count(*) FROM documents", [], |r| r.get(0)).unwrap();
    assert!(kept > 0 && kept < 20_000, "the batches written before the disk filled stay ({kept})");
    let verdict: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(verdict, "ok");
}

#[test]
fn an_export_on_a_full_disk_says_so_and_leaves_the_file_as_it_was() {
    let data = tempfile::tempdir().unwrap();
    let disk = SmallDisk::mount(1);
    let bundle = disk.path().join("all.json");
    std::fs::write(&bundle, "an earlier export\n").unwrap();
    disk.fill();
    let out = Command::new(STUDIO)
        .args(["--data-dir", data.path().to_str().unwrap(), "export-config", "--all", bundle.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let said = format!("the disk holding {} is full: free some space and try again", bundle.display());
    assert!(stderr.contains(&said), "{stderr}");
    assert_eq!(std::fs::read_to_string(&bundle).unwrap(), "an earlier export\n", "the file is as it was");
    let mut left: Vec<_> = std::fs::read_dir(disk.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    left.sort();
    assert_eq!(left, ["all.json", "filler"], "nothing half-written beside it");
}

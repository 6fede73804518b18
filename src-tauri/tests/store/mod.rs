//! The local store under faults, through the desktop's commands: a damaged store at launch leaves the app
//! waiting on the recovery screen (no backend), Recover brings the configurations back and opens the
//! recovered store without a restart, and a clean exit leaves only the store's files and its backups.

mod durability;

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

use serde_json::json;

use crate::harness::{harness, harness_in, Harness};
use studio_testkit::io::sqlite_logs as logs_in;

/// A store with one configuration of our own, closed cleanly (so its exit backup holds it).
fn closed_store_with(title: &str) -> tempfile::TempDir {
    let h = harness();
    h.ok("create_configuration", json!({"body": {"config": {"title": title, "searchSpace": "demo"}}}));
    h.quit()
}

/// Overwrites the first bytes of `file`, where SQLite keeps its header.
fn overwrite_header(file: &Path) {
    let mut f = std::fs::OpenOptions::new().write(true).open(file).unwrap();
    f.seek(SeekFrom::Start(0)).unwrap();
    f.write_all(&[0x5a; 100]).unwrap();
    f.sync_all().unwrap();
}

fn titles(h: &Harness) -> Vec<String> {
    let list = h.ok("list_configurations", json!({}));
    list["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["config"]["title"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_damaged_store_waits_for_recover_which_brings_the_configurations_back_without_a_restart() {
    let dir = closed_store_with("Harbour Search");
    let db = dir.path().join("studio.db");
    overwrite_header(&db);

    let started = std::time::Instant::now();
    let h = harness_in(dir, Duration::from_secs(60));
    assert!(started.elapsed() < Duration::from_secs(5), "finding the damage took {:?}", started.elapsed());
    let status = h.ok("store_status", json!({}));
    assert_eq!(status["state"], "damaged", "{status}");
    assert_eq!(status["file"], db.display().to_string());
    assert!(status["problem"].as_str().unwrap().contains("not a database"), "{status}");
    // Nothing runs over the damaged store: no backend until it is recovered.
    assert!(h.invoke("list_configurations", json!({})).is_err());

    let report = h.ok("recover_store", json!({}));
    assert_eq!(h.ok("store_status", json!({})), json!({"state": "ready"}));
    let aside = report["movedAside"][0].as_str().unwrap();
    assert!(aside.contains("studio.db.damaged-"), "{report}");
    assert!(Path::new(aside).exists(), "the damaged file is kept: {report}");
    assert!(titles(&h).contains(&"Harbour Search".to_owned()), "recovered: {:?} ({report})", titles(&h));
    let created = h.ok("create_configuration", json!({"body": {"config": {"title": "After", "searchSpace": "demo"}}}));
    assert_eq!(created["config"]["config"]["title"], "After");
    assert!(h.invoke("recover_store", json!({})).is_err(), "a healthy store is not recovered again");
}

/// The total of the demo space, searched through the first configuration using it.
fn demo_total(h: &Harness) -> i64 {
    let list = h.ok("list_configurations", json!({}));
    let id = list["configurations"].as_array().unwrap().iter().find(|c| c["config"]["searchSpace"] == "demo").unwrap()
        ["id"]
        .clone();
    h.ok("search", json!({"id": id, "request": {}}))["total"].as_i64().unwrap()
}

#[test]
fn recover_of_a_damaged_studio_db_keeps_the_demo_documents() {
    let dir = closed_store_with("Harbour Search");
    overwrite_header(&dir.path().join("studio.db"));
    let h = harness_in(dir, Duration::from_secs(60));
    assert_eq!(h.ok("store_status", json!({}))["state"], "damaged");

    let report = h.ok("recover_store", json!({}));
    assert_eq!(report["documents"], 2400, "{report}");
    assert_eq!(report["lostDocuments"], json!([]), "{report}");
    assert_eq!(demo_total(&h), 2400, "the demo space answers as before: {report}");
}

#[test]
fn recover_of_a_damaged_documents_file_names_the_demo_space_in_the_clis_words() {
    let dir = closed_store_with("Harbour Search");
    overwrite_header(&dir.path().join("studio-documents.db"));
    let h = harness_in(dir, Duration::from_secs(60));
    assert_eq!(h.ok("store_status", json!({}))["state"], "damaged");

    let report = h.ok("recover_store", json!({}));
    let lost = &report["lostDocuments"];
    assert_eq!(lost.as_array().map(Vec::len), Some(1), "{report}");
    assert_eq!(lost[0]["searchSpace"], "demo");
    assert_eq!(lost[0]["kept"], 0);
    assert_eq!(lost[0]["getBack"], "studio demo-data");
    let message = lost[0]["message"].as_str().unwrap();
    assert!(message.starts_with("search space demo: 0 documents kept") && message.contains("`studio demo-data`"));
    assert!(titles(&h).contains(&"Harbour Search".to_owned()), "the configurations are kept: {report}");
}

#[test]
fn a_clean_exit_leaves_only_the_store_files_and_a_backup() {
    let dir = closed_store_with("Harbour Search");
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(!names.iter().any(|n| n.ends_with("-wal") || n.ends_with("-shm")), "left behind: {names:?}");
    let backups = dir.path().join("backups");
    let count = std::fs::read_dir(&backups).map(|d| d.count()).unwrap_or(0);
    assert!(count >= 1, "no exit backup in {}", backups.display());
}

#[test]
fn quitting_while_an_import_runs_stops_it_keeps_what_it_wrote_and_leaves_no_log() {
    let h = harness();
    let events = h.task_reports();
    // An endless documents file: a pipe the test writes documents into until the import stops reading.
    let pipe = h.dir.path().join("endless.jsonl");
    let made = std::process::Command::new("mkfifo").arg(&pipe).status().unwrap();
    assert!(made.success(), "mkfifo failed");
    let writer = {
        let pipe = pipe.clone();
        std::thread::spawn(move || {
            let mut out = std::fs::OpenOptions::new().write(true).open(pipe).unwrap();
            let mut n = 0i64;
            // Ends when the import closes the pipe (the write fails).
            while writeln!(out, r#"{{"id": "d{n}", "title": "Document {n}", "description": "piped"}}"#).is_ok() {
                n += 1;
            }
            n
        })
    };
    let task = h.ok("start_import", json!({"path": pipe.display().to_string(), "searchSpace": "piped"}));
    // Two batches' worth of lines read: the first batch is written.
    let read = 2 * studio_local::IMPORT_BATCH as u64;
    let written = || events.lock().unwrap().iter().any(|e| e["taskId"] == task && e["done"].as_u64() >= Some(read));
    let started = std::time::Instant::now();
    while !written() {
        assert!(started.elapsed() < Duration::from_secs(60), "the import wrote nothing");
        std::thread::sleep(Duration::from_millis(20));
    }

    let dir = h.quit();
    // The import has ended by the time the app has: its last report says it was cancelled.
    let last = events.lock().unwrap().iter().rev().find(|e| e["taskId"] == task).cloned().unwrap();
    assert_eq!((last["finished"].clone(), last["cancelled"].clone()), (json!(true), json!(true)), "{last}");
    let sent = writer.join().unwrap();
    assert_eq!(logs_in(dir.path()), Vec::<String>::new(), "left behind");
    let store = studio_local::Store::open_dir(dir.path()).unwrap();
    let conn = store.conn().unwrap();
    let check: String = conn.query_row("PRAGMA docs.integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(check, "ok");
    let kept: i64 =
        conn.query_row("SELECT count(*) FROM documents WHERE search_space = 'piped'", [], |r| r.get(0)).unwrap();
    assert!(kept >= studio_local::IMPORT_BATCH as i64 && kept <= sent, "{kept} documents kept of {sent} sent");
}

#[test]
fn settings_show_where_the_backups_are_and_the_newest() {
    let h = harness_in(closed_store_with("Harbour Search"), Duration::from_secs(60));
    let backups = h.ok("backup_settings", json!({}));
    assert_eq!(backups["folder"], h.dir.path().join("backups").display().to_string());
    assert!(backups["count"].as_u64().unwrap() >= 1, "{backups}");
    let newest = chrono::DateTime::parse_from_rfc3339(backups["newest"].as_str().unwrap()).unwrap();
    assert!(chrono::Utc::now().signed_duration_since(newest) < chrono::TimeDelta::minutes(5), "{backups}");
}

/// The store's file and its logs, as they are now (absent ones as `None`).
fn store_files(dir: &Path) -> Vec<(std::path::PathBuf, Option<Vec<u8>>)> {
    ["studio.db", "studio.db-wal", "studio.db-shm"]
        .iter()
        .map(|name| (dir.join(name), std::fs::read(dir.join(name)).ok()))
        .collect()
}

/// A store that lost its last writes: "Harbour Search" renamed and backed up, then the store's files put
/// back as they were before the rename.
fn store_behind_its_backup() -> tempfile::TempDir {
    let h = harness();
    let created =
        h.ok("create_configuration", json!({"body": {"config": {"title": "Harbour Search", "searchSpace": "demo"}}}));
    let id = created["config"]["id"].clone();
    let dir = h.quit();
    let before = store_files(dir.path());
    let h = harness_in(dir, Duration::from_secs(60));
    let renamed = json!({"config": {"title": "Harbour Search 2", "searchSpace": "demo"}});
    h.ok("update_configuration", json!({"id": id, "body": renamed}));
    let dir = h.quit();
    for (path, content) in before {
        match content {
            Some(bytes) => std::fs::write(&path, bytes).unwrap(),
            None => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    dir
}

#[test]
fn a_store_behind_its_backup_names_what_it_lost_and_recover_takes_it_back() {
    let h = harness_in(store_behind_its_backup(), Duration::from_secs(60));
    let status = h.ok("store_status", json!({}));
    assert_eq!(status["state"], "behindBackup", "{status}");
    let lost = status["configurations"].as_array().unwrap();
    assert!(lost.iter().any(|c| c.as_str().unwrap().starts_with("Harbour Search 2 (configuration ")), "{status}");
    assert!(h.invoke("list_configurations", json!({})).is_err(), "no backend before the choice");

    let report = h.ok("recover_store", json!({}));
    assert!(report["fromBackup"].as_u64().unwrap() >= 1, "{report}");
    assert!(titles(&h).contains(&"Harbour Search 2".to_owned()), "{:?}", titles(&h));
}

#[test]
fn a_store_behind_its_backup_can_be_used_as_it_is() {
    let h = harness_in(store_behind_its_backup(), Duration::from_secs(60));
    assert!(h.invoke("open_store_as_is", json!({})).is_ok());
    assert_eq!(h.ok("store_status", json!({})), json!({"state": "ready"}));
    let titles = titles(&h);
    assert!(
        titles.contains(&"Harbour Search".to_owned()) && !titles.contains(&"Harbour Search 2".to_owned()),
        "{titles:?}"
    );
    assert!(h.invoke("open_store_as_is", json!({})).is_err(), "once open, it is not opened again");
}

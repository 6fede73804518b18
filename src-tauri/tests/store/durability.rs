//! A desktop save is on disk before the UI hears of it: the commands run in a child process under strace,
//! which prints a line before each call and one after its answer; between the two the trace must hold a
//! sync (`fsync`/`fdatasync`) of the store's file or its log. A process kill keeps the page cache, so only
//! the sync calls tell whether a power cut could take an acknowledged save back.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::harness::harness;

/// Set in the child: it makes the saves instead of tracing them.
const CHILD: &str = "STUDIO_DESKTOP_DURABILITY_CHILD";
const SAVES: usize = 8;

#[test]
fn every_desktop_save_and_draft_is_synced_before_it_answers() {
    if std::env::var_os(CHILD).is_some() {
        return saves_in_the_child();
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace");
    let test = "store::durability::every_desktop_save_and_draft_is_synced_before_it_answers";
    let out = Command::new("strace")
        .args(["-f", "-y", "-e", "trace=fsync,fdatasync,write", "-o"])
        .arg(&trace)
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .expect("strace runs (apt-get install strace)");
    assert!(out.status.success(), "the child failed: {}", String::from_utf8_lossy(&out.stderr));
    let lines = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<&str> = lines.lines().collect();
    for kind in ["save", "draft"] {
        for i in 0..SAVES {
            let between = between_markers(&lines, &format!("{kind}-start {i}"), &format!("{kind}-done {i}"));
            assert!(
                between.iter().any(|l| synced_store(l)),
                "{kind} {i} was answered with no sync of the store since it was asked for:\n{}",
                between.join("\n")
            );
        }
    }
}

/// In the child: updates and drafts of one configuration through the commands, each between two markers.
fn saves_in_the_child() {
    let h = harness();
    let list = h.ok("list_configurations", json!({}));
    let id = list["configurations"][0]["id"].clone();
    let stored = h.ok("get_configuration", json!({"id": id}));
    for i in 0..SAVES {
        let mut body = stored.clone();
        body["config"]["title"] = json!(format!("Saved {i}"));
        println!("save-start {i}");
        h.ok("update_configuration", json!({"id": id, "body": body}));
        println!("save-done {i}");
    }
    for i in 0..SAVES {
        let mut draft = stored.clone();
        draft["config"]["title"] = json!(format!("Draft {i}"));
        println!("draft-start {i}");
        h.ok("save_draft", json!({"configId": id, "draft": draft, "base": stored}));
        println!("draft-done {i}");
    }
}

/// The trace's lines after the one writing `start` and before the one writing `done`.
fn between_markers<'a>(lines: &[&'a str], start: &str, done: &str) -> Vec<&'a str> {
    let written = |marker: &str| {
        let needle = format!("\"{marker}\\n\"");
        lines.iter().position(|l| l.contains(" write(1") && l.contains(&needle))
    };
    let (Some(from), Some(to)) = (written(start), written(done)) else {
        panic!("the trace lacks the markers {start:?} and {done:?}")
    };
    lines[from + 1..to].to_vec()
}

/// Whether a trace line is a sync of the store's file or its write-ahead log.
fn synced_store(line: &str) -> bool {
    let call = ["fsync(", "fdatasync("].iter().any(|c| line.contains(c));
    let file = line.split(['<', '>']).nth(1).map(Path::new).and_then(Path::file_name);
    call && file.is_some_and(|f| f == "studio.db" || f == "studio.db-wal")
}

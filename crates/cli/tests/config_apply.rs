//! `studio config apply` stopped part way, and `studio config lint` (docs/config-files.md): an apply killed
//! between two writes, one that loses its server, and one whose proxy answers 502 each leave a state from which
//! the next plan is exact and the next apply finishes, with nothing written twice (the server's history counts
//! every write); and lint places each finding of the rule table at its key's line and column.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};
use studio_model::{Fields, Rule, CONFIG_RULES};

use crate::config_folder::{config, expect, files};
use crate::remote_support::free_port;
use crate::support::{client, serve_command, serve_with, Served, STUDIO};

const TOKEN: &str = "folder-s3cret";

/// A `studio serve` on a fixed port with a fixed token, so that it can be stopped (dropped) and started again
/// as the same server.
fn start(data: &Path, auth: &Path, port: u16) -> Served {
    let mut command = Command::new(STUDIO);
    command
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--auth"])
        .arg(auth)
        .arg("--data-dir")
        .arg(data)
        .stderr(Stdio::null());
    serve_command(&mut command)
}

/// Starts `studio config apply DIR --to URL --yes` that pauses after its first write, and waits for the pause.
fn paused_apply(dir: &str, to: &str, data: &Path, token: &str) -> Child {
    let mut child = Command::new(STUDIO)
        .args(["config", "apply", dir, "--to", to, "--yes", "--data-dir"])
        .arg(data)
        .env("STUDIO_REMOTE_TOKEN", token)
        .env("STUDIO_TEST_APPLY_PAUSE_AFTER", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let line = lines.find(|l| l.as_ref().is_ok_and(|l| l.contains("paused"))).expect("the apply pauses").unwrap();
    assert_eq!(line, "paused after 1 write(s)");
    // Keep reading what it says, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    child
}

fn resume(mut child: Child) -> i32 {
    child.stdin.take().unwrap().write_all(b"\n").unwrap();
    child.wait().unwrap().code().unwrap_or(-1)
}

fn get(base: &str, token: &str, path: &str) -> Value {
    client(30).get(format!("{base}{path}")).bearer_auth(token).send().unwrap().json().unwrap()
}

#[test]
fn an_apply_stopped_at_any_write_is_finished_by_the_next_and_writes_nothing_twice() {
    let work = tempfile::tempdir().unwrap();
    let (dir, data, auth) = (work.path().join("f"), work.path().join("d"), work.path().join("auth.json"));
    crate::service::auth_file(&auth, &[("ana", TOKEN)]);
    std::fs::create_dir(&dir).unwrap();
    for (key, title) in [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")] {
        let body = json!({"active": key == "d", "config": {"title": title, "searchSpace": "demo", "result": {"itemsPerPage": 20}}});
        std::fs::write(dir.join(format!("{key}.json")), body.to_string()).unwrap();
    }
    let d = dir.to_str().unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let server = start(&work.path().join("server"), &auth, port);

    // Killed right after its first write, before the state knew of it: the plan finds the write by title
    // and search space, equal to the file.
    let killed = Command::new(STUDIO)
        .args(["config", "apply", d, "--to", &base, "--yes", "--data-dir"])
        .arg(&data)
        .env("STUDIO_REMOTE_TOKEN", TOKEN)
        .env("STUDIO_TEST_APPLY_EXIT_AFTER", "1")
        .output()
        .unwrap();
    assert_eq!(killed.status.code(), Some(3), "{killed:?}");
    let plan: Value =
        serde_json::from_str(&expect(config(&["plan", d, "--to", &base, "--json"], &data, TOKEN), 2)).unwrap();
    let kinds: Vec<&str> = plan["items"].as_array().unwrap().iter().map(|i| i["action"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["unchanged", "create", "create", "create"]);

    // The network lost: the server stops after the next write.
    let apply = paused_apply(d, &base, &data, TOKEN);
    drop(server);
    assert_eq!(resume(apply), 1);
    let server = start(&work.path().join("server"), &auth, port);

    // A 5xx: a proxy in front of the server answers 502 once the server stops.
    let proxy_data = tempfile::tempdir().unwrap();
    let proxy =
        serve_with(proxy_data.path(), &["--upstream", &base], &[("STUDIO_UPSTREAM_TOKEN", TOKEN)], Stdio::null());
    let apply = paused_apply(d, &proxy.base, &data, &proxy.token);
    drop(server);
    assert_eq!(resume(apply), 1);
    let _server = start(&work.path().join("server"), &auth, port);

    // The next apply finishes; the one after finds nothing to do.
    let plan: Value =
        serde_json::from_str(&expect(config(&["plan", d, "--to", &base, "--json"], &data, TOKEN), 2)).unwrap();
    let kinds: Vec<&str> = plan["items"].as_array().unwrap().iter().map(|i| i["action"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["unchanged", "unchanged", "unchanged", "create"]);
    expect(config(&["apply", d, "--to", &base, "--yes"], &data, TOKEN), 0);
    assert!(expect(config(&["apply", d, "--to", &base, "--yes"], &data, TOKEN), 0).contains("Nothing was written."));

    // Each configuration was created once, never updated; the last one made active.
    let list = get(&base, TOKEN, "/api/configurations");
    let configurations = list["configurations"].as_array().unwrap();
    assert_eq!(configurations.len(), 4, "{list}");
    let mut actions = Vec::new();
    for c in configurations {
        let logs = get(&base, TOKEN, &format!("/api/configurations/{}/logs", c["id"]));
        let mut mine: Vec<String> =
            logs["logs"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap().to_owned()).collect();
        mine.reverse();
        actions.push((c["config"]["title"].as_str().unwrap().to_owned(), mine));
    }
    let create = || vec!["create".to_owned()];
    assert_eq!(
        actions,
        [
            ("A".into(), create()),
            ("B".into(), create()),
            ("C".into(), create()),
            ("D".into(), vec!["create".into(), "set-active".into()])
        ]
    );
    // The end state is the uninterrupted one: the server pulls back as the folder is.
    let back = work.path().join("back");
    expect(config(&["pull", &base, back.to_str().unwrap()], &data, TOKEN), 0);
    let pulled = files(&back);
    for key in ["a", "b", "c", "d"] {
        let mine: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{key}.json"))).unwrap()).unwrap();
        let theirs: Value = serde_json::from_slice(&pulled[&format!("/{key}.json")]).unwrap();
        assert_eq!(theirs["config"]["title"], mine["config"]["title"]);
        assert_eq!(theirs["config"]["result"]["itemsPerPage"], 20);
        assert_eq!(theirs["active"], mine["active"]);
    }
}

/// A value that `rule` refuses.
fn refused(rule: &Rule) -> Value {
    match rule {
        Rule::Bool => json!("yes"),
        Rule::Int { max, .. } => json!(max + 1),
        Rule::OneOf { .. } => json!("none of them"),
        Rule::Text | Rule::Strings => json!(5),
        Rule::NonEmpty => json!(" "),
        Rule::Colour => json!("red"),
        Rule::Logo => json!("ftp://example.org/logo.png"),
        Rule::Object { .. } | Rule::Items { .. } => json!(null),
    }
}

/// Writes `fields` as an object, one key a line, every leaf refused, noting where each leaf's key is.
fn write_object(
    fields: Fields,
    path: &str,
    indent: usize,
    out: &mut Vec<String>,
    expected: &mut Vec<(usize, usize, String)>,
) {
    let pad = " ".repeat(indent);
    for (i, field) in fields.0.iter().enumerate() {
        let comma = if i + 1 < fields.0.len() { "," } else { "" };
        let key_path = format!("{path}.{}", field.name);
        match &field.rule {
            Rule::Object { fields } => {
                out.push(format!("{pad}\"{}\": {{", field.name));
                write_object(*fields, &key_path, indent + 2, out, expected);
                out.push(format!("{pad}}}{comma}"));
            }
            Rule::Items { fields, .. } => {
                out.push(format!("{pad}\"{}\": [{{", field.name));
                write_object(*fields, &format!("{key_path}.0"), indent + 2, out, expected);
                out.push(format!("{pad}}}]{comma}"));
            }
            rule => {
                expected.push((out.len() + 1, indent + 1, key_path));
                out.push(format!("{pad}\"{}\": {}{comma}", field.name, refused(rule)));
            }
        }
    }
}

#[test]
fn lint_places_each_finding_of_the_rule_table_at_its_key() {
    let work = tempfile::tempdir().unwrap();
    let mut lines = vec!["{".to_owned(), "  \"config\": {".to_owned()];
    let mut expected = Vec::new();
    write_object(CONFIG_RULES, "config", 4, &mut lines, &mut expected);
    lines.extend(["  }".to_owned(), "}".to_owned()]);
    std::fs::write(work.path().join("every-rule.json"), lines.join("\n") + "\n").unwrap();
    std::fs::write(work.path().join("fine.json"), "{\"config\": {\"title\": \"T\", \"searchSpace\": \"s\"}}").unwrap();
    let out = config(&["lint", work.path().to_str().unwrap()], work.path(), "");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = expect(out, 1);
    assert!(stderr.contains(&format!("{} problem(s)", expected.len())), "{stderr}");
    let prefix = format!("{}/every-rule.json:", work.path().display());
    let found: Vec<(usize, usize, String)> = stdout
        .lines()
        .map(|l| {
            let rest = l.strip_prefix(&prefix).unwrap_or_else(|| panic!("{l}"));
            let mut parts = rest.splitn(3, ':');
            let (line, column) = (parts.next().unwrap().parse().unwrap(), parts.next().unwrap().parse().unwrap());
            (line, column, parts.next().unwrap().trim().split(' ').next().unwrap().to_owned())
        })
        .collect();
    assert_eq!(found, expected, "{stdout}");
    let fine = tempfile::tempdir().unwrap();
    std::fs::write(fine.path().join("fine.json"), "{\"config\": {\"title\": \"T\", \"searchSpace\": \"s\"}}").unwrap();
    assert!(expect(config(&["lint", fine.path().to_str().unwrap()], fine.path(), ""), 0)
        .contains("1 configuration file(s), no problem"));
}

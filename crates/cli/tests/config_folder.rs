//! `studio config pull|plan|apply` between real stores and servers (docs/config-files.md): a folder pulled
//! from one and applied to an empty one pulls back byte for byte (the local store, a `studio serve`, the
//! API-only double of a production server); a plan shows each kind of change with Terraform's exit codes, as
//! text and as JSON; an apply asks, refuses a standing conflict until a side is chosen, and a second apply
//! finds nothing to do.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};
use studio_testkit::disk::SmallDisk;
use studio_testkit::{ApiOnlyOptions, ApiOnlyServer};

use crate::support::{serve, serve_with, Served, STUDIO};

/// Runs `studio config ARGS` over `data` with `token` as STUDIO_REMOTE_TOKEN, standard input closed.
pub(crate) fn config(args: &[&str], data: &Path, token: &str) -> Output {
    Command::new(STUDIO)
        .arg("config")
        .args(args)
        .arg("--data-dir")
        .arg(data)
        .env("STUDIO_REMOTE_TOKEN", token)
        .stdin(Stdio::null())
        .output()
        .expect("studio runs")
}

/// The exit code and standard output; panics (showing stderr) when the code is not `expected`.
pub(crate) fn expect(out: Output, expected: i32) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(expected), "stdout:\n{stdout}\nstderr:\n{stderr}");
    stdout
}

/// Every file of a folder but the state (which names the targets), by path, as bytes.
pub(crate) fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for sub in ["", ".studio"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() && !path.ends_with(".studio/state.json") {
                out.insert(
                    format!("{sub}/{}", path.file_name().unwrap().to_string_lossy()),
                    std::fs::read(&path).unwrap(),
                );
            }
        }
    }
    out
}

/// A server holding configurations worth a round trip: unknown keys, titles that make the same key, facets,
/// and an active one that is not the first.
fn source() -> (tempfile::TempDir, Served) {
    let data = tempfile::tempdir().unwrap();
    let served = serve(data.path());
    let bodies = [
        json!({"config": {"title": "News", "searchSpace": "demo", "team": {"owner": "ana"}}}),
        json!({"config": {"title": "News!", "searchSpace": "demo", "result": {"itemsPerPage": 25},
            "filter": {"facetsToShow": [{"uri": "dyn_lit_author", "title": "Author"}]}}}),
        json!({"config": {"title": "Shop — 2026", "searchSpace": "shop", "layout": {"logo": "https://example.org/l.png"}}}),
    ];
    for body in bodies {
        let (status, answer) = served.post("/api/configurations", &body);
        assert_eq!(status, 200, "{answer}");
    }
    assert_eq!(served.post("/api/configurations/3/set", &json!({})).0, 200);
    (data, served)
}

#[test]
fn a_pulled_folder_applied_to_an_empty_target_pulls_back_byte_for_byte() {
    let (_source_data, source) = source();
    let work = tempfile::tempdir().unwrap();
    let folder = work.path().join("configs");
    let data = work.path().join("data");
    let folder_s = folder.to_str().unwrap();
    let pulled = expect(config(&["pull", &source.base, folder_s], &data, &source.token), 0);
    assert!(pulled.contains("3 new, 0 updated, 0 unchanged"), "{pulled}");
    let want = files(&folder);
    let keys: Vec<&str> = want.keys().map(String::as_str).collect();
    assert_eq!(keys, [".studio/configuration.schema.json", "/news-2.json", "/news.json", "/shop-2026.json"]);
    let schema = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema/configuration.schema.json"),
    )
    .unwrap();
    assert_eq!(
        want[".studio/configuration.schema.json"],
        schema.as_bytes(),
        "the checked-in schema is what pull writes"
    );
    let shop: Value = serde_json::from_slice(&want["/shop-2026.json"]).unwrap();
    assert_eq!(
        (shop["$schema"].as_str(), shop["active"].as_bool()),
        (Some("./.studio/configuration.schema.json"), Some(true))
    );
    // Pulling again changes nothing.
    let again = expect(config(&["pull", &source.base, folder_s], &data, &source.token), 0);
    assert!(again.contains("0 new, 0 updated, 3 unchanged"), "{again}");

    // Three empty targets: the local store, a studio serve, and the API-only double in front of another.
    let round_trip = |to: &str, data: &Path, token: &str, name: &str| {
        let applied = expect(config(&["apply", folder_s, "--to", to, "--yes"], data, token), 0);
        assert!(applied.contains("Applied 4 change(s)"), "{name}: {applied}");
        assert_eq!(
            expect(config(&["plan", folder_s, "--to", to], data, token), 0).lines().last(),
            Some("Nothing to do: the target holds every configuration of the source."),
            "{name}"
        );
        let second = expect(config(&["apply", folder_s, "--to", to, "--yes"], data, token), 0);
        assert!(second.contains("Nothing was written."), "{name}: {second}");
        let fresh = work.path().join(format!("back-from-{name}"));
        expect(config(&["pull", to, fresh.to_str().unwrap()], data, token), 0);
        assert_eq!(files(&fresh), want, "{name}");
    };
    let local = work.path().join("local-target");
    round_trip("local", &local, "", "local");
    let served_data = tempfile::tempdir().unwrap();
    let served = serve(served_data.path());
    round_trip(&served.base, &data, &served.token, "served");
    let inner_data = tempfile::tempdir().unwrap();
    let inner = serve_with(inner_data.path(), &[], &[], Stdio::null());
    let double = ApiOnlyServer::start(&inner.base, ApiOnlyOptions { offer: vec!["set"], ..ApiOnlyOptions::default() })
        .expect("the double starts");
    round_trip(double.url(), &data, &inner.token, "api-only");
}

/// Rewrites `key`'s file of `dir` with `edit` applied to its JSON.
pub(crate) fn edit(dir: &Path, key: &str, edit: impl FnOnce(&mut Value)) {
    let path = dir.join(format!("{key}.json"));
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut value);
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap() + "\n").unwrap();
}

fn actions(plan: &Value) -> BTreeMap<String, String> {
    plan["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["key"].as_str().unwrap_or(i["title"].as_str().unwrap()).to_owned(),
                i["action"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_plan_shows_every_kind_and_an_apply_waits_for_a_side_in_a_conflict() {
    let data = tempfile::tempdir().unwrap();
    let served = serve(data.path());
    for title in ["Alpha", "Beta", "Gamma", "Old"] {
        assert_eq!(
            served.post("/api/configurations", &json!({"config": {"title": title, "searchSpace": "demo"}})).0,
            200
        );
    }
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("f");
    let d = dir.to_str().unwrap();
    let run = |args: &[&str]| config(args, data.path(), &served.token);
    expect(run(&["pull", &served.base, d]), 0);
    assert_eq!(
        expect(run(&["plan", d, "--to", &served.base]), 0).lines().count(),
        6,
        "a header, four lines, the summary"
    );

    // Each kind: beta edited here, gamma here and there, delta new and active, old's file gone.
    edit(&dir, "beta", |v| v["config"]["result"]["itemsPerPage"] = json!(20));
    edit(&dir, "gamma", |v| v["config"]["visible"] = json!(false));
    assert_eq!(served.put("/api/configurations/3", &json!({"config": {"result": {"itemsPerPage": 50}}})).0, 200);
    std::fs::write(
        dir.join("delta.json"),
        "{\"active\": true, \"config\": {\"title\": \"Delta\", \"searchSpace\": \"demo\"}}\n",
    )
    .unwrap();
    edit(&dir, "alpha", |v| v["active"] = json!(false));
    std::fs::remove_file(dir.join("old.json")).unwrap();
    let text = expect(run(&["plan", d, "--to", &served.base]), 2);
    assert!(
        text.contains("  update      beta \"Beta\" (demo), id 2\n      config.result.itemsPerPage: 10 -> 20\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  conflict    gamma \"Gamma\" (demo), id 3: changed on the target since this folder last applied it\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("config.result.itemsPerPage: 50 -> 10") && text.contains("config.visible: true -> false"),
        "{text}"
    );
    assert!(text.contains("  only on the target old \"Old\" (demo), id 4 (kept; --prune deletes it)"), "{text}");
    assert!(text.contains("  set active  delta (created above; active now: id 1)"), "{text}");
    assert!(text.ends_with("Plan: 1 to create, 1 to update, 0 to delete, 1 unchanged, 1 only on the target, 1 conflict(s), then delta becomes active.\n"), "{text}");
    let plan: Value = serde_json::from_str(&expect(run(&["plan", d, "--to", &served.base, "--json"]), 2)).unwrap();
    let want: BTreeMap<String, String> = [
        ("alpha", "unchanged"),
        ("beta", "update"),
        ("delta", "create"),
        ("gamma", "conflict"),
        ("old", "onlyOnTarget"),
    ]
    .into_iter()
    .map(|(k, a)| (k.to_owned(), a.to_owned()))
    .collect();
    assert_eq!(actions(&plan), want);
    assert_eq!(plan["setActive"], json!({"key": "delta", "id": null, "was": 1}));

    // No terminal and no --yes; then a conflict without a side: nothing is written.
    let refused = run(&["apply", d, "--to", &served.base, "--ours", "gamma"]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("add --yes"), "{refused:?}");
    expect(refused, 1);
    let refused = run(&["apply", d, "--to", &served.base, "--yes"]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("1 conflict(s) (gamma): the target changed since this folder last applied them; choose a side with --ours or --theirs"), "{refused:?}");
    expect(refused, 1);
    assert_eq!(served.get("/api/configurations").1["configurations"].as_array().unwrap().len(), 4);
    let applied = expect(run(&["apply", d, "--to", &served.base, "--yes", "--ours", "gamma"]), 0);
    assert!(applied.contains("updated beta (id 2)\ncreated delta as id 5\nupdated gamma (id 3)\nmade delta (id 5) the active configuration\nApplied 4 change(s)"), "{applied}");
    let (_, gamma) = served.get("/api/configurations/3");
    assert_eq!(
        (
            gamma["configuration"]["config"]["visible"].as_bool(),
            gamma["configuration"]["config"]["result"]["itemsPerPage"].as_i64()
        ),
        (Some(false), Some(10))
    );
    assert_eq!(served.get("/api/configurations").1["activeId"], 5);

    // Theirs: the file takes the server's version.
    assert_eq!(served.put("/api/configurations/1", &json!({"config": {"title": "Alpha (server)"}})).0, 200);
    edit(&dir, "alpha", |v| v["config"]["visible"] = json!(false));
    expect(run(&["plan", d, "--to", &served.base]), 2);
    let kept = expect(run(&["apply", d, "--to", &served.base, "--yes", "--theirs"]), 0);
    assert!(kept.contains("kept the target's version of alpha (id 1)"), "{kept}");
    let alpha: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("alpha.json")).unwrap()).unwrap();
    assert_eq!(
        (alpha["config"]["title"].as_str(), alpha["config"]["visible"].as_bool()),
        (Some("Alpha (server)"), Some(true))
    );

    // What only the server has stays, until --prune; then nothing is left to do.
    let plan = expect(run(&["plan", d, "--to", &served.base]), 0);
    assert!(plan.ends_with("(1 only on the target, kept).\n"), "{plan}");
    assert!(expect(run(&["plan", d, "--to", &served.base, "--prune"]), 2)
        .contains("  delete      old \"Old\" (demo), id 4\n"));
    assert!(expect(run(&["apply", d, "--to", &served.base, "--yes", "--prune"]), 0).contains("deleted id 4 (old)"));
    expect(run(&["plan", d, "--to", &served.base, "--prune"]), 0);

    // A lint problem is an error of plan and apply: exit 1, the problem on stderr.
    edit(&dir, "beta", |v| v["config"]["result"]["itemsPerPage"] = json!(0));
    let broken = run(&["plan", d, "--to", &served.base]);
    assert!(
        String::from_utf8_lossy(&broken.stderr)
            .contains("beta.json:9:7: config.result.itemsPerPage must be a whole number from 1 to 100"),
        "{broken:?}"
    );
    expect(broken, 1);
}

#[test]
fn a_pull_into_a_full_disk_says_so_naming_the_file_and_leaves_nothing_half_written() {
    let (_source_data, source) = source();
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let disk = SmallDisk::mount(1);
    let folder = disk.path().join("configs");
    let folder_s = folder.to_str().unwrap();
    disk.fill();

    let refused = config(&["pull", &source.base, folder_s], &data, &source.token);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    let schema = folder.join(".studio").join("configuration.schema.json");
    assert!(
        stderr.contains(&format!("the disk holding {} is full: free some space and try again", schema.display())),
        "the full disk is said in the words of every full disk, naming the file: {stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(folder.join(".studio")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "nothing half-written is left: {left:?}");

    disk.free();
    let pulled = expect(config(&["pull", &source.base, folder_s], &data, &source.token), 0);
    assert!(pulled.contains("3 new, 0 updated, 0 unchanged"), "{pulled}");
}

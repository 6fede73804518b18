//! `studio config promote` between two real servers (docs/config-files.md): from a `studio serve` to the
//! API-only double of a production server in front of another. A dry run says whether there is something to
//! do by its exit code (2 changes, 0 none), `--yes` makes the changes, a second promotion finds nothing to
//! do, and a change made by hand on the target is a conflict that `--theirs` leaves standing and `--ours`
//! settles.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};
use studio_testkit::{ApiOnlyOptions, ApiOnlyServer};

use crate::config_folder::expect;
use crate::support::{serve, Served, STUDIO};

/// `studio config promote --from SOURCE --to TARGET ARGS` over `data`, signed in to each with its token.
fn promote(source: &Served, target: &str, target_token: &str, data: &Path, args: &[&str]) -> Output {
    Command::new(STUDIO)
        .args(["config", "promote", "--from", &source.base, "--to", target])
        .args(args)
        .arg("--data-dir")
        .arg(data)
        .env("STUDIO_SOURCE_TOKEN", &source.token)
        .env("STUDIO_REMOTE_TOKEN", target_token)
        .stdin(Stdio::null())
        .output()
        .expect("studio runs")
}

/// Each configuration of `served` as (title, itemsPerPage), sorted, and the active one's title.
fn held(served: &Served) -> (Vec<(String, i64)>, Option<String>) {
    let (_, list) = served.get("/api/configurations");
    let all = list["configurations"].as_array().unwrap();
    let mut out: Vec<(String, i64)> = all
        .iter()
        .map(|c| {
            let config = &c["config"];
            (config["title"].as_str().unwrap().to_owned(), config["result"]["itemsPerPage"].as_i64().unwrap())
        })
        .collect();
    out.sort();
    let active =
        all.iter().find(|c| c["id"] == list["activeId"]).map(|c| c["config"]["title"].as_str().unwrap().to_owned());
    (out, active)
}

#[test]
fn promote_plans_applies_once_and_settles_a_conflict_made_by_hand() {
    let source_data = tempfile::tempdir().unwrap();
    let source = serve(source_data.path());
    for (title, per_page) in [("News", 10), ("Shop", 20), ("Archive", 30)] {
        let body = json!({"config": {"title": title, "searchSpace": "demo", "result": {"itemsPerPage": per_page}}});
        assert_eq!(source.post("/api/configurations", &body).0, 200);
    }
    assert_eq!(source.post("/api/configurations/2/set", &json!({})).0, 200);
    let inner_data = tempfile::tempdir().unwrap();
    let inner = serve(inner_data.path());
    let double = ApiOnlyServer::start(&inner.base, ApiOnlyOptions { offer: vec!["set"], ..ApiOnlyOptions::default() })
        .expect("the double starts (npm ci --prefix crates/testkit/servers)");
    let data = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| promote(&source, double.url(), &inner.token, data.path(), args);

    // A dry run shows the creates and exits 2; it writes nothing.
    let plan = expect(run(&["--dry-run"]), 2);
    assert!(plan.contains("Plan: 3 to create, 0 to update"), "{plan}");
    assert!(plan.contains("then 2 becomes active"), "{plan}");
    assert!(held(&inner).0.is_empty(), "a dry run writes nothing");
    assert!(!data.path().join("promotions.json").exists(), "a dry run records nothing");

    // Without --yes and a terminal it refuses; with --yes it makes them.
    let refused = run(&[]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("add --yes"), "{refused:?}");
    expect(refused, 1);
    let applied = expect(run(&["--yes"]), 0);
    assert!(applied.contains("Applied 4 change(s)"), "{applied}");
    let want = vec![("Archive".to_owned(), 30), ("News".to_owned(), 10), ("Shop".to_owned(), 20)];
    assert_eq!(held(&inner), (want.clone(), Some("Shop".to_owned())));
    let promotions: Value =
        serde_json::from_str(&std::fs::read_to_string(data.path().join("promotions.json")).unwrap()).unwrap();
    let name = format!("{} -> {}", source.base, double.url());
    assert_eq!(promotions["targets"][&name].as_object().map(|t| t.len()), Some(3), "{promotions}");

    // A second promotion finds nothing to do.
    assert!(expect(run(&["--dry-run"]), 0).contains("Nothing to do"));
    assert!(expect(run(&["--yes"]), 0).contains("Nothing was written."));

    // Shop changed by hand on the target: a conflict, which an apply without a side refuses.
    let shop_id = promotions["targets"][&name]["2"]["id"].as_i64().unwrap();
    assert_eq!(
        inner.put(&format!("/api/configurations/{shop_id}"), &json!({"config": {"result": {"itemsPerPage": 50}}})).0,
        200
    );
    let plan = expect(run(&["--dry-run"]), 2);
    assert!(plan.contains(&format!("  conflict    2 \"Shop\" (demo), id {shop_id}: changed on the target")), "{plan}");
    assert!(plan.contains("config.result.itemsPerPage: 50 -> 20"), "{plan}");
    let refused = run(&["--yes"]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("choose a side with --ours or --theirs"), "{refused:?}");
    expect(refused, 1);

    // Theirs: the target keeps its version, and the next promotion shows the conflict again.
    let kept = expect(run(&["--yes", "--theirs"]), 0);
    assert!(kept.contains(&format!("kept the target's version of 2 (id {shop_id})")), "{kept}");
    assert_eq!(held(&inner).0[2], ("Shop".to_owned(), 50));
    expect(run(&["--dry-run"]), 2);

    // Ours: the source's version is written; then nothing is left to do.
    let ours = expect(run(&["--yes", "--ours", "2"]), 0);
    assert!(ours.contains(&format!("updated 2 (id {shop_id})")), "{ours}");
    assert_eq!(held(&inner), (want, Some("Shop".to_owned())));
    assert!(expect(run(&["--dry-run"]), 0).contains("Nothing to do"));
}

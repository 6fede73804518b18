//! The pipeline example (examples/ci/config-pipeline.sh) against two real `studio serve` servers: staging
//! signed in to with a token, production with the client credentials grant of the test provider (client
//! `studio-pipeline`). A pull request's check plans both (the plans in the job's summary), the main branch
//! applies to each, a check then finds nothing to do; after a change made by hand on production and an edited
//! file, the check shows the conflict for production and the update for staging, and the apply to production
//! stops naming the conflict and writes nothing there. No token or secret is ever shown.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};
use studio_testkit::{OidcProvider, ProviderOptions};

use crate::client_credentials::{assert_no_secret, pipelines_server, CLIENT, SECRET};
use crate::config_folder::{config, edit, expect};
use crate::support::{client, serve, studio, Served, STUDIO};

/// The script, from the repository.
fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ci/config-pipeline.sh")
}

/// The two environments and where the script's runs keep their summary.
struct Pipeline<'a> {
    staging: &'a Served,
    production: &'a Served,
    issuer: &'a str,
    summary: PathBuf,
    home: &'a Path,
}

impl Pipeline<'_> {
    /// `bash config-pipeline.sh ARGS` with the environments' variables, the summary file emptied first; the
    /// exit code, and everything it printed (checked to show no token or secret).
    fn run(&self, args: &[&str]) -> (Option<i32>, String) {
        std::fs::write(&self.summary, "").unwrap();
        let out: Output = Command::new("bash")
            .arg(script())
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home)
            .env("SEARCH_STUDIO_DATA_DIR", self.home.join("data"))
            .env("STUDIO", STUDIO)
            .env("GITHUB_STEP_SUMMARY", &self.summary)
            .env("STAGING_URL", &self.staging.base)
            .env("STAGING_TOKEN", &self.staging.token)
            .env("PRODUCTION_URL", &self.production.base)
            .env("PRODUCTION_ISSUER", self.issuer)
            .env("PRODUCTION_CLIENT_ID", CLIENT)
            .env("PRODUCTION_CLIENT_SECRET", SECRET)
            .stdin(Stdio::null())
            .output()
            .expect("bash runs");
        let shown = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_no_secret(&format!("config-pipeline.sh {args:?}"), &shown);
        assert!(!shown.contains(&self.staging.token), "the staging token shows: {shown}");
        (out.status.code(), shown)
    }

    fn summary(&self) -> String {
        std::fs::read_to_string(&self.summary).unwrap()
    }
}

/// `GET path` of `base` with `token`: the JSON answer.
fn get(base: &str, token: &str, path: &str) -> Value {
    let answer = client(30).get(format!("{base}{path}")).bearer_auth(token).send().unwrap();
    assert_eq!(answer.status().as_u16(), 200, "GET {path}");
    answer.json().unwrap()
}

/// The titles a server holds, sorted.
fn titles(base: &str, token: &str) -> Vec<String> {
    let list = get(base, token, "/api/configurations");
    let mut titles: Vec<String> = list["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["config"]["title"].as_str().unwrap().to_owned())
        .collect();
    titles.sort();
    titles
}

#[test]
fn the_pipeline_plans_a_pull_request_applies_main_and_stops_at_a_change_made_by_hand() {
    let provider =
        OidcProvider::start(ProviderOptions { audience: Some("search-studio".into()), ..Default::default() })
            .expect("the test provider starts (npm ci --prefix crates/testkit/servers)");
    let staging_data = tempfile::tempdir().unwrap();
    let staging = serve(staging_data.path());
    let (_production_data, production) = pipelines_server(tempfile::tempdir().unwrap(), provider.issuer());
    let production_token = || {
        let grant = provider.client_credentials_grant(CLIENT, SECRET);
        grant["access_token"].as_str().expect("the provider grants a token").to_owned()
    };

    // The folder: the demo's configuration pulled from a third store, and one more written by hand.
    let work = tempfile::tempdir().unwrap();
    let (demo, dir) = (work.path().join("demo"), work.path().join("configurations"));
    studio(&["demo-data"], &demo);
    let d = dir.to_str().unwrap();
    expect(config(&["pull", "local", d], &demo, ""), 0);
    std::fs::write(
        dir.join("shop.json"),
        "{\"active\": false, \"config\": {\"title\": \"Shop\", \"searchSpace\": \"shop\"}}\n",
    )
    .unwrap();
    let demo_file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("industry-news-demo.json")).unwrap()).unwrap();
    let demo_title = demo_file["config"]["title"].as_str().unwrap().to_owned();
    let mut want = vec![demo_title.clone(), "Shop".to_owned()];
    want.sort();

    let home = work.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let pipeline = Pipeline {
        staging: &staging,
        production: &production,
        issuer: provider.issuer(),
        summary: work.path().join("summary.md"),
        home: &home,
    };

    // A pull request: lint, and both plans in the summary; changes are no failure.
    let (code, shown) = pipeline.run(&["check", d]);
    assert_eq!(code, Some(0), "{shown}");
    let summary = pipeline.summary();
    for env in ["staging", "production"] {
        assert!(summary.contains(&format!("### {env}: changes to make")), "{summary}");
    }
    assert_eq!(
        summary.matches("  create      industry-news-demo \"Industry news (demo)\" (demo)").count(),
        2,
        "{summary}"
    );
    assert_eq!(summary.matches("  create      shop \"Shop\" (shop)").count(), 2, "{summary}");
    assert_eq!(summary.matches("Plan: 2 to create, 0 to update").count(), 2, "{summary}");

    // The main branch: staging, then production; the state records both.
    for env in ["staging", "production"] {
        let (code, shown) = pipeline.run(&["apply", d, env]);
        assert_eq!(code, Some(0), "{env}: {shown}");
        let wrote = "created industry-news-demo as id 1\ncreated shop as id 2\nApplied 2 change(s)";
        assert!(shown.contains(wrote), "{env}: {shown}");
    }
    assert_eq!(titles(&staging.base, &staging.token), want);
    assert_eq!(titles(&production.base, &production_token()), want);
    let state: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(".studio/state.json")).unwrap()).unwrap();
    for base in [&staging.base, &production.base] {
        let recorded = state["targets"][base.as_str()].as_object().unwrap_or_else(|| panic!("{base}: {state}"));
        assert_eq!(recorded.keys().collect::<Vec<_>>(), ["industry-news-demo", "shop"], "{state}");
    }

    // The next pull request without changes: nothing to do on either.
    let (code, shown) = pipeline.run(&["check", d]);
    assert_eq!(code, Some(0), "{shown}");
    let summary = pipeline.summary();
    for env in ["staging", "production"] {
        assert!(summary.contains(&format!("### {env}: nothing to do")), "{summary}");
    }

    // Someone changes shop on production by hand; the pull request edits shop's file.
    let token = production_token();
    let shop_id = state["targets"][production.base.as_str()]["shop"]["id"].as_i64().unwrap();
    let path = format!("/api/configurations/{shop_id}");
    let by_hand = json!({"config": {"result": {"itemsPerPage": 50}}});
    let answer =
        client(30).put(format!("{}{path}", production.base)).bearer_auth(&token).json(&by_hand).send().unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    edit(&dir, "shop", |v| v["config"]["visible"] = json!(false));
    let (code, shown) = pipeline.run(&["check", d]);
    assert_eq!(code, Some(0), "a conflict is a plan, not a failure: {shown}");
    let summary = pipeline.summary();
    let (staging_plan, production_plan) = summary.split_once("### production").unwrap();
    assert!(staging_plan.contains("### staging: changes to make"), "{summary}");
    assert!(staging_plan.contains("  update      shop \"Shop\" (shop)"), "{summary}");
    assert!(staging_plan.contains("config.visible: true -> false"), "{summary}");
    assert!(production_plan.starts_with(": changes to make"), "{summary}");
    assert!(
        production_plan.contains(&format!(
            "  conflict    shop \"Shop\" (shop), id {shop_id}: changed on the target since this folder last applied it"
        )),
        "{summary}"
    );
    assert!(production_plan.contains("config.result.itemsPerPage: 50 -> 10"), "{summary}");

    // The apply to production stops, naming the conflict, and writes nothing there.
    let logs = |token: &str| get(&production.base, token, &format!("{path}/logs"))["logs"].as_array().unwrap().len();
    let before = logs(&token);
    let (code, shown) = pipeline.run(&["apply", d, "production"]);
    assert_eq!(code, Some(1), "{shown}");
    assert!(shown.contains("1 conflict(s) (shop)") && shown.contains("--ours or --theirs"), "{shown}");
    assert_eq!(logs(&token), before, "nothing is written on production");
    let shop = get(&production.base, &token, &path);
    assert_eq!(
        (
            shop["configuration"]["config"]["result"]["itemsPerPage"].as_i64(),
            shop["configuration"]["config"]["visible"].as_bool()
        ),
        (Some(50), Some(true))
    );
}

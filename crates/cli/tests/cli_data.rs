//! The data commands of the real `studio` binary: import, import-concepts, demo-data and bench.

use std::path::Path;
use std::process::{Command, Output};

const STUDIO: &str = env!("CARGO_BIN_EXE_studio");

fn studio(data_dir: &Path, args: &[&str]) -> Output {
    Command::new(STUDIO).arg("--data-dir").arg(data_dir).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn import_reports_bad_lines_by_number_and_imports_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("docs.jsonl");
    let good = |id: &str| {
        format!(
            r#"{{"id":"{id}","title":"Doc {id}","description":"About wind","date":1.6e12,"facetList":[{{"field":"dyn_lit_author","label":"Author","facets":[{{"count":1,"label":"Ana","value":null}}]}}]}}"#
        )
    };
    std::fs::write(&file, format!("{}\nnot json\n{}\n{{\"title\": \"no id\"}}\n", good("urn:a"), good("urn:b")))
        .unwrap();
    let out = studio(dir.path(), &["import", "--search-space", "news", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "imported 2 documents into news");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("docs.jsonl:2:"), "{stderr}");
    assert!(stderr.contains("docs.jsonl:4:"), "{stderr}");

    let concepts = dir.path().join("concepts.jsonl");
    std::fs::write(&concepts, "{\"uri\":\"urn:c:energy\",\"label\":\"Energy\",\"broader\":[]}\n{\"uri\":\"urn:c:wind\",\"label\":\"Wind\",\"broader\":[\"urn:c:energy\"]}\n[]\n").unwrap();
    let out = studio(dir.path(), &["import-concepts", concepts.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "imported 2 concepts");
    assert!(text(&out.stderr).contains(":3:"));

    let out = studio(dir.path(), &["import", "--search-space", "news", "/no/such.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/no/such.jsonl"));
    let out = studio(dir.path(), &["import", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "--search-space is required");
}

#[test]
fn demo_data_loads_the_demo_space_and_one_configuration_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = studio(dir.path(), &["demo-data"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("documents into demo"), "{stdout}");
    assert!(stdout.contains("created configuration 1"), "{stdout}");
    let again = text(&studio(dir.path(), &["demo-data"]).stdout);
    assert!(again.contains("configuration 1 already uses demo"), "{again}");
    let exported: serde_json::Value =
        serde_json::from_slice(&studio(dir.path(), &["export-config", "1"]).stdout).unwrap();
    assert_eq!(exported["config"]["searchSpace"], "demo");
    assert!(!exported["config"]["filter"]["facetsToShow"].as_array().unwrap().is_empty());
    assert!(studio(dir.path(), &["export-config", "2"]).status.code() == Some(1), "no second configuration");
}

#[test]
fn bench_prints_rates_and_latencies_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = studio(dir.path(), &["bench", "--docs", "300", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let last = text(&out.stdout).trim().lines().last().unwrap_or_default().to_owned();
    let report: serde_json::Value = serde_json::from_str(&last).unwrap();
    assert_eq!(report["docs"], 300);
    assert!(report["import_docs_per_s"].as_f64().unwrap() > 0.0);
    for key in [
        "search_p50_ms",
        "search_p95_ms",
        "facets_only_p95_ms",
        "similar_p95_ms",
        "recommend_p95_ms",
        "open_ready_s",
        "rss_mb",
        "naive_search_p50_ms",
    ] {
        assert!(report[key].is_number(), "{key} in {report}");
    }
    assert!(report.get("search_vs_tantivy").is_some() && report.get("tantivy_search_p50_ms").is_some());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("bench-"))
        .collect();
    assert!(leftovers.is_empty(), "the scratch store is removed");
}

#[test]
fn bench_passes_studio_bench_its_usage_errors_and_names_the_build_when_it_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let out = studio(dir.path(), &["bench", "--no-such-option"]);
    assert_eq!(out.status.code(), Some(2), "a usage error of studio-bench is one of studio bench");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--no-such-option") && stderr.contains("studio-bench"), "{stderr}");

    // A `studio` with no studio-bench beside it says in one line what to build.
    let alone = dir.path().join("bin").join("studio");
    std::fs::create_dir_all(alone.parent().unwrap()).unwrap();
    std::fs::copy(STUDIO, &alone).unwrap();
    let out = Command::new(&alone).arg("--data-dir").arg(dir.path()).args(["bench", "--docs", "100"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cargo build -p studio-bench"), "{stderr}");
}

#[test]
fn export_all_and_import_config_round_trip_every_configuration_as_new_ones() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = a.path().join("one.json");
    std::fs::write(&first, r#"{"config": {"title": "One", "searchSpace": "demo", "x-new": {"kept": [1]}}}"#).unwrap();
    assert!(studio(a.path(), &["import-config", first.to_str().unwrap()]).status.success());
    assert!(studio(a.path(), &["import-config", first.to_str().unwrap()]).status.success());
    let bundle = a.path().join("all.json");
    let out = studio(a.path(), &["export-config", "--all", bundle.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap()).unwrap();
    assert_eq!(written["format"], "search-studio/configurations");
    assert_eq!(written["version"], 1);
    assert_eq!(written["configurations"].as_array().unwrap().len(), 2);
    // Named as a file, the standard output (a pipe here) is written into as it is, not replaced.
    let out = studio(a.path(), &["export-config", "--all", "/dev/stdout"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let piped: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(piped["configurations"], written["configurations"]);

    assert!(studio(b.path(), &["import-config", first.to_str().unwrap()]).status.success());
    let out = studio(b.path(), &["import-config", bundle.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "imported configuration One as id 2\nimported configuration One as id 3\n");
    let out = studio(b.path(), &["export-config", "3"]);
    let three: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(three["config"]["x-new"], serde_json::json!({"kept": [1]}));

    assert_eq!(studio(b.path(), &["export-config", "--all", "x", "y"]).status.code(), Some(2));
    assert_eq!(studio(b.path(), &["export-config", "one"]).status.code(), Some(2));
    std::fs::write(&first, r#"{"format": "search-studio/configurations", "version": 9, "configurations": []}"#)
        .unwrap();
    let out = studio(b.path(), &["import-config", first.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("version 9"), "{}", text(&out.stderr));
}

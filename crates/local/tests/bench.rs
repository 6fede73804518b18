//! `run_bench` produces a complete report on a small corpus (its timings are not asserted: speed belongs
//! to benchmarks, not tests).

#[test]
fn bench_reports_import_rate_and_latency_per_kind() {
    let dir = tempfile::tempdir().unwrap();
    let report = studio_local::bench::run_bench(dir.path(), 300).unwrap();
    assert_eq!(report.documents, 300);
    assert!(report.import_rate > 0.0);
    let kinds: Vec<&str> = report.kinds.iter().map(|k| k.kind.as_str()).collect();
    assert_eq!(kinds, ["search", "facets only", "similar concepts", "similar text", "recommend"]);
    assert!(report.kinds.iter().all(|k| k.runs > 0 && k.p95_ms >= k.p50_ms));
    let text = report.to_string();
    assert!(text.contains("documents/s") && text.contains("p95"), "{text}");
    let json = serde_json::to_value(&report).unwrap();
    assert!(json["kinds"][0]["p50_ms"].is_number());
}

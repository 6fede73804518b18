//! Load on loopback: many concurrent clients mix searches, reads, similar documents, creates and
//! updates against a real `studio serve` with the demo data for a fixed time. No answer may be an error,
//! every create answered 200 must be stored exactly once with every update's last value, and the
//! server's resident memory must stay flat between two equal phases of load (a bound, not a timing).
//!
//! CI runs it short (STUDIO_LOAD_SECONDS, default 6 s per phase; STUDIO_LOAD_CLIENTS, default 16). The
//! longer run reported in docs/performance.md uses the same test with larger values; throughput and
//! latency quantiles are printed, never asserted.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;

use crate::load_driver;
use crate::support::{client, serve, studio};
use studio_testkit::io::resident_kib as rss_kib;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn concurrent_clients_get_no_error_lose_no_write_and_memory_stays_flat() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    studio(&["demo-data"], &data);
    let server = serve(&data);
    let http = client(60);
    let get = |path: &str| -> Value {
        http.get(format!("{}{path}", server.base)).bearer_auth(&server.token).send().and_then(|r| r.json()).expect(path)
    };
    let config_id = get("/api/configurations")["activeId"].as_i64().expect("the demo configuration is active");
    let first_page = http
        .post(format!("{}/api/configurations/{config_id}/search", server.base))
        .bearer_auth(&server.token)
        .json(&serde_json::json!({}))
        .send()
        .and_then(|r| r.json::<Value>())
        .expect("a search");
    let uris: Vec<String> = first_page["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["id"].as_str().map(str::to_owned))
        .collect();

    let seconds = env_or("STUDIO_LOAD_SECONDS", 6);
    let clients = env_or("STUDIO_LOAD_CLIENTS", 16) as usize;
    let pid = server.child.id();
    let plan = load_driver::Plan {
        base: server.base.clone(),
        token: server.token.clone(),
        config_id,
        uris,
        clients,
        tag: "load".into(),
    };

    // Phase one warms every cache and pool; phase two must not grow memory beyond a bound.
    let mut outcome = load_driver::run(&plan, Duration::from_secs(seconds));
    let rss_before = rss_kib(pid).expect("the server's memory is readable");
    let second =
        load_driver::run(&load_driver::Plan { tag: "load2".into(), ..plan.clone() }, Duration::from_secs(seconds));
    let rss_after = rss_kib(pid).expect("the server's memory is readable");
    let second_requests = second.latencies.len();
    outcome.latencies.extend(second.latencies.iter().copied());
    for (k, v) in &second.errors {
        *outcome.errors.entry(k.clone()).or_default() += v;
    }
    outcome.created.extend(second.created.iter().cloned());
    outcome.updated.extend(second.updated.iter().map(|(k, v)| (*k, *v)));

    let requests = outcome.latencies.len();
    let rate = requests as f64 / (2 * seconds) as f64;
    println!(
        "load: {clients} clients, {requests} requests in 2 x {seconds} s ({rate:.0}/s), p50 {:?}, p99 {:?}, max {:?}; \
         {} creates, {} configurations updated; RSS {rss_before} KiB -> {rss_after} KiB",
        outcome.quantile(0.5),
        outcome.quantile(0.99),
        outcome.quantile(1.0),
        outcome.created.len(),
        outcome.updated.len()
    );
    assert!(outcome.errors.is_empty(), "answers that were not 200: {:?}", outcome.errors);
    assert!(second_requests > 0 && !outcome.created.is_empty(), "the load did nothing");

    // No lost or duplicated write: each create answered 200 is listed exactly once, with the last update.
    let list = get("/api/configurations");
    let mut stored: HashMap<String, Vec<&Value>> = HashMap::new();
    for c in list["configurations"].as_array().expect("a list") {
        stored.entry(c["config"]["title"].as_str().unwrap_or_default().to_owned()).or_default().push(c);
    }
    for (title, id) in &outcome.created {
        let found = stored.get(title).map_or(0, Vec::len);
        assert_eq!(found, 1, "{title} (id {id}) is stored {found} times");
        let config = stored[title][0];
        assert_eq!(config["id"].as_i64(), Some(*id));
        if let Some(value) = outcome.updated.get(id) {
            assert_eq!(
                config["config"]["result"]["itemsPerPage"].as_i64(),
                Some(*value),
                "{title}: the last update is kept"
            );
        }
    }
    let load_titles = stored.keys().filter(|t| t.starts_with("load")).count();
    assert_eq!(load_titles, outcome.created.len(), "no configuration appeared that was not answered");

    // Memory is flat: the second phase (same load, more stored rows) grows RSS by at most a bound.
    assert!(
        rss_after <= rss_before + rss_before / 2 + 32 * 1024,
        "the server's RSS grew from {rss_before} KiB to {rss_after} KiB under the same load"
    );
}

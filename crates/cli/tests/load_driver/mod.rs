//! A load driver that knows only HTTP and the API's JSON (no Search Studio crate): concurrent clients mix
//! searches, reads, similar documents, creates and updates against a server for a fixed time, and the
//! driver records every status and latency, and every create answered 200.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};

/// What to run against which server.
#[derive(Clone)]
pub struct Plan {
    pub base: String,
    pub token: String,
    /// A configuration to search through.
    pub config_id: i64,
    /// Document URIs for getSimilar.
    pub uris: Vec<String>,
    pub clients: usize,
    pub tag: String,
}

/// What the clients saw.
#[derive(Default)]
pub struct Outcome {
    pub latencies: Vec<Duration>,
    /// Answers that were not 200, or did not come, by what was asked.
    pub errors: HashMap<String, usize>,
    /// Titles of the configurations whose create was answered 200, with the ids given.
    pub created: Vec<(String, i64)>,
    /// Updates answered 200, by configuration id: the last `itemsPerPage` written.
    pub updated: HashMap<i64, i64>,
}

impl Outcome {
    fn merge(&mut self, other: Outcome) {
        self.latencies.extend(other.latencies);
        for (k, v) in other.errors {
            *self.errors.entry(k).or_default() += v;
        }
        self.created.extend(other.created);
        self.updated.extend(other.updated);
    }

    /// The `p`-quantile of the latencies (0 < p ≤ 1).
    pub fn quantile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort();
        let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len().max(1)) - 1;
        sorted.get(i).copied().unwrap_or_default()
    }
}

const WORDS: &[&str] = &["energy", "bank", "climate", "market", "solar*", "\"green deal\"", "", "oil", "policy", "x"];

fn client_loop(plan: Plan, client: usize, stop: Arc<AtomicBool>) -> Outcome {
    let http = reqwest::blocking::Client::builder().timeout(Duration::from_secs(30)).build().expect("a client");
    let mut rng = rand::thread_rng();
    let mut out = Outcome::default();
    let mut mine: Vec<i64> = Vec::new();
    let base = &plan.base;
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let roll = rng.gen_range(0..100);
        let started = Instant::now();
        let (what, request) = match roll {
            0..=44 => {
                let body = json!({"input": WORDS.choose(&mut rng), "start": rng.gen_range(0..3) * 10});
                ("search", http.post(format!("{base}/api/configurations/{}/search", plan.config_id)).json(&body))
            }
            45..=59 => ("get", http.get(format!("{base}/api/configurations/{}", plan.config_id))),
            60..=64 => ("list", http.get(format!("{base}/api/configurations"))),
            65..=74 => {
                let uri = plan.uris.choose(&mut rng).cloned().unwrap_or_default();
                (
                    "similar",
                    http.get(format!("{base}/api/configurations/{}/getSimilar", plan.config_id)).query(&[("uri", uri)]),
                )
            }
            75..=86 => {
                let title = format!("{}-{client}-{n}", plan.tag);
                let body = json!({"config": {"title": title, "searchSpace": "demo"}});
                ("create", http.post(format!("{base}/api/configurations")).json(&body))
            }
            _ => match mine.choose(&mut rng) {
                Some(&id) => {
                    let body = json!({"config": {"result": {"itemsPerPage": n % 100 + 1}}});
                    ("update", http.put(format!("{base}/api/configurations/{id}")).json(&body))
                }
                None => ("healthz", http.get(format!("{base}/healthz"))),
            },
        };
        let answer = request.bearer_auth(&plan.token).send().and_then(|r| {
            let status = r.status().as_u16();
            r.json::<Value>().map(|body| (status, body))
        });
        out.latencies.push(started.elapsed());
        match answer {
            Ok((200, body)) => match what {
                "create" => {
                    let id = body["config"]["id"].as_i64().unwrap_or_default();
                    out.created.push((body["config"]["config"]["title"].as_str().unwrap_or_default().to_owned(), id));
                    mine.push(id);
                }
                "update" => {
                    let id = body["config"]["id"].as_i64().unwrap_or_default();
                    out.updated
                        .insert(id, body["config"]["config"]["result"]["itemsPerPage"].as_i64().unwrap_or_default());
                }
                _ => {}
            },
            Ok((status, _)) => *out.errors.entry(format!("{what}: {status}")).or_default() += 1,
            Err(e) => *out.errors.entry(format!("{what}: {e}")).or_default() += 1,
        }
    }
    out
}

/// Runs `plan.clients` clients for `duration`.
pub fn run(plan: &Plan, duration: Duration) -> Outcome {
    let stop = Arc::new(AtomicBool::new(false));
    let handles: Vec<_> = (0..plan.clients)
        .map(|c| {
            let (plan, stop) = (plan.clone(), stop.clone());
            std::thread::spawn(move || client_loop(plan, c, stop))
        })
        .collect();
    std::thread::sleep(duration);
    stop.store(true, Ordering::Relaxed);
    let mut outcome = Outcome::default();
    for handle in handles {
        outcome.merge(handle.join().expect("a client thread ends"));
    }
    outcome
}

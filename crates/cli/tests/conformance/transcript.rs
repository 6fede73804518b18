//! A transcript of one scenario: each step's answer as JSON, normalised so that two backends can be
//! compared (creation times and `took N ms` durations differ between runs; everything else must not).

use serde::Serialize;
use serde_json::{json, Value};
use studio_model::BackendError;

/// The answers of one run of a scenario, in order.
#[derive(Debug, Default)]
pub struct Transcript {
    steps: Vec<(String, Value)>,
}

/// The name of a `BackendError` variant, so that transcripts compare error kinds and messages.
pub fn error_kind(e: &BackendError) -> String {
    match e {
        BackendError::Upstream { status, .. } => format!("Upstream({status})"),
        other => other.code().as_str().to_owned(),
    }
}

impl Transcript {
    /// Records the answer of `step` and hands it back for the scenario's own checks.
    pub fn record<T: Serialize>(&mut self, step: &str, answer: Result<T, BackendError>) -> Result<T, BackendError> {
        let value = match &answer {
            Ok(v) => normalise(serde_json::to_value(v).expect("answers serialise")),
            Err(e) => json!({ "error": error_kind(e), "message": e.to_string() }),
        };
        self.steps.push((step.to_owned(), value));
        answer
    }

    /// Records a successful answer of `step`, failing the test when it is an error.
    pub fn ok<T: Serialize>(&mut self, step: &str, answer: Result<T, BackendError>) -> T {
        self.record(step, answer).unwrap_or_else(|e| panic!("{step}: {e:?}"))
    }

    /// Records an error answer of `step` and returns it, failing the test when it succeeded.
    pub fn err<T: Serialize + std::fmt::Debug>(&mut self, step: &str, answer: Result<T, BackendError>) -> BackendError {
        match self.record(step, answer) {
            Ok(v) => panic!("{step} should have failed but answered {v:?}"),
            Err(e) => e,
        }
    }

    /// Fails when `other` (from the backend named `target`) differs from this transcript in any step.
    pub fn assert_same_as(&self, other: &Transcript, target: &str) {
        for ((step, mine), (their_step, theirs)) in self.steps.iter().zip(&other.steps) {
            assert_eq!(step, their_step, "the scenario took another path over {target}");
            assert_eq!(mine, theirs, "step `{step}` answers differently over {target} than over LocalBackend");
        }
        assert_eq!(self.steps.len(), other.steps.len(), "the scenario ran a different number of steps over {target}");
    }
}

/// Replaces what legitimately differs between runs: timestamps (`created`, `at`) and search durations.
fn normalise(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), &v) {
                        ("created" | "at", Value::String(s)) if looks_like_a_timestamp(s) => json!("<timestamp>"),
                        ("message", Value::String(s)) if s.starts_with("took ") && s.ends_with(" ms") => {
                            json!("took N ms")
                        }
                        _ => normalise(v),
                    };
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(normalise).collect()),
        other => other,
    }
}

fn looks_like_a_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 20 && b[4] == b'-' && b[7] == b'-' && b[10] == b'T' && s.ends_with('Z')
}

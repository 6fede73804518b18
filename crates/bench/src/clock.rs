//! The clock of a build: consecutive named phases whose times add up to the whole, and the check that no
//! background work of a store (or of an engine compared) runs when a clock starts or is still running when it
//! stops. Work left running after a clock stops would be work moved off it, and would slow whatever is timed
//! next; so every side of a comparison is timed with one of these.

use std::fmt;
use std::time::{Duration, Instant};

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::BenchError;

/// Thread names of the compared engines' own background work: tantivy's indexing, document store compression,
/// segment updates and merges.
const TANTIVY_THREADS: [&str; 4] =
    ["thrd-tantivy-index", "docstore-compressor-thread", "segment_updater", "merge_thread"];

/// How long a thread pool that was just let go may take for its idle threads to end before they count as work
/// still running.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// The worker threads of a tokio runtime (the served store's and the pull's).
const RUNTIME_THREADS: &str = "tokio-runtime-worker";

/// Linux keeps the first 15 bytes of a thread's name.
const NAME_BYTES: usize = 15;

/// The threads of this process that do a store's or an engine's work in the background, by name, from
/// `/proc/self/task` (empty where /proc is missing). `runtime` also counts a tokio runtime's workers.
pub fn background_work(runtime: bool) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    let watched: Vec<&str> = studio_local::threads::BACKGROUND
        .iter()
        .chain(&TANTIVY_THREADS)
        .copied()
        .chain(runtime.then_some(RUNTIME_THREADS))
        .collect();
    let mut found: Vec<String> = tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok())
        .map(|name| name.trim_end().to_owned())
        .filter(|name| watched.iter().any(|w| w.get(..NAME_BYTES.min(w.len())).is_some_and(|w| name.starts_with(w))))
        .collect();
    found.sort();
    found
}

/// Fails when background work of a store or an engine runs (see [`background_work`]) for longer than
/// [`EXIT_GRACE`]; `when` says where.
pub fn ensure_quiet(when: &str, runtime: bool) -> Result<(), BenchError> {
    let started = Instant::now();
    loop {
        let running = background_work(runtime);
        if running.is_empty() {
            return Ok(());
        }
        if started.elapsed() > EXIT_GRACE {
            return Err(BenchError::Overlap { when: when.to_owned(), threads: running.join(", ") });
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Named phases in the order they ran, milliseconds each: serialised as one JSON object (phase → ms).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Phases(pub Vec<(String, f64)>);

impl Phases {
    /// The whole, in milliseconds.
    pub fn total_ms(&self) -> f64 {
        self.0.iter().map(|(_, ms)| ms).sum()
    }

    /// The time of the phase `name`, if it ran.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, ms)| *ms)
    }
}

impl fmt::Display for Phases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(name, ms)| format!("{name} {:.2} s", ms / 1000.0)).collect();
        write!(f, "{}", parts.join(" + "))
    }
}

impl Serialize for Phases {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, ms) in &self.0 {
            map.serialize_entry(name, ms)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Phases {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Phases;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of phase names and milliseconds")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Phases, A::Error> {
                let mut phases = Vec::new();
                while let Some(entry) = map.next_entry::<String, f64>()? {
                    phases.push(entry);
                }
                Ok(Phases(phases))
            }
        }
        deserializer.deserialize_map(InOrder)
    }
}

/// A clock running through consecutive phases. It starts only when no background work runs, and stops only
/// when none is left: what the phases started, they also waited for.
#[derive(Debug)]
pub struct Clock {
    what: String,
    phases: Phases,
    /// Whether a tokio runtime's workers are part of the timed work (the pull), so not counted as background.
    runtime: bool,
}

impl Clock {
    /// Starts the clock of `what` (e.g. "our import"), checking that nothing runs in the background.
    pub fn start(what: &str) -> Result<Clock, BenchError> {
        Clock::start_with(what, false)
    }

    /// The same for work that runs a tokio runtime itself (its workers are then not background work).
    pub fn start_with(what: &str, runtime: bool) -> Result<Clock, BenchError> {
        ensure_quiet(&format!("before {what}"), runtime)?;
        Ok(Clock { what: what.to_owned(), phases: Phases::default(), runtime })
    }

    /// Runs `work` as the next phase, `name`.
    pub fn phase<T>(&mut self, name: &str, work: impl FnOnce() -> Result<T, BenchError>) -> Result<T, BenchError> {
        let started = Instant::now();
        let out = work()?;
        self.phases.0.push((name.to_owned(), started.elapsed().as_secs_f64() * 1000.0));
        Ok(out)
    }

    /// Runs the future `work` as the next phase, `name`.
    pub async fn phase_async<T>(
        &mut self,
        name: &str,
        work: impl std::future::Future<Output = Result<T, BenchError>>,
    ) -> Result<T, BenchError> {
        let started = Instant::now();
        let out = work.await?;
        self.phases.0.push((name.to_owned(), started.elapsed().as_secs_f64() * 1000.0));
        Ok(out)
    }

    /// Stops the clock and returns its phases, checking that no background work is left running.
    pub fn stop(self) -> Result<Phases, BenchError> {
        ensure_quiet(&format!("after {}", self.what), self.runtime)?;
        Ok(self.phases)
    }
}

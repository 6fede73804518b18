//! Running another engine over the same corpus and query mix: build it, check that every answer agrees
//! with ours (totals and the count of every refiner we show), and only then time it.

use std::any::Any;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::clock::{ensure_quiet, Clock};
use crate::corpus::SynthCorpus;
use crate::error::BenchError;
use crate::report::EngineFigures;
use crate::timing::{measure, stats, KindStats};
use crate::workload::{Answer, Query, Workload};

/// Longest time spent checking, then timing, one kind of query on a compared engine (at least
/// [`MIN_RUNS`] are run); a slow engine is timed on the queries that were checked.
const TIME_BOX: Duration = Duration::from_secs(40);
const MIN_RUNS: usize = 5;

/// An engine's answer as it gives it, read into an [`Answer`] by [`Comparator::answer`] outside the clock.
pub type Found = Box<dyn Any>;

/// An engine answering the benchmark's queries, for the side-by-side comparison.
pub trait Comparator {
    /// Short name used in the report (`tantivy`, `naive`).
    fn name(&self) -> &str;
    /// Makes what the build reads, before its clock starts: the first `docs` documents of `corpus` in memory
    /// (the store in `dir` already holds them too).
    fn prepare(&mut self, corpus: &SynthCorpus, docs: usize, dir: &Path) -> Result<(), BenchError>;
    /// Builds the engine's index from what [`Comparator::prepare`] made, to searchable at full speed and on
    /// disk, in phases of `clock`.
    fn build(&mut self, clock: &mut Clock) -> Result<(), BenchError>;
    /// Searches on `threads` threads from now on; false when the engine searches on one thread only.
    fn set_threads(&mut self, threads: usize) -> Result<bool, BenchError>;
    /// Answers one query (timed): total, one page of results (fetched, not compared), and the facet counts
    /// of every group of the benchmark configuration, as the engine gives them.
    fn search(&mut self, query: &Query) -> Result<Found, BenchError>;
    /// Reads an answer of [`Comparator::search`] into the counts compared with ours (not timed).
    fn answer(&self, found: Found) -> Result<Answer, BenchError>;
}

/// Checks the answers to the queries, as many as fit in [`TIME_BOX`] (at least [`MIN_RUNS`]); returns
/// how many were checked. This pass also warms the engine up.
fn check(
    name: &str,
    kind: &'static str,
    c: &mut dyn Comparator,
    queries: &[Query],
    ours: &[Answer],
) -> Result<usize, BenchError> {
    let started = Instant::now();
    for (i, (q, reference)) in queries.iter().zip(ours).enumerate() {
        if i >= MIN_RUNS && started.elapsed() > TIME_BOX {
            return Ok(i);
        }
        let found = c.search(q)?;
        let theirs = c.answer(found)?;
        if let Some(diff) = reference.difference(&theirs) {
            return Err(BenchError::Disagrees {
                engine: name.to_owned(),
                kind,
                index: i,
                query: format!("{q:?}"),
                difference: diff,
            });
        }
    }
    Ok(queries.len().min(ours.len()))
}

/// Times `c` on `queries`; only the search is on the clock, its answer is let go after it.
fn time(kind: &str, c: &mut dyn Comparator, queries: &[Query]) -> Result<KindStats, BenchError> {
    ensure_quiet(&format!("before {}'s {kind}", c.name()), false)?;
    let mut samples = Vec::with_capacity(queries.len());
    for q in queries {
        let found = measure(&mut samples, || c.search(q))?;
        drop(found);
    }
    Ok(stats(kind, samples))
}

/// Builds `c` from documents made before its clock, checks its answers against ours, then times it on the
/// same queries, on one thread and, where it can, on two.
pub fn compare(
    c: &mut dyn Comparator,
    corpus: &SynthCorpus,
    docs: usize,
    dir: &Path,
    workload: &Workload,
    ours: (&[Answer], &[Answer]),
) -> Result<EngineFigures, BenchError> {
    let name = c.name().to_owned();
    c.prepare(corpus, docs, dir)?;
    let mut clock = Clock::start(&format!("{name}'s build"))?;
    c.build(&mut clock)?;
    let build_phases_ms = clock.stop()?;
    let n = check(&name, "search", c, &workload.searches, ours.0)?;
    let search = time("search", c, &workload.searches[..n])?;
    let m = check(&name, "facet-only", c, &workload.facet_only, ours.1)?;
    let facets_only = time("facets only", c, &workload.facet_only[..m])?;
    let (mut search_two_threads, mut facets_only_two_threads) = (None, None);
    if c.set_threads(2)? {
        search_two_threads = Some(time("search", c, &workload.searches[..n])?);
        facets_only_two_threads = Some(time("facets only", c, &workload.facet_only[..m])?);
        c.set_threads(1)?;
    }
    Ok(EngineFigures {
        engine: name,
        build_s: build_phases_ms.total_ms() / 1000.0,
        build_phases_ms,
        search,
        facets_only,
        search_two_threads,
        facets_only_two_threads,
    })
}

//! Running another engine over the same corpus and query mix: build it, check that every answer agrees
//! with ours (totals and the count of every refiner we show), and only then time it.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::corpus::SynthCorpus;
use crate::error::BenchError;
use crate::report::EngineFigures;
use crate::timing::{measure, stats, KindStats};
use crate::workload::{Answer, Query, Workload};

/// Longest time spent checking, then timing, one kind of query on a compared engine (at least
/// [`MIN_RUNS`] are run); a slow engine is timed on the queries that were checked.
const TIME_BOX: Duration = Duration::from_secs(40);
const MIN_RUNS: usize = 5;

/// An engine answering the benchmark's queries, for the side-by-side comparison.
pub trait Comparator {
    /// Short name used in the report (`tantivy`, `naive`).
    fn name(&self) -> &str;
    /// Indexes the first `docs` documents of `corpus` (the store in `dir` already holds them).
    fn build(&mut self, corpus: &SynthCorpus, docs: usize, dir: &Path) -> Result<(), BenchError>;
    /// Answers one query: total, one page of results (fetched, not compared), and the facet counts of
    /// every group of the benchmark configuration.
    fn search(&mut self, query: &Query) -> Result<Answer, BenchError>;
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
        let theirs = c.search(q)?;
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

fn time(kind: &str, c: &mut dyn Comparator, queries: &[Query]) -> Result<KindStats, BenchError> {
    let mut samples = Vec::with_capacity(queries.len());
    for q in queries {
        measure(&mut samples, || c.search(q))?;
    }
    Ok(stats(kind, samples))
}

/// Builds `c`, checks its answers against ours, then times it on the same queries.
pub fn compare(
    c: &mut dyn Comparator,
    corpus: &SynthCorpus,
    docs: usize,
    dir: &Path,
    workload: &Workload,
    ours: (&[Answer], &[Answer]),
) -> Result<EngineFigures, BenchError> {
    let name = c.name().to_owned();
    let started = Instant::now();
    c.build(corpus, docs, dir)?;
    let build_s = started.elapsed().as_secs_f64();
    let n = check(&name, "search", c, &workload.searches, ours.0)?;
    let search = time("search", c, &workload.searches[..n])?;
    let n = check(&name, "facet-only", c, &workload.facet_only, ours.1)?;
    let facets_only = time("facets only", c, &workload.facet_only[..n])?;
    Ok(EngineFigures { engine: name, build_s, search, facets_only })
}

//! `studio-bench --text-build`: the full-text index's build beside FTS5's, on the same texts (docs/performance.md,
//! "The full-text index's build"). The corpus's titles, descriptions and bodies are made in memory before either
//! clock; each side is timed from the first document to an index that is on disk (synced) and in one segment:
//! - FTS5 as the store had it ([`crate::fts5::SCHEMA`]: contentless, no automatic merges, 16 MB of pending
//!   terms), in WAL mode with `synchronous = FULL`: every document inserted in one transaction, the index
//!   optimized into one segment, the transaction committed; on one thread, which is all FTS5 can use;
//! - the engine's own index (`studio-text`) on one thread (one builder, then a merge of the segments it wrote),
//!   and on two (two builders on two threads taking alternate batches, then a merge on two threads).

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use studio_text::TextIndex;

use crate::clock::{Clock, Phases};
use crate::corpus::SynthCorpus;
use crate::error::BenchError;
use crate::timing::load_average;

/// The memory all builders together hold documents in before writing a segment: each of `n` builders gets an
/// `n`-th of it.
pub const TEXT_BUDGET: usize = 256 << 20;
/// Documents a builder takes at a time when two build side by side (an import's batch; fewer in a corpus too
/// small to give each builder two).
const BATCH: usize = 5_000;

/// The figures of one `--text-build` run.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TextBuildReport {
    pub docs: u64,
    /// FTS5's build: `insert`, `optimize`, `commit` (milliseconds each).
    pub fts5_phases_ms: Phases,
    pub fts5_seconds: f64,
    /// Ours on one thread: `build` (documents added, segments written on the way), `write` (the last segment),
    /// `add` (the manifest naming them), `merge` (into one segment, the manifest replaced, the old files removed).
    pub text_one_thread_phases_ms: Phases,
    pub text_one_thread_seconds: f64,
    /// Ours on two threads: `build` (both builders, each writing its last segment), `add`, `merge` (on two threads,
    /// each merging half of the terms).
    pub text_two_threads_phases_ms: Phases,
    pub text_two_threads_seconds: f64,
    /// FTS5's time ÷ ours on one thread (above 1, ours is faster).
    pub text_one_thread_vs_fts5: f64,
    /// FTS5's time (one thread) ÷ ours on two threads.
    pub text_two_threads_vs_fts5: f64,
    /// Segments the builders wrote before the merge, on one thread and on two.
    pub text_segments_written: [usize; 2],
    /// The files' sizes at the end, in MB: FTS5's database, our index's directory.
    pub fts5_file_mb: f64,
    pub text_index_mb: f64,
    pub load_average: String,
}

impl fmt::Display for TextBuildReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "full-text build of {} documents (on disk and in one segment)", self.docs)?;
        writeln!(f, "  FTS5, one thread        {:>8.2} s  ({})", self.fts5_seconds, self.fts5_phases_ms)?;
        let [one, two] = self.text_segments_written;
        let (s1, p1) = (self.text_one_thread_seconds, &self.text_one_thread_phases_ms);
        writeln!(f, "  ours, one thread        {s1:>8.2} s  ({p1}; {one} segments merged)")?;
        let (s2, p2) = (self.text_two_threads_seconds, &self.text_two_threads_phases_ms);
        writeln!(f, "  ours, two threads       {s2:>8.2} s  ({p2}; {two} segments merged)")?;
        writeln!(
            f,
            "  FTS5 ÷ ours             {:.2} (one thread), {:.2} (two threads)",
            self.text_one_thread_vs_fts5, self.text_two_threads_vs_fts5
        )?;
        writeln!(f, "  size                    FTS5 {:.1} MB, ours {:.1} MB", self.fts5_file_mb, self.text_index_mb)?;
        writeln!(f, "  load average            {}", self.load_average)
    }
}

/// The three texts of a document.
type Texts = [String; 3];

/// Times the builds of `docs` documents of the corpus of `seed`, in directories under `dir`.
pub fn run(dir: &Path, docs: usize, seed: u64) -> Result<TextBuildReport, BenchError> {
    let corpus = SynthCorpus::new(seed);
    let texts: Vec<Texts> = (0..docs)
        .map(|i| {
            let d = corpus.doc(i);
            [d.title, d.description, d.content]
        })
        .collect();
    std::fs::create_dir_all(dir).map_err(BenchError::file("create", dir))?;
    let fts5 = fts5_build(&dir.join("fts5.db"), &texts)?;
    let (one, one_segments) = text_build(&dir.join("text-one-thread"), &texts, 1)?;
    let (two, two_segments) = text_build(&dir.join("text-two-threads"), &texts, 2)?;
    let (fts5_seconds, one_s, two_s) = (fts5.total_ms() / 1e3, one.total_ms() / 1e3, two.total_ms() / 1e3);
    Ok(TextBuildReport {
        docs: docs as u64,
        fts5_phases_ms: fts5,
        fts5_seconds,
        text_one_thread_phases_ms: one,
        text_one_thread_seconds: one_s,
        text_two_threads_phases_ms: two,
        text_two_threads_seconds: two_s,
        text_one_thread_vs_fts5: fts5_seconds / one_s.max(1e-9),
        text_two_threads_vs_fts5: fts5_seconds / two_s.max(1e-9),
        text_segments_written: [one_segments, two_segments],
        fts5_file_mb: size_mb(&dir.join("fts5.db"))? + size_mb(&dir.join("fts5.db-wal"))?,
        text_index_mb: size_mb(&dir.join("text-two-threads"))?,
        load_average: load_average(),
    })
}

/// FTS5's build of `texts` into the database file `path`.
fn fts5_build(path: &Path, texts: &[Texts]) -> Result<Phases, BenchError> {
    let conn = rusqlite::Connection::open(path)?;
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
    conn.execute_batch("PRAGMA synchronous = FULL;")?;
    conn.execute_batch(crate::fts5::SCHEMA)?;
    let mut clock = Clock::start("FTS5's build")?;
    clock.phase("insert", || {
        conn.execute_batch("BEGIN")?;
        let mut insert =
            conn.prepare("INSERT INTO documents_fts (rowid, title, description, body) VALUES (?1, ?2, ?3, ?4)")?;
        for (row, [title, description, body]) in texts.iter().enumerate() {
            insert.execute(rusqlite::params![row as i64 + 1, title, description, body])?;
        }
        Ok(())
    })?;
    clock.phase("optimize", || {
        Ok(conn.execute_batch("INSERT INTO documents_fts (documents_fts) VALUES ('optimize')")?)
    })?;
    clock.phase("commit", || Ok(conn.execute_batch("COMMIT")?))?;
    clock.stop()
}

/// Our build of `texts` into a new index in `dir` with `threads` builders; returns its phases and the segments
/// the builders wrote.
fn text_build(dir: &Path, texts: &[Texts], threads: usize) -> Result<(Phases, usize), BenchError> {
    let mut index = TextIndex::open(dir)?;
    let budget = TEXT_BUDGET / threads;
    let mut clock = Clock::start(&format!("our full-text build on {threads} threads"))?;
    let segments = if threads == 1 {
        let mut builder = index.builder().budget(budget);
        clock.phase("build", || {
            for (row, t) in texts.iter().enumerate() {
                builder.add(row as u64 + 1, fields(t))?;
            }
            Ok(())
        })?;
        clock.phase("write", || Ok(builder.finish()?))?
    } else {
        let builders: Vec<_> = (0..threads).map(|_| index.builder().budget(budget)).collect();
        let batch = BATCH.min(texts.len().div_ceil(2 * threads)).max(1);
        clock.phase("build", || {
            std::thread::scope(|s| {
                let running: Vec<_> = builders
                    .into_iter()
                    .enumerate()
                    .map(|(b, mut builder)| {
                        s.spawn(move || {
                            let batches = texts.chunks(batch).enumerate().skip(b).step_by(threads);
                            for (k, chunk) in batches {
                                for (i, t) in chunk.iter().enumerate() {
                                    builder.add((k * batch + i) as u64 + 1, fields(t))?;
                                }
                            }
                            builder.finish()
                        })
                    })
                    .collect();
                let mut all = Vec::new();
                for thread in running {
                    all.extend(thread.join().map_err(|_| BenchError::TextThread)??);
                }
                Ok(all)
            })
        })?
    };
    let written = segments.len();
    clock.phase("add", || Ok(index.add(segments)?))?;
    // Merged on as many threads as built.
    clock.phase("merge", || Ok(index.merge_on(threads)?))?;
    Ok((clock.stop()?, written))
}

/// The texts of a document as a builder takes them.
fn fields(t: &Texts) -> [&str; 3] {
    [&t[0], &t[1], &t[2]]
}

/// The size of a file, or of the files of a directory, in MB (0 for one that is not there).
fn size_mb(path: &Path) -> Result<f64, BenchError> {
    let bytes = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            let mut sum = 0;
            for entry in std::fs::read_dir(path).map_err(BenchError::file("list", path))? {
                sum += entry.map_err(BenchError::file("list", path))?.metadata().map_or(0, |m| m.len());
            }
            sum
        }
        Ok(m) => m.len(),
        Err(_) => 0,
    };
    Ok(bytes as f64 / (1 << 20) as f64)
}

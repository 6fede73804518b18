//! `import`, `import-concepts`, `demo-data` and `bench`: filling the local store, and measuring it.

use std::fs::File;
use std::io::{BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use studio_local::{demo, import_concepts, import_documents, os_caller, ImportReport, LocalBackend, Store};
use studio_model::Backend;

use super::{runtime, Cli, CliError};

/// Counts the bytes read through it, so progress can be shown as a share of the file.
struct CountingReader<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Progress on stderr when it is a terminal; silent otherwise.
struct Progress {
    shown: bool,
    total_bytes: u64,
    read: Arc<AtomicU64>,
}

impl Progress {
    fn new(total_bytes: u64) -> Progress {
        Progress { shown: std::io::stderr().is_terminal(), total_bytes, read: Arc::new(AtomicU64::new(0)) }
    }

    fn update(&self, lines: u64) {
        if !self.shown {
            return;
        }
        let bytes = self.read.load(Ordering::Relaxed);
        let share = if self.total_bytes > 0 { (bytes as f64 / self.total_bytes as f64).min(1.0) } else { 1.0 };
        let filled = (share * 30.0) as usize;
        eprint!("\r[{}{}] {:>3}%  {lines} lines", "#".repeat(filled), " ".repeat(30 - filled), (share * 100.0) as u32);
        let _ = std::io::stderr().flush();
    }

    fn finish(&self) {
        if self.shown {
            eprintln!();
        }
    }
}

fn open(path: &Path) -> Result<(File, u64), CliError> {
    let io = |source| CliError::Io { what: "cannot read", path: path.display().to_string(), source };
    let file = File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    Ok((file, size))
}

/// Runs an import of `file` with a progress bar, then reports skipped lines on stderr.
fn import_file(
    file: &Path,
    work: impl FnOnce(BufReader<CountingReader<File>>, &mut dyn FnMut(u64)) -> Result<ImportReport, studio_local::StoreError>,
) -> Result<ImportReport, CliError> {
    let (handle, size) = open(file)?;
    let progress = Progress::new(size);
    let reader = BufReader::with_capacity(1 << 16, CountingReader { inner: handle, read: progress.read.clone() });
    let report = work(reader, &mut |lines| progress.update(lines));
    progress.finish();
    let report = report?;
    for error in &report.errors {
        eprintln!("{}:{}: {} (line skipped)", file.display(), error.line, error.message);
    }
    if report.skipped > report.errors.len() as u64 {
        eprintln!("… and {} more lines skipped", report.skipped - report.errors.len() as u64);
    }
    Ok(report)
}

pub fn import(cli: &Cli, search_space: &str, file: &Path) -> Result<(), CliError> {
    let store = Store::open_dir(&cli.data_dir()?)?;
    let report = import_file(file, |reader, progress| import_documents(&store, search_space, reader, progress))?;
    println!("imported {} documents into {search_space}", report.imported);
    Ok(())
}

pub fn import_concepts_file(cli: &Cli, file: &Path) -> Result<(), CliError> {
    let store = Store::open_dir(&cli.data_dir()?)?;
    let report = import_file(file, |reader, progress| import_concepts(&store, reader, progress))?;
    println!("imported {} concepts", report.imported);
    Ok(())
}

/// Loads the demo search space, and its configuration unless one for the demo space already exists.
pub fn demo_data(cli: &Cli) -> Result<(), CliError> {
    let store = Store::open_dir(&cli.data_dir()?)?;
    let progress = Progress::new(demo::DEMO_DOCUMENTS as u64);
    let report = demo::load_demo(&store, &mut |lines| {
        progress.read.store(lines, Ordering::Relaxed);
        progress.update(lines);
    })?;
    progress.finish();
    println!("imported {} documents into {}", report.documents.imported, demo::DEMO_SPACE);
    let backend = LocalBackend::new(store);
    let rt = runtime()?;
    let existing = rt.block_on(backend.list_configurations())?;
    match existing.configurations.iter().find(|c| c.config.search_space == demo::DEMO_SPACE) {
        Some(config) => println!("configuration {} already uses {}", config.id.unwrap_or_default(), demo::DEMO_SPACE),
        None => {
            let outcome = rt.block_on(backend.create_configuration(&os_caller(), demo::demo_configuration()))?;
            println!("created configuration {} ({})", outcome.config.id.unwrap_or_default(), outcome.config.config.title);
        }
    }
    Ok(())
}

/// `studio bench`. The benchmark lives in the separate `studio-bench` binary (so that `studio` links
/// neither it nor tantivy): it runs the whole benchmark with the same arguments when it is installed
/// next to `studio`.
pub fn bench(cli: &Cli, docs: usize, json: bool, dir: Option<PathBuf>) -> Result<(), CliError> {
    let Some(program) = sibling_bench() else {
        return Err(CliError::Server(
            "studio-bench is not installed next to studio (cargo build --release -p studio-bench)".into(),
        ));
    };
    let (dir, scratch) = match dir {
        Some(dir) => (dir, false),
        None => (tempdir_in(&cli.data_dir()?)?, true),
    };
    let result = delegate(&program, docs, json, &dir);
    if scratch {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

/// The `studio-bench` executable in the directory of the running `studio`, if there is one.
fn sibling_bench() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let program = exe.with_file_name(format!("studio-bench{}", std::env::consts::EXE_SUFFIX));
    program.is_file().then_some(program)
}

/// Runs `studio-bench` with the benchmark's arguments; its output is ours.
fn delegate(program: &Path, docs: usize, json: bool, dir: &Path) -> Result<(), CliError> {
    let mut command = std::process::Command::new(program);
    command.args(["--docs", &docs.to_string(), "--dir"]).arg(dir);
    if json {
        command.arg("--json");
    }
    let status = command
        .status()
        .map_err(|source| CliError::Io { what: "cannot run", path: program.display().to_string(), source })?;
    if status.success() {
        Ok(())
    } else {
        Err(CliError::Server(format!("{} failed ({status})", program.display())))
    }
}

/// A fresh directory for a benchmark's store under the data directory, removed after the run. It is
/// always a new directory made here: a name that already exists (a leftover, or a link planted to point
/// elsewhere) is never reused, so the run cannot write into, or its clean-up delete, anything else.
fn tempdir_in(parent: &Path) -> Result<PathBuf, CliError> {
    std::fs::create_dir_all(parent)
        .map_err(|source| CliError::Io { what: "cannot create", path: parent.display().to_string(), source })?;
    let mut attempt = 0u32;
    loop {
        let dir = parent.join(format!("bench-{}-{attempt}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
            Err(source) => return Err(CliError::Io { what: "cannot create", path: dir.display().to_string(), source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tempdir_in;

    #[test]
    fn a_bench_directory_is_always_new_and_inside_the_data_directory() {
        let root = tempfile::tempdir().unwrap();
        let (data, elsewhere) = (root.path().join("data"), root.path().join("elsewhere"));
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::create_dir_all(&data).unwrap();
        // A leftover directory and a planted link under the names a run would try first.
        std::fs::create_dir(data.join(format!("bench-{}-0", std::process::id()))).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&elsewhere, data.join(format!("bench-{}-1", std::process::id()))).unwrap();
        let dir = tempdir_in(&data).unwrap();
        assert_eq!(dir.parent(), Some(data.as_path()));
        assert!(std::fs::symlink_metadata(&dir).unwrap().is_dir(), "a real directory, not a link");
        assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "and an empty one");
        assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());
    }
}

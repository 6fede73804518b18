//! `import`, `import-concepts` and `demo-data`: filling the local store.

use std::fs::File;
use std::io::{BufReader, IsTerminal, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use studio_local::demo::{self, DemoConfiguration};
use studio_local::{import_concepts, import_documents, ImportReport, Store};

use super::{Cli, CliError};

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
    work: impl FnOnce(
        BufReader<CountingReader<File>>,
        &mut dyn FnMut(u64),
    ) -> Result<ImportReport, studio_local::StoreError>,
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
    let backend = cli.local_backend()?;
    let progress = Progress::new(demo::DEMO_DOCUMENTS as u64);
    let report = demo::load_demo_data(
        &backend,
        &mut |lines| {
            progress.read.store(lines, Ordering::Relaxed);
            progress.update(lines);
        },
        &AtomicBool::new(false),
    );
    progress.finish();
    let report = report?;
    println!("imported {} documents into {}", report.data.documents.imported, demo::DEMO_SPACE);
    match report.configuration {
        DemoConfiguration::Existing { id } => println!("configuration {id} already uses {}", demo::DEMO_SPACE),
        DemoConfiguration::Created { id, title } => println!("created configuration {id} ({title})"),
    }
    Ok(())
}

//! `import`, `import-concepts` and `demo-data`: filling the local store.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use indicatif::ProgressBarIter;
use studio_local::demo::{self, DemoConfiguration};
use studio_local::{import_concepts, import_documents, ImportReport, Store};

use crate::error::CliError;
use crate::global_args::GlobalArgs;
use crate::progress;

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
        BufReader<ProgressBarIter<File>>,
        &mut dyn FnMut(u64),
    ) -> Result<ImportReport, studio_local::StoreError>,
) -> Result<ImportReport, CliError> {
    let (handle, size) = open(file)?;
    let bar = progress::file(size);
    let reader = BufReader::with_capacity(1 << 16, bar.wrap_read(handle));
    let report = work(reader, &mut |lines| progress::lines(&bar, lines));
    bar.finish_and_clear();
    let report = report?;
    for error in &report.errors {
        eprintln!("{}:{}: {} (line skipped)", file.display(), error.line, error.message);
    }
    if report.skipped > report.errors.len() as u64 {
        eprintln!("… and {} more lines skipped", report.skipped - report.errors.len() as u64);
    }
    Ok(report)
}

/// Closes the store after an import that succeeded; a failure to close loses nothing (the log is read at
/// the next start), so it is said, not reported as the import's failure.
fn close(store: Store) {
    if let Err(e) = store.close() {
        eprintln!("note: the store was not closed cleanly ({e}); nothing is lost: its log is read at the next start");
    }
}

pub fn import(global: &GlobalArgs, search_space: &str, file: &Path) -> Result<(), CliError> {
    let store = Store::open_dir(&global.data_dir()?)?;
    let report = import_file(file, |reader, progress| {
        // A full disk names the documents file; the batches written before it stay.
        import_documents(&store, search_space, reader, progress).map_err(|e| e.at(store.documents_path()))
    })?;
    println!("imported {} documents into {search_space}", report.imported);
    close(store);
    Ok(())
}

pub fn import_concepts_file(global: &GlobalArgs, file: &Path) -> Result<(), CliError> {
    let store = Store::open_dir(&global.data_dir()?)?;
    let report = import_file(file, |reader, progress| {
        import_concepts(&store, reader, progress).map_err(|e| e.at(store.documents_path()))
    })?;
    println!("imported {} concepts", report.imported);
    close(store);
    Ok(())
}

/// Loads the demo search space, and its configuration unless one for the demo space already exists.
pub fn demo_data(global: &GlobalArgs) -> Result<(), CliError> {
    let backend = global.local_backend()?;
    let bar = progress::documents(demo::DEMO_DOCUMENTS as u64);
    let report = demo::load_demo_data(&backend, &mut |lines| bar.set_position(lines), &AtomicBool::new(false));
    bar.finish_and_clear();
    let report = report?;
    println!("imported {} documents into {}", report.data.documents.imported, demo::DEMO_SPACE);
    match report.configuration {
        DemoConfiguration::Existing { id } => println!("configuration {id} already uses {}", demo::DEMO_SPACE),
        DemoConfiguration::Created { id, title } => println!("created configuration {id} ({title})"),
    }
    Ok(())
}

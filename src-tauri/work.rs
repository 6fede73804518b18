//! Long work off the UI thread: importing a documents file, loading the demo data and taking a remote search
//! space offline. Each runs as one of the [`Tasks`], reports its [`Progress`] and stops when asked; batches
//! already written stay written. A failure's message reaches the event once, from its typed error ([`TaskError`]).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use studio_local::demo::{self, DemoError};
use studio_local::{import_documents, os_caller, LocalBackend, StoreError};
use studio_model::ErrorCode;
use studio_sync::pull::Resume;

use crate::error::IpcError;
use crate::state::{BackendSlot, Progress, Tasks};

/// A reader that fails once its task is asked to stop, which ends the import between two lines.
struct Cancellable<R> {
    inner: R,
    cancel: Arc<AtomicBool>,
}

impl<R: Read> Read for Cancellable<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("cancelled"));
        }
        self.inner.read(buf)
    }
}

/// Why a task failed; its message is what the task's progress event says.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Demo(#[from] DemoError),
    /// A pull that failed, with what can still finish it.
    #[error("{}{}", .0, advice(.0))]
    Pull(#[from] studio_sync::SyncError),
}

/// What is said after the message of a pull that failed with `error`, when taking it offline again can finish it.
fn advice(error: &studio_sync::SyncError) -> String {
    Resume::after(error)
        .map_or_else(String::new, |r| format!("; {}", r.advice("take it offline again", "sign in again")))
}

/// What a task does, given a progress callback and its cancel flag.
type Job = Box<dyn FnOnce(&LocalBackend, &mut dyn FnMut(u64), Arc<AtomicBool>) -> Result<String, TaskError> + Send>;

/// Starts `job` on the blocking pool and returns its task id at once.
fn spawn(tasks: &Tasks, local: &LocalBackend, label: String, total: Option<u64>, job: Job) -> u64 {
    let (task_id, cancel) = tasks.start();
    let (tasks, local) = (tasks.clone(), local.clone());
    tauri::async_runtime::spawn_blocking(move || {
        let report = |done: u64, finished: bool, error: Option<String>, cancelled: bool, message: Option<String>| {
            tasks.report(Progress { task_id, label: label.clone(), done, total, finished, error, cancelled, message });
        };
        let mut last = 0;
        let outcome = job(
            &local,
            &mut |done| {
                last = done;
                report(done, false, None, false, None);
            },
            cancel.clone(),
        );
        let cancelled = cancel.load(Ordering::Relaxed);
        match outcome {
            Ok(message) => report(last, true, None, false, Some(message)),
            Err(_) if cancelled => report(last, true, None, true, None),
            Err(error) => report(last, true, Some(error.to_string()), false, None),
        }
        tasks.finish(task_id);
    });
    task_id
}

/// `n` lines, in words.
fn lines(n: u64) -> String {
    if n == 1 {
        "1 line".to_owned()
    } else {
        format!("{n} lines")
    }
}

/// Imports a JSON Lines documents file into `search_space` of the local store.
pub fn start_import(tasks: &Tasks, local: &LocalBackend, path: PathBuf, search_space: String) -> Result<u64, IpcError> {
    let search_space = search_space.trim().to_owned();
    if search_space.is_empty() {
        return Err(IpcError::new(ErrorCode::BadRequest, "name the search space to import into"));
    }
    let file = File::open(&path)
        .map_err(|e| IpcError::new(ErrorCode::Task, format!("cannot read {}: {e}", path.display())))?;
    let label = format!("Importing {} into {search_space}", path.file_name().unwrap_or_default().to_string_lossy());
    Ok(spawn(
        tasks,
        local,
        label,
        None,
        Box::new(move |local, progress, cancel| {
            let reader = BufReader::new(Cancellable { inner: file, cancel });
            let report = import_documents(local.store(), &search_space, reader, progress)?;
            let skipped = match report.errors.first() {
                Some(first) => format!("; {} skipped ({first})", lines(report.skipped)),
                None => String::new(),
            };
            Ok(format!("imported {} documents into {search_space}{skipped}", report.imported))
        }),
    ))
}

/// Loads the demo search space, and its configuration unless one for the demo space exists.
pub fn start_demo_load(tasks: &Tasks, local: &LocalBackend) -> u64 {
    let label = "Loading the demo search space".to_owned();
    spawn(
        tasks,
        local,
        label,
        Some(demo::DEMO_DOCUMENTS as u64),
        Box::new(|local, progress, cancel| Ok(load_demo(local, progress, cancel)?)),
    )
}

/// The demo load itself, also run on first launch: the whole demo (studio_local's one loader), with the
/// task's progress and cancel flag.
pub fn load_demo(
    local: &LocalBackend,
    progress: &mut dyn FnMut(u64),
    cancel: Arc<AtomicBool>,
) -> Result<String, DemoError> {
    let report = demo::load_demo_data(local, progress, &cancel)?;
    Ok(format!("imported {} documents into {}", report.data.documents.imported, demo::DEMO_SPACE))
}

/// Pulls configuration `id` of the current remote server, and the documents its search returns, into the
/// local store; a cancelled pull resumes at the next start.
pub fn start_pull(tasks: &Tasks, slot: &BackendSlot, id: i32) -> Result<u64, IpcError> {
    let (remote, key) = slot.get_keyed();
    if key == studio_sync::LOCAL_KEY {
        return Err(IpcError::new(
            ErrorCode::BadRequest,
            "taking a search space offline needs a remote server; switch to one first",
        ));
    }
    let label = format!("Taking configuration {id} of {key} offline");
    Ok(spawn(
        tasks,
        slot.local(),
        label,
        None,
        Box::new(move |local, progress, cancel| {
            let mut report = |done: u64, _total: u64| progress(done);
            let pulled = tauri::async_runtime::block_on(studio_sync::pull::pull(
                local,
                remote.as_ref(),
                &key,
                id,
                &os_caller(),
                &mut report,
                &cancel,
            ))?;
            let skipped = match (pulled.skipped_note(), pulled.skipped_documents.first()) {
                (Some(note), Some(first)) => format!("; {note} ({first})"),
                _ => String::new(),
            };
            let partial = pulled.partial_note().map(|note| format!("; {note}")).unwrap_or_default();
            Ok(format!(
                "pulled {} documents into {} as local configuration {}{skipped}{partial}",
                pulled.documents, pulled.search_space, pulled.local_id
            ))
        }),
    ))
}

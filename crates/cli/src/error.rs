//! Why a command of `studio` failed: one error type for every subcommand, whose message is the one line
//! `main` prints on stderr and which decides the exit code. It sits below every subcommand, so that
//! each returns it without importing `main`.

use std::path::PathBuf;
use std::process::{ExitCode, ExitStatus};

use studio_local::StoreError;
use studio_model::BackendError;

/// Why a command failed; the message is the one line shown on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("no data directory: set --data-dir or SEARCH_STUDIO_DATA_DIR (the OS data directory is unknown)")]
    NoDataDir,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error(transparent)]
    Auth(#[from] studio_server::auth::AuthFileError),
    #[error(transparent)]
    Demo(#[from] studio_local::demo::DemoError),
    #[error(transparent)]
    Bench(#[from] BenchError),
    #[error("{0}")]
    Input(String),
    /// Settings that do not go together: a usage error, as clap's own (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written; a full disk is worded as every full disk is.
    #[error("{}", studio_model::file_error_message(what, path, source))]
    Io { what: &'static str, path: String, source: std::io::Error },
    #[error("{0}")]
    Server(String),
    #[error("the store has {0} problem(s), listed above; run `studio recover`")]
    Unhealthy(usize),
}

impl CliError {
    /// The process's exit code for this failure: a usage error that studio-bench reported is one here too.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Bench(BenchError::Failed(status)) if status.code() == Some(USAGE_ERROR) => {
                ExitCode::from(USAGE_ERROR as u8)
            }
            CliError::Usage(_) => ExitCode::from(USAGE_ERROR as u8),
            _ => ExitCode::FAILURE,
        }
    }
}

/// The exit code of a usage error, as clap gives it.
const USAGE_ERROR: i32 = 2;

/// Why `studio bench` could not run the benchmark.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("{} is not there: build it with `cargo build -p studio-bench` (studio bench runs it)", .0.display())]
    NotBuilt(PathBuf),
    #[error("studio-bench failed ({0})")]
    Failed(ExitStatus),
}

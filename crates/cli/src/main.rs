//! `studio`: Search Studio without a window — the API server and the command-line tools over the local
//! store. Exit codes: 0 success, 2 usage error, 1 failure with one line on stderr naming the problem.
//!
//! This file parses the command line and dispatches; each subcommand lives in its own module and returns a
//! [`CliError`], which only `main` prints.

mod bench;
mod config_files;
mod data;
mod manuals;
mod progress;
mod pull;
mod repair;
mod serve;
mod signin;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use studio_local::{LocalBackend, Store, StoreError};
use studio_model::BackendError;

/// Search Studio without a window: serve the API, and move data in and out of the local store.
#[derive(Parser)]
#[command(name = "studio", version, about)]
pub struct Cli {
    /// Data directory holding the local store [default: the OS data directory, ~/.local/share/search-studio]
    #[arg(long, global = true, env = "SEARCH_STUDIO_DATA_DIR", value_name = "DIR")]
    data_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API under /api, its OpenAPI document at /api-docs, /healthz, /readyz, /metrics, and the web UI
    /// at /; as a service: a configuration file, systemd readiness, SIGHUP reloads the auth file and
    /// the settings that can change while it runs
    Serve(Box<serve::ServeArgs>),
    /// Write one configuration envelope (or, with --all, a bundle of every configuration) as JSON to FILE,
    /// or to standard output
    #[command(override_usage = "studio export-config ID [FILE]\n       studio export-config --all [FILE]")]
    ExportConfig {
        /// ID [FILE], or with --all only [FILE]
        #[arg(value_name = "ID [FILE]", num_args = 0..=2)]
        args: Vec<String>,
        /// Write every configuration as one bundle {"format": "search-studio/configurations", "version": 1, ...}
        #[arg(long)]
        all: bool,
    },
    /// Store the configurations in FILE (one envelope, or a bundle written by export-config --all) as new
    /// configurations; existing ones are never replaced
    ImportConfig {
        /// A JSON file holding a configuration envelope or a bundle of them
        file: PathBuf,
    },
    /// Copy a configuration of a remote server and the documents its search returns into the local store
    /// (token in STUDIO_REMOTE_TOKEN, or signed in through --issuer); an interrupted pull resumes where it
    /// stopped
    Pull(pull::PullArgs),
    /// Load documents (JSON Lines, one document per line) into a search space of the local store
    Import {
        /// The search space to load them into
        #[arg(long, value_name = "ID")]
        search_space: String,
        /// The JSON Lines file
        file: PathBuf,
    },
    /// Load a concept scheme (JSON Lines of {"uri", "label", "broader": [...]}) into the local store
    ImportConcepts {
        /// The JSON Lines file
        file: PathBuf,
    },
    /// Load the bundled demo search space `demo` and one configuration using it
    DemoData,
    /// Check the local store thoroughly: both files' integrity, and the configurations against the newest
    /// backup; exits 1 naming each problem and what to do
    Check,
    /// Rebuild a damaged local store from what can be read and the newest backup (the damaged file is moved
    /// aside, never deleted), and say what was saved and which search spaces to import again
    Recover,
    /// Measure import and search speed on a generated corpus, beside tantivy and a naive SQLite approach,
    /// with the studio-bench program installed next to studio
    Bench(bench::BenchArgs),
}

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
    Bench(#[from] bench::BenchError),
    #[error("{0}")]
    Input(String),
    /// Settings that do not go together: a usage error, as clap's own (exit code 2).
    #[error("{0}")]
    Usage(String),
    #[error("{what} {path}: {source}")]
    Io { what: &'static str, path: String, source: std::io::Error },
    #[error("{0}")]
    Server(String),
    #[error("the store has {0} problem(s), listed above; run `studio recover`")]
    Unhealthy(usize),
}

impl CliError {
    /// The process's exit code for this failure: a usage error that studio-bench reported is one here too.
    fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Bench(bench::BenchError::Failed(status)) if status.code() == Some(USAGE_ERROR) => {
                ExitCode::from(USAGE_ERROR as u8)
            }
            CliError::Usage(_) => ExitCode::from(USAGE_ERROR as u8),
            _ => ExitCode::FAILURE,
        }
    }
}

/// The exit code of a usage error, as clap gives it.
const USAGE_ERROR: i32 = 2;

impl Cli {
    /// The data directory: `--data-dir`, else `SEARCH_STUDIO_DATA_DIR`, else the OS data directory's
    /// `search-studio` (README, the CLI's data directory).
    fn data_dir(&self) -> Result<PathBuf, CliError> {
        match &self.data_dir {
            Some(dir) => Ok(dir.clone()),
            None => studio_local::default_data_dir().ok_or(CliError::NoDataDir),
        }
    }

    fn local_backend(&self) -> Result<LocalBackend, CliError> {
        Ok(LocalBackend::new(Store::open_dir(&self.data_dir()?)?))
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Server(format!("cannot start the async runtime: {e}")))
}

pub fn run(cli: Cli, matches: &clap::ArgMatches) -> Result<(), CliError> {
    match &cli.command {
        // Which of serve's settings were given (a flag, a variable) decides what its configuration file sets.
        Command::Serve(args) => serve::run(&cli, args, matches.subcommand_matches("serve").unwrap_or(matches)),
        Command::ExportConfig { args, all } => config_files::export(&cli, args, *all),
        Command::Pull(args) => pull::run(&cli, args),
        Command::ImportConfig { file } => config_files::import(&cli, file),
        Command::Import { search_space, file } => data::import(&cli, search_space, file),
        Command::ImportConcepts { file } => data::import_concepts_file(&cli, file),
        Command::DemoData => data::demo_data(&cli),
        Command::Check => repair::check(&cli),
        Command::Recover => repair::recover(&cli),
        Command::Bench(args) => bench::run(&cli, args),
    }
}

fn main() -> ExitCode {
    if let Some(done) = manuals::when_asked() {
        return done;
    }
    let matches = Cli::command().get_matches();
    let args = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match run(args, &matches) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

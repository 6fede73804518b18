//! `studio`: Search Studio without a window — the API server and the command-line tools over the local
//! store. Exit codes: 0 success, 2 usage error, 1 failure with one line on stderr naming the problem.
//!
//! This file parses the command line and dispatches; each subcommand lives in its own module and returns a
//! [`CliError`], which only `main` prints. What the subcommands share (the options they all take, the error
//! type, the runtime, the sign-in helpers) lies in modules below them, so that imports run from here down.

mod args;
mod bench;
mod config_files;
mod data;
mod error;
mod folder;
mod global_args;
mod manuals;
mod progress;
mod pull;
mod repair;
mod runtime;
mod serve;
mod signin;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use args::{Cli, Command};
use error::CliError;

/// Imports allocate and free several small strings per field of every document, on two threads at once (the
/// import's and its full-text builder's): with glibc's allocator that was a third of the import thread's time
/// (docs/choices.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub fn run(cli: Cli, matches: &clap::ArgMatches) -> Result<ExitCode, CliError> {
    let global = &cli.global;
    if !matches!(cli.command, Command::Bench(_)) {
        // An optimisation only: a kernel that refuses it leaves the process as fast as it was before.
        // `studio bench` leaves the choice to the benchmark it starts, which measures the desktop app as a user
        // starts it.
        let _ = studio_os::transparent_huge_pages(false);
    }
    if let Command::Config(args) = &cli.command {
        // The one command whose success has more than one exit code (a plan with changes exits 2).
        return folder::run(global, args);
    }
    match &cli.command {
        // Which of serve's settings were given (a flag, a variable) decides what its configuration file sets.
        Command::Serve(args) => serve::run(global, args, matches.subcommand_matches("serve").unwrap_or(matches)),
        Command::ExportConfig { args, all } => config_files::export(global, args, *all),
        Command::Pull(args) => pull::run(global, args),
        Command::ImportConfig { file } => config_files::import(global, file),
        Command::Import { search_space, file } => data::import(global, search_space, file),
        Command::ImportConcepts { file } => data::import_concepts_file(global, file),
        Command::DemoData => data::demo_data(global),
        Command::Check => repair::check(global),
        Command::Recover => repair::recover(global),
        Command::Bench(args) => bench::run(global, args),
        Command::Config(_) => Ok(()),
    }
    .map(|()| ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    if let Some(done) = manuals::when_asked() {
        return done;
    }
    let matches = Cli::command().get_matches();
    let args = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match run(args, &matches) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

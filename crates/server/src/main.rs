//! `studio`: Search Studio without a window — the API server and the command-line tools over the local
//! store. Exit codes: 0 success, 2 usage error, 1 failure with one line on stderr naming the problem.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

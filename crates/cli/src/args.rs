//! The command line of `studio` as clap reads it: the options every subcommand takes ([`GlobalArgs`]) and
//! the subcommands with their arguments. Each subcommand's own arguments stay in its module; this one only
//! gathers them, so that the subcommands never import it for what they share.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::bench::BenchArgs;
use crate::folder::args::ConfigArgs;
use crate::global_args::GlobalArgs;
use crate::pull::PullArgs;
use crate::serve::ServeArgs;

/// Search Studio without a window: serve the API, and move data in and out of the local store.
#[derive(Parser)]
#[command(name = "studio", version, about)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Serve the API under /api, its OpenAPI document at /api-docs, /healthz, /readyz, /metrics, and the web UI
    /// at /; as a service: a configuration file, systemd readiness, SIGHUP reloads the auth file and
    /// the settings that can change while it runs
    Serve(Box<ServeArgs>),
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
    Pull(PullArgs),
    /// Configurations as a folder of files kept in git: pull a store or server into a folder, lint it, plan and
    /// apply it to a store or server, or promote from one to another (docs/config-files.md)
    Config(ConfigArgs),
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
    Bench(BenchArgs),
}

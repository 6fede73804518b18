//! The arguments of `studio config …` (docs/config-files.md).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::signin::{self, SignInArgs};

#[derive(Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
}

/// A store or server: `local` (the local store of --data-dir) or a server's base URL.
const TARGET_HELP: &str = "`local` (the local store of --data-dir) or a server's base URL (the part before /api)";

#[derive(Subcommand)]
pub enum ConfigCommand {
    /// Write every configuration of a store or server into DIR, one file per configuration: new files for new
    /// ones, the file already holding one updated in place, nothing else touched; also the JSON Schema the files
    /// name (DIR/.studio/configuration.schema.json) and what was pulled (DIR/.studio/state.json)
    Pull {
        #[arg(value_name = "local|URL", help = TARGET_HELP)]
        from: String,
        /// The folder (made if missing)
        dir: PathBuf,
        #[command(flatten)]
        sign_in: SignInArgs,
    },
    /// Check every configuration file of DIR with the API's rules and the folder's own; prints each problem as
    /// FILE:LINE:COLUMN: MESSAGE and exits 1 if there is any, 0 if none
    Lint {
        /// The folder
        dir: PathBuf,
    },
    /// Show what `apply` would do to a store or server, configuration by configuration; exits 0 when there
    /// is nothing to do, 2 when there are changes (conflicts included), 1 on an error (a lint problem is one)
    Plan {
        /// The folder
        dir: PathBuf,
        #[arg(long, value_name = "local|URL", help = TARGET_HELP)]
        to: String,
        #[command(flatten)]
        plan: PlanArgs,
        #[command(flatten)]
        sign_in: SignInArgs,
    },
    /// Make the plan's changes on a store or server, after showing the plan and asking (or with --yes):
    /// creates and updates, then the active configuration, then (with --prune) deletes. The folder's state is
    /// saved after each write, so an interrupted apply is finished by running it again
    Apply {
        /// The folder
        dir: PathBuf,
        #[arg(long, value_name = "local|URL", help = TARGET_HELP)]
        to: String,
        #[command(flatten)]
        plan: PlanArgs,
        #[command(flatten)]
        apply: ApplyArgs,
        #[command(flatten)]
        sign_in: SignInArgs,
    },
    /// Pull, plan and apply from one store or server to another without a folder; what it last applied from
    /// FROM to TO is kept in the data directory (promotions.json)
    Promote {
        #[arg(long, value_name = "local|URL", help = TARGET_HELP)]
        from: String,
        #[arg(long, value_name = "local|URL", help = TARGET_HELP)]
        to: String,
        #[command(flatten)]
        plan: PlanArgs,
        #[command(flatten)]
        apply: ApplyArgs,
        /// Only show the plan (exit codes as `studio config plan`)
        #[arg(long)]
        dry_run: bool,
        /// Issuer URL of the provider FROM takes tokens from (credentials in STUDIO_SOURCE_USERNAME /
        /// STUDIO_SOURCE_PASSWORD); without it, the token in STUDIO_SOURCE_TOKEN is sent to FROM
        #[arg(long, value_name = "ISSUER")]
        from_issuer: Option<String>,
        /// Client id at FROM's provider
        #[arg(long, value_name = "ID", default_value = signin::DEFAULT_CLIENT_ID, requires = "from_issuer")]
        from_client_id: String,
        #[command(flatten)]
        sign_in: SignInArgs,
    },
}

#[derive(Args)]
pub struct PlanArgs {
    /// Delete what is only on the target
    #[arg(long)]
    pub prune: bool,
    /// Print the plan as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ApplyArgs {
    /// Apply without asking (for a pipeline); without it, apply asks on a terminal and refuses elsewhere
    #[arg(long)]
    pub yes: bool,
    /// Resolve conflicts for the folder's version (the source's, for promote): all of them, or the one of KEY
    /// (repeatable; give it after DIR)
    #[arg(long, value_name = "KEY", num_args = 0..=1, default_missing_value = "")]
    pub ours: Vec<String>,
    /// Resolve conflicts for the target's version: all of them, or the one of KEY (repeatable; give it after
    /// DIR). In a folder, the file then takes the target's version
    #[arg(long, value_name = "KEY", num_args = 0..=1, default_missing_value = "")]
    pub theirs: Vec<String>,
}

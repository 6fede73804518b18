//! The options of `studio` that every subcommand takes (`--data-dir`), and what the subcommands make of
//! them: the data directory and the local store in it.

use std::path::PathBuf;

use clap::Args;
use studio_local::{LocalBackend, Store};

use crate::error::CliError;

/// The options given before or after any subcommand.
#[derive(Args)]
#[group(skip)]
pub struct GlobalArgs {
    /// Data directory holding the local store [default: the OS data directory, ~/.local/share/search-studio]
    #[arg(long, global = true, env = "SEARCH_STUDIO_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

impl GlobalArgs {
    /// The data directory: `--data-dir`, else `SEARCH_STUDIO_DATA_DIR`, else the OS data directory's
    /// `search-studio` (README, the CLI's data directory).
    pub fn data_dir(&self) -> Result<PathBuf, CliError> {
        match &self.data_dir {
            Some(dir) => Ok(dir.clone()),
            None => studio_local::default_data_dir().ok_or(CliError::NoDataDir),
        }
    }

    pub fn local_backend(&self) -> Result<LocalBackend, CliError> {
        Ok(LocalBackend::new(Store::open_dir(&self.data_dir()?)?))
    }
}

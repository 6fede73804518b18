//! The async runtime the subcommands that talk HTTP (serve, pull) or drive the async backend run on.

use crate::error::CliError;

/// A multi-threaded tokio runtime with I/O and timers.
pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Server(format!("cannot start the async runtime: {e}")))
}

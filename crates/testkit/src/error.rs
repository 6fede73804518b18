//! Why a test server could not be started or used. Every message says what to do or shows what the
//! server wrote, since a test that fails here fails before it tests anything.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum TestkitError {
    /// The scripts' npm packages are missing.
    #[error(
        "the test servers' packages are not installed ({dir} is missing): run `npm ci --prefix crates/testkit/servers`"
    )]
    NotInstalled { dir: PathBuf },

    /// `node` could not be started.
    #[error("cannot start `node {script}` (Node.js 20.19 or later must be on PATH): {source}")]
    Spawn { script: String, source: std::io::Error },

    /// The server ended, or said nothing usable, before announcing where it listens.
    #[error("{script} did not start: {reason}; what it wrote:\n{output}")]
    NotStarted { script: String, reason: String, output: String },

    /// The server said nothing within the time a start may take (tried again before this is returned).
    #[error("{script} did not start: nothing on stdout within {seconds} s; what it wrote:\n{output}")]
    Silent { script: String, seconds: u64, output: String },

    /// The browser stand-in did not reach the redirect URI.
    #[error("the browser stand-in failed ({status}): {output}")]
    Browser { status: String, output: String },
}

//! Configurations kept as files in a folder, for git (docs/config-files.md): the file format
//! ([`format`]), and what the `studio config` commands and the desktop's folder workspace build on it.

pub mod format;

pub use format::{ConfigFile, FileBody, ParseProblem};

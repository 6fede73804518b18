//! Configurations kept as files in a folder, for git (docs/config-files.md): the file format
//! ([`format`]), reading a whole folder ([`listing`]), and what the `studio config` commands and the
//! desktop's folder workspace build on them.

pub mod format;
pub mod listing;

pub use format::{ConfigFile, FileBody, ParseProblem};
pub use listing::{read_folder, ListedFile, Listing};

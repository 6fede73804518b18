//! A folder of configuration files as a workspace (docs/choices.md, "A folder as a workspace"): the
//! configurations are the files of the folder (`studio_sync::folder::format`), and the preview searches a
//! backend the designer picks (the local store or a connection), sent as that backend's configuration of the
//! same search space with the file's settings as the search's `config`.
//!
//! [`FolderBackend`] is the `Backend` over the folder, so the editor, the preview, drafts and publishing work
//! on it unchanged; [`watch`] follows the folder on disk and reports what changed there. This module stands
//! below `connections`, which opens a folder and picks its search backend; it knows no connection itself.

mod backend;
mod files;
mod ids;
mod model;
mod search;
pub mod watch;

pub use backend::FolderBackend;
pub use model::{FileProblem, FolderChange, FolderEntry, FolderError, SearchTarget, CHANGE_EVENT, KEY_PREFIX};

//! What the app says about the folder's files: the name of a configuration's file, the files that cannot be read
//! as configurations (each with where and why, as the window lists them), and a failed read or write of one as the
//! API's error, a full disk in the words every full disk is given.

use std::path::Path;

use studio_model::{disk_full_message, is_disk_full, BackendError};
use studio_sync::folder::format::{self, key_for_title};
use studio_sync::folder::Listing;

use super::ids::Ids;
use super::model::FileProblem;

/// A failed read or write of the folder's file at `path`.
pub(super) fn storage(path: &Path, e: &std::io::Error) -> BackendError {
    if is_disk_full(e) {
        BackendError::InsufficientStorage(disk_full_message(path.display()))
    } else {
        BackendError::Storage(format!("{}: {e}", path.display()))
    }
}

/// The file name of configuration `key`.
pub(super) fn file_name(key: &str) -> String {
    format!("{key}.{}", format::EXTENSION)
}

/// Every file of `listing` that cannot be read as a configuration, by file name.
pub(super) fn problems(ids: &mut Ids, listing: &Listing) -> Vec<FileProblem> {
    let mut problems: Vec<FileProblem> = listing
        .files
        .iter()
        .filter_map(|f| {
            let problem = f.body.as_ref().err()?;
            Some(FileProblem {
                file: file_name(&f.key),
                id: Some(ids.id(&f.key)),
                line: problem.line,
                column: problem.column,
                message: problem.message.clone(),
            })
        })
        .collect();
    problems.extend(listing.misnamed.iter().map(|name| {
        let stem = name.strip_suffix(&format!(".{}", format::EXTENSION)).unwrap_or(name);
        FileProblem {
            file: name.clone(),
            id: None,
            line: 1,
            column: 1,
            message: format!(
                "not read: its name is not a configuration's key; rename it to {}",
                file_name(&key_for_title(stem))
            ),
        }
    }));
    problems.sort_by(|a, b| a.file.cmp(&b.file));
    problems
}

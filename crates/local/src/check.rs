//! `check`: the thorough look at a store that `studio check`, `studio serve`'s start and the desktop's
//! launch use. It opens the files read-only and without the store's pool (a damaged store must be
//! checkable, and checking must never change it), runs `PRAGMA integrity_check` on each file, reads every byte of
//! the full-text index (without its lock: a reader of it changes nothing), reads every configuration row, and
//! compares the configurations with the newest backup to find the last writes the store lost.

use std::path::{Path, PathBuf};

use serde::Serialize;
use ts_rs::TS;

use crate::backup;
use crate::error::StoreError;
use crate::inspect::{inspect, inspect_text_index, open_read_only, problem};
pub use crate::inspect::{Problem, ProblemKind};
use crate::recover::merge::{parse, Merged, Precious};
use crate::store::{DB_FILE, DOCUMENTS_FILE, TEXT_DIR, TEXT_FILE};

/// What `check` found. Healthy when both lists are empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    pub problems: Vec<Problem>,
    pub newer_in_backup: Vec<NewerInBackup>,
    /// The backup the configurations were compared with (none when there is no backup).
    pub backup: Option<String>,
}

impl CheckReport {
    pub fn healthy(&self) -> bool {
        self.problems.is_empty() && self.newer_in_backup.is_empty()
    }
}

/// A configuration whose newest backup holds a newer version than the store does: the store lost its
/// last writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NewerInBackup {
    pub id: i32,
    pub title: String,
}

/// The thorough check of the store in `data_dir`.
pub fn check(data_dir: &Path) -> Result<CheckReport, StoreError> {
    let precious = data_dir.join(DB_FILE);
    let newest = backup::newest(data_dir);
    let mut report =
        CheckReport { backup: newest.as_ref().map(|b| b.path.display().to_string()), ..Default::default() };
    if !precious.exists() {
        if newest.is_some() {
            report.problems.push(problem(&precious, ProblemKind::Missing, "the file does not exist".into()));
        }
        return Ok(report);
    }
    for file in [precious.clone(), data_dir.join(DOCUMENTS_FILE), data_dir.join(TEXT_FILE)] {
        if file.exists() {
            report.problems.extend(inspect(&file));
        }
    }
    report.problems.extend(inspect_text_index(&data_dir.join(TEXT_DIR)));
    let store = open_read_only(&precious).map(|c| Precious::read(&c)).unwrap_or_default();
    if report.problems.is_empty() {
        let unreadable = store.unreadable();
        if !unreadable.is_empty() {
            report.problems.push(problem(&precious, ProblemKind::UnreadableRows, unreadable.join("; ")));
        }
    }
    report.newer_in_backup = newer_in_backup(&store, newest.map(|b| b.path).as_deref());
    Ok(report)
}

/// Only the comparison with the newest backup (no integrity check): what `studio serve` looks at when
/// it starts, cheap even beside a large documents file.
pub fn compare_with_backup(data_dir: &Path) -> Result<Vec<NewerInBackup>, StoreError> {
    let store = Precious::read(&open_read_only(&data_dir.join(DB_FILE))?);
    Ok(newer_in_backup(&store, backup::newest(data_dir).map(|b| b.path).as_deref()))
}

fn newer_in_backup(store: &Precious, backup: Option<&Path>) -> Vec<NewerInBackup> {
    let Some(backup) = backup.and_then(|b| open_read_only(b).ok()).map(|c| Precious::read(&c)) else {
        return Vec::new();
    };
    Merged::new(store, Some(&backup))
        .newer_in_backup()
        .map(|(id, envelope)| NewerInBackup {
            id: id as i32,
            title: parse(envelope).map(|c| c.config.title).unwrap_or_default(),
        })
        .collect()
}

/// The documents file of the store in `data_dir`.
pub fn documents_path(data_dir: &Path) -> PathBuf {
    data_dir.join(DOCUMENTS_FILE)
}

//! Until the store's own backups, check and recover are in crates/local: the smallest versions of their
//! names that the desktop needs, so that the recovery screen and Settings can be built and tried.

use std::path::Path;

use studio_local::StoreError;

/// The file and the problem, when opening failed because the store is damaged.
pub fn damage(e: &StoreError, data_dir: &Path) -> Option<(String, String)> {
    let text = e.to_string();
    let damaged = ["not a database", "malformed"].iter().any(|words| text.contains(words));
    damaged.then(|| (data_dir.join(studio_local::DB_FILE).display().to_string(), text))
}

pub mod backup {
    use std::path::{Path, PathBuf};

    use studio_local::{Store, StoreError};

    pub const BACKUPS_DIR: &str = "backups";

    pub struct Policy;

    impl Policy {
        pub const KEEP_LAST: usize = 20;
        pub const DAILY_DAYS: usize = 7;
    }

    pub struct BackupInfo {
        pub path: PathBuf,
        pub taken: chrono::DateTime<chrono::Utc>,
    }

    pub fn list(data_dir: &Path) -> Vec<BackupInfo> {
        let Ok(entries) = std::fs::read_dir(data_dir.join(BACKUPS_DIR)) else { return Vec::new() };
        let mut out: Vec<BackupInfo> = entries
            .flatten()
            .filter_map(|e| {
                let taken = e.metadata().ok()?.modified().ok()?;
                Some(BackupInfo { path: e.path(), taken: taken.into() })
            })
            .collect();
        out.sort_by_key(|b| std::cmp::Reverse(b.taken));
        out
    }

    pub struct Backups;

    impl Backups {
        pub fn start(_store: &Store) -> Backups {
            Backups
        }

        pub fn finish(self) -> Result<Option<PathBuf>, StoreError> {
            Ok(None)
        }
    }
}

pub mod check {
    use std::path::Path;

    use studio_local::StoreError;

    pub struct NewerInBackup {
        pub id: i32,
        pub title: String,
    }

    pub struct CheckReport {
        pub newer_in_backup: Vec<NewerInBackup>,
    }

    pub fn check(_data_dir: &Path) -> Result<CheckReport, StoreError> {
        Ok(CheckReport { newer_in_backup: Vec::new() })
    }
}

pub mod recover {
    use std::path::Path;

    use serde::Serialize;
    use studio_local::StoreError;
    use ts_rs::TS;

    #[derive(Debug, Clone, Default, Serialize, TS)]
    #[serde(rename_all = "camelCase")]
    pub struct RecoverReport {
        pub moved_aside: Vec<String>,
        pub configurations: usize,
        pub drafts: usize,
        pub versions: usize,
        pub history: usize,
        pub from_backup: usize,
        pub documents: usize,
        pub reimport: Vec<String>,
    }

    /// Moves the store's file aside and lets a new one be made (nothing is read back).
    pub fn recover(data_dir: &Path) -> Result<RecoverReport, StoreError> {
        let db = data_dir.join(studio_local::DB_FILE);
        let aside =
            data_dir.join(format!("{}.damaged-{}", studio_local::DB_FILE, chrono::Utc::now().format("%Y%m%dT%H%M%SZ")));
        std::fs::rename(&db, &aside)?;
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(data_dir.join(format!("{}{suffix}", studio_local::DB_FILE)));
        }
        Ok(RecoverReport { moved_aside: vec![aside.display().to_string()], ..Default::default() })
    }
}

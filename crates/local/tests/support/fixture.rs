//! A store with a designer's work in it and a backup, for the damage tests of `check` and `recover`: twelve
//! configurations (large enough that their table spans several pages), a backup, then three more
//! configurations and two edits.

use std::path::{Path, PathBuf};

use serde_json::json;
use studio_local::{backup, LocalBackend, Store};
use studio_model::{Backend, Caller, Configuration};

use super::damage::copy_store;

/// A configuration as a user knows it: its title and a setting they chose.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Saved {
    pub id: i32,
    pub title: String,
    pub items_per_page: i32,
}

impl Saved {
    pub fn of(c: &Configuration) -> Saved {
        Saved { id: c.id.unwrap(), title: c.config.title.clone(), items_per_page: c.config.result.items_per_page }
    }
}

/// Where the last changes are when the files are damaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The store was closed: everything is in its file.
    Closed,
    /// The store is copied while open: the changes after the backup are only in its log.
    ChangesInLog,
    /// As `ChangesInLog`, but the backup was taken after those changes (it is the newest copy of them).
    BackupHoldsTheLog,
}

pub struct Fixture {
    /// The configurations as the backup holds them.
    pub in_backup: Vec<Saved>,
    /// Every configuration as last saved.
    pub last_saved: Vec<Saved>,
    pub backup: PathBuf,
}

/// The component order of every configuration: long, so that a configuration fills a good part of a page.
pub fn component_order() -> Vec<String> {
    (0..120).map(|i| format!("component-{i:04}-with-a-long-name-to-fill-the-page")).collect()
}

fn caller() -> Caller {
    Caller { user: "ana".into() }
}

/// Builds the store in `dir` (its files and backups) in the given shape.
pub fn build(dir: &Path, shape: Shape) -> Fixture {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(build_async(dir, shape))
}

async fn build_async(dir: &Path, shape: Shape) -> Fixture {
    let work = tempfile::tempdir().unwrap();
    let store = Store::open_dir(work.path()).unwrap();
    let backend = LocalBackend::new(store.clone());
    for i in 0..12 {
        let body = json!({ "config": {
            "title": format!("Before the backup {i}"), "searchSpace": "demo",
            "result": { "itemsPerPage": 10 + i }, "filter": { "componentOrder": component_order() },
        }});
        backend.create_configuration(&caller(), body).await.unwrap();
    }
    if shape != Shape::Closed {
        // Everything so far into the file; what follows stays in the log.
        store.conn().unwrap().execute_batch("PRAGMA wal_checkpoint(TRUNCATE);").unwrap();
    }
    let mut backup = (shape != Shape::BackupHoldsTheLog).then(|| backup::snapshot(store.path()).unwrap());
    let in_backup = list(&backend).await;
    for i in 0..3 {
        let body = json!({ "config": {
            "title": format!("After the backup {i}"), "searchSpace": "demo", "result": { "itemsPerPage": 30 + i },
        }});
        backend.create_configuration(&caller(), body).await.unwrap();
    }
    for id in [1, 2] {
        let body = json!({ "config": { "result": { "itemsPerPage": 90 + id } } });
        backend.update_configuration(&caller(), id, body).await.unwrap();
    }
    let last_saved = list(&backend).await;
    let in_backup = match backup {
        Some(_) => in_backup,
        None => {
            backup = Some(backup::snapshot(store.path()).unwrap());
            last_saved.clone()
        }
    };
    if shape == Shape::Closed {
        drop(backend);
        drop(store);
        copy_store(work.path(), dir);
    } else {
        copy_store(work.path(), dir);
        drop(backend);
        drop(store);
    }
    let name = backup.unwrap().file_name().unwrap().to_owned();
    Fixture { in_backup, last_saved, backup: dir.join(backup::BACKUPS_DIR).join(name) }
}

async fn list(backend: &LocalBackend) -> Vec<Saved> {
    backend.list_configurations().await.unwrap().configurations.iter().map(Saved::of).collect()
}

/// Asserts that `found` holds every configuration of `expected` (by id, title and setting).
pub fn assert_holds(found: &[Saved], expected: &[Saved]) {
    for e in expected {
        assert!(found.contains(e), "{e:?} is missing from {found:#?}");
    }
}

/// Asserts that `found` holds every configuration of `expected` by id and title (its settings may be the
/// same or newer).
pub fn assert_present(found: &[Saved], expected: &[Saved]) {
    for e in expected {
        assert!(found.iter().any(|f| f.id == e.id && f.title == e.title), "{e:?} is missing from {found:#?}");
    }
}

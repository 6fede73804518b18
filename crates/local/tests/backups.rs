//! Automatic backups against a real store: a change is backed up within the interval, `finish` takes the
//! exit backup, a backup is a store of its own holding the configurations, a failed backup leaves no file.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use studio_local::backup::{self, Backups};
use studio_local::{LocalBackend, Store};
use studio_model::{Backend, Caller};

fn ana() -> Caller {
    Caller { user: "ana".into() }
}

async fn create(backend: &LocalBackend, title: &str) -> i32 {
    let body = json!({ "config": { "title": title, "searchSpace": "demo", "result": { "itemsPerPage": 17 } } });
    backend.create_configuration(&ana(), body).await.unwrap().config.id.unwrap()
}

/// Polls until `backup::list` has `n` backups, or panics after a generous deadline.
fn wait_for_backups(dir: &Path, n: usize) -> Vec<backup::BackupInfo> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let list = backup::list(dir);
        if list.len() >= n {
            return list;
        }
        assert!(Instant::now() < deadline, "{} backups after 20 s, waited for {n}", list.len());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The titles of the configurations a backup file holds, opened as a store of its own.
fn titles_in(backup: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(backup).unwrap();
    let mut stmt = conn.prepare("SELECT envelope FROM configurations ORDER BY id").unwrap();
    let envelopes: Vec<String> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    envelopes
        .iter()
        .map(|e| serde_json::from_str::<serde_json::Value>(e).unwrap()["config"]["title"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_change_is_backed_up_within_the_interval_and_the_backup_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let backend = LocalBackend::new(store.clone());
    create(&backend, "Before start").await;
    let backups = Backups::start_with(&store, Duration::from_millis(100));
    // The store changed before the backups started and no backup holds it: the first one comes unasked.
    let first = wait_for_backups(dir.path(), 1);
    assert_eq!(titles_in(&first[0].path), ["Before start"]);
    create(&backend, "After start").await;
    let second = wait_for_backups(dir.path(), 2);
    assert_eq!(titles_in(&second[0].path), ["Before start", "After start"]);
    assert!(second[0].taken > second[1].taken);
    // Nothing changed since: no exit backup.
    assert_eq!(backups.finish().unwrap(), None);
    assert_eq!(backup::list(dir.path()).len(), 2);
    let names: Vec<String> = std::fs::read_dir(dir.path().join(backup::BACKUPS_DIR))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.starts_with("studio-") && n.ends_with("Z.db")), "{names:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn finish_takes_the_exit_backup_of_the_last_changes() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let backend = LocalBackend::new(store.clone());
    let backups = Backups::start_with(&store, Duration::from_secs(3600));
    create(&backend, "Saved just before exit").await;
    let exit = backups.finish().unwrap().expect("an exit backup");
    assert_eq!(backup::list(dir.path())[0].path, exit);
    assert_eq!(titles_in(&exit), ["Saved just before exit"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backup_opens_as_a_store_and_lists_the_configurations() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let backend = LocalBackend::new(store.clone());
    let id = create(&backend, "Kept in the backup").await;
    let path = backup::snapshot(store.path()).unwrap();
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(&path, copy.path().join(studio_local::DB_FILE)).unwrap();
    let restored = LocalBackend::new(Store::open_dir(copy.path()).unwrap());
    let config = restored.get_configuration(id).await.unwrap();
    assert_eq!(config.config.title, "Kept in the backup");
    assert_eq!(config.config.result.items_per_page, 17);
    assert_eq!(restored.list_configurations().await.unwrap().active_id, Some(id));
}

#[tokio::test(flavor = "multi_thread")]
async fn pruning_keeps_the_last_twenty() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let backend = LocalBackend::new(store.clone());
    for i in 0..23 {
        create(&backend, &format!("Configuration {i}")).await;
        backup::snapshot(store.path()).unwrap();
    }
    let list = backup::list(dir.path());
    // All were taken today: the last 20 are kept, today's newest among them.
    assert_eq!(list.len(), backup::Policy::KEEP_LAST);
    assert_eq!(titles_in(&list[0].path).len(), 23);
    assert_eq!(titles_in(&list[19].path).len(), 4);
}

#[test]
fn a_backup_that_cannot_be_written_leaves_no_file_with_a_backups_name() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    // The backups' folder is a file: the snapshot cannot be written.
    std::fs::write(dir.path().join(backup::BACKUPS_DIR), b"not a folder").unwrap();
    assert!(backup::snapshot(store.path()).is_err());
    assert!(backup::list(dir.path()).is_empty());
}

#[test]
fn a_backup_the_disk_cannot_hold_says_so_naming_the_backups_folder_and_leaves_no_file() {
    let disk = studio_testkit::disk::SmallDisk::mount(4);
    let data = disk.path().join("data");
    let backend = LocalBackend::new(Store::open_dir(&data).unwrap());
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    for i in 0..20 {
        runtime.block_on(create(&backend, &format!("Configuration {i} {}", "x".repeat(2000))));
    }
    std::fs::create_dir_all(data.join(backup::BACKUPS_DIR)).unwrap();
    disk.fill();

    let refused = backup::snapshot(backend.store().path()).unwrap_err();
    let backups = data.join(backup::BACKUPS_DIR);
    assert!(refused.is_disk_full(), "{refused}");
    assert_eq!(
        refused.to_string(),
        format!("the disk holding {} is full: free some space and try again", backups.display())
    );
    assert!(backup::list(&data).is_empty());
    let left: Vec<_> = std::fs::read_dir(&backups).unwrap().collect();
    assert!(left.is_empty(), "nothing half-written is left: {left:?}");
}

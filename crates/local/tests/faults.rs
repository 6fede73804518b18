//! `check` and `recover` against real damage to a real store: each kind of damage is found and named,
//! recovery keeps every configuration of the newest backup and every one still readable, and moves the
//! damaged file aside unchanged. Random damage (a property test) never panics and never loses a
//! configuration of the backup.

use std::path::Path;

use crate::support::damage;
use crate::support::fixture::{assert_holds, assert_present, build, Fixture, Saved, Shape};
use proptest::prelude::*;
use studio_local::check::{check, ProblemKind};
use studio_local::recover::recover;
use studio_local::{LocalBackend, Store, DB_FILE};
use studio_model::Backend;

/// The configurations of the store in `dir`, opened as the app opens it.
fn configurations(dir: &Path) -> Vec<Saved> {
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let backend = LocalBackend::new(Store::open_dir(dir).unwrap());
    let list = rt.block_on(backend.list_configurations()).unwrap();
    list.configurations.iter().map(Saved::of).collect()
}

/// Recovers `dir` and checks what every recovery must do: the damaged file moved aside byte for byte, a
/// healthy store after, every configuration of the backup there.
fn recover_and_verify(dir: &Path, fixture: &Fixture) -> Vec<Saved> {
    let before = std::fs::read(dir.join(DB_FILE)).unwrap();
    let report = recover(dir).unwrap();
    let aside = damage::moved_aside(dir);
    assert_eq!(report.moved_aside[0], aside[0].display().to_string());
    assert!(aside[0].file_name().unwrap().to_string_lossy().starts_with("studio.db.damaged-2"), "{aside:?}");
    assert_eq!(std::fs::read(&aside[0]).unwrap(), before, "the damaged file was changed");
    let after = check(dir).unwrap();
    assert!(after.problems.is_empty(), "{after:#?}");
    let found = configurations(dir);
    assert_present(&found, &fixture.in_backup);
    assert_eq!(report.configurations, found.len());
    found
}

#[test]
fn a_header_overwritten_is_not_a_database_and_the_backup_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = build(dir.path(), Shape::Closed);
    damage::overwrite_header(&dir.path().join(DB_FILE));
    let report = check(dir.path()).unwrap();
    assert_eq!(report.problems[0].kind, ProblemKind::NotADatabase, "{report:#?}");
    assert!(report.problems[0].file.ends_with(DB_FILE));
    let found = recover_and_verify(dir.path(), &fixture);
    // Nothing of the damaged file can be read: the backup's versions come back.
    assert_holds(&found, &fixture.in_backup);
}

#[test]
fn a_damaged_page_of_the_configurations_loses_nothing_the_history_holds() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = build(dir.path(), Shape::Closed);
    damage::damage_middle_page(&dir.path().join(DB_FILE), "configurations");
    let report = check(dir.path()).unwrap();
    assert!(report.problems.iter().any(|p| p.kind == ProblemKind::Damaged), "{report:#?}");
    let found = recover_and_verify(dir.path(), &fixture);
    // Every configuration's newest envelope is in its history: all of the last saves come back.
    assert_holds(&found, &fixture.last_saved);
}

#[test]
fn a_truncated_file_is_named_and_the_backup_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = build(dir.path(), Shape::Closed);
    damage::truncate(&dir.path().join(DB_FILE), 0.5);
    let report = check(dir.path()).unwrap();
    assert_eq!(report.problems[0].kind, ProblemKind::Truncated, "{report:#?}");
    recover_and_verify(dir.path(), &fixture);
}

#[test]
fn a_damaged_log_frame_keeps_the_backup_and_the_frames_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = build(dir.path(), Shape::ChangesInLog);
    let wal = damage::wal_of(&dir.path().join(DB_FILE));
    let frames = damage::wal_frames(&wal);
    damage::damage_wal_frame(&wal, frames - 1);
    // The last commit (the update of configuration 2) is dropped with its frame; no backup has it, so the
    // store is as it was before that update, and recover keeps that.
    recover(dir.path()).unwrap();
    let mut expected = fixture.last_saved.clone();
    expected[1] = fixture.in_backup[1].clone();
    assert_eq!(configurations(dir.path()), expected);
}

#[test]
fn lost_last_writes_are_newer_in_the_backup_and_recover_brings_them_back() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = build(dir.path(), Shape::BackupHoldsTheLog);
    // The log's first frame is damaged: SQLite drops the whole log, and with it the last five saves.
    damage::damage_wal_frame(&damage::wal_of(&dir.path().join(DB_FILE)), 0);
    let report = check(dir.path()).unwrap();
    let mut newer: Vec<(i32, String)> = report.newer_in_backup.iter().map(|n| (n.id, n.title.clone())).collect();
    newer.sort();
    let expected: Vec<(i32, String)> = [1, 2, 13, 14, 15]
        .iter()
        .map(|&id| (id, fixture.last_saved.iter().find(|s| s.id == id).unwrap().title.clone()))
        .collect();
    assert_eq!(newer, expected);
    let recovered = recover(dir.path()).unwrap();
    assert_eq!(recovered.from_backup, 5);
    assert_eq!(configurations(dir.path()), fixture.last_saved);
    assert!(check(dir.path()).unwrap().healthy());
}

#[test]
fn a_healthy_store_is_healthy_and_recover_leaves_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = build(dir.path(), Shape::Closed);
    assert!(check(dir.path()).unwrap().healthy());
    let report = recover(dir.path()).unwrap();
    assert!(report.moved_aside.is_empty());
    assert_eq!(configurations(dir.path()), fixture.last_saved);
}

#[test]
fn recover_keeps_the_scenarios_of_the_file_and_of_the_backup_the_newer_list_winning() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = build(dir.path(), Shape::Closed);
    let db = dir.path().join(DB_FILE);
    let put = |file: &Path, rows: &[(i32, &str, &str)]| {
        let conn = rusqlite::Connection::open(file).unwrap();
        for (id, name, at) in rows {
            let list = format!(r#"[{{"name":"{name}","query":"","selected":[],"width":"phone"}}]"#);
            conn.execute(
                "INSERT OR REPLACE INTO scenarios (backend, config_id, scenarios, updated_at) VALUES ('local', ?1, ?2, ?3)",
                rusqlite::params![id, list, at],
            )
            .unwrap();
        }
    };
    put(
        &fixture.backup,
        &[(1, "Older", "2026-01-01T00:00:00.000Z"), (2, "Only backed up", "2026-01-01T00:00:00.000Z")],
    );
    put(&db, &[(1, "Newer", "2026-02-01T00:00:00.000Z"), (3, "Never backed up", "2026-02-01T00:00:00.000Z")]);
    damage::damage_middle_page(&db, "configurations");
    recover(dir.path()).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut rows = conn.prepare("SELECT config_id, json_extract(scenarios, '$[0].name') FROM scenarios").unwrap();
    let mut kept: Vec<(i32, String)> =
        rows.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
    kept.sort();
    let expected = [(1, "Newer"), (2, "Only backed up"), (3, "Never backed up")].map(|(id, n)| (id, n.to_owned()));
    assert_eq!(kept, expected);
}

proptest! {
    // 24 cases by default (each builds a store); PROPTEST_CASES=N runs more.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(24),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Random bytes over random pages of the store's files: `check` and `recover` never panic, and every
    /// configuration of the newest backup is there after `recover`.
    #[test]
    fn random_damage_never_loses_a_configuration_of_the_backup(
        hits in proptest::collection::vec((0.0f64..1.0, 0usize..16_384, 1usize..4_096, any::<u8>()), 1..6),
        in_documents in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let fixture = build(dir.path(), Shape::Closed);
        let documents = studio_local::check::documents_path(dir.path());
        let file = if in_documents && documents.exists() { documents } else { dir.path().join(DB_FILE) };
        let len = std::fs::metadata(&file).unwrap().len();
        for (at, offset, n, byte) in hits {
            let start = ((len as f64 * at) as u64 + offset as u64).min(len.saturating_sub(1));
            let n = n.min((len - start) as usize);
            damage::overwrite(&file, start, &vec![byte; n]);
        }
        let _ = check(dir.path()).unwrap();
        recover(dir.path()).unwrap();
        assert_present(&configurations(dir.path()), &fixture.in_backup);
    }
}

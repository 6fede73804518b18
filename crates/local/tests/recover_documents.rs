//! `recover` keeps what was intact: a damaged `studio.db` costs no document, a damaged full-text index is built
//! again from the documents, and a damaged documents file names every search space that lost documents, with
//! how many were kept and lost and the command that loads them again. Real stores, real damage.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;
use studio_local::check::check;
use studio_local::demo::{self, DEMO_SPACE};
use studio_local::recover::recover;
use studio_local::{import_documents, os_caller, LocalBackend, Store, DB_FILE, DOCUMENTS_FILE, TEXT_DIR, TEXT_FILE};
use studio_model::{Backend, FacetGroup, SearchRequest};

use crate::support::damage;
use crate::support::fixture::component_order;

/// Documents of the second search space.
const PRODUCTS: usize = 600;

/// What a user sees of a search space: its total, the documents a word finds, and the facets' counts.
#[derive(Debug, PartialEq)]
struct Seen {
    total: i64,
    word_total: i64,
    word_ids: Vec<String>,
    facets: Vec<FacetGroup>,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// What the configuration of `space` finds in the store in `dir`, opened as the app opens it.
fn seen(dir: &Path, space: &str, word: &str) -> Seen {
    let rt = runtime();
    let backend = LocalBackend::new(Store::open_dir(dir).unwrap());
    let seen = rt.block_on(async {
        let list = backend.list_configurations().await.unwrap();
        let id = list.configurations.iter().find(|c| c.config.search_space == space).unwrap().id.unwrap();
        let all = backend.search(id, SearchRequest::default()).await.unwrap();
        let request = SearchRequest { input: Some(word.into()), ..Default::default() };
        let found = backend.search(id, request).await.unwrap();
        Seen {
            total: all.total,
            word_total: found.total,
            word_ids: found.result.iter().map(|d| d.id.clone()).collect(),
            facets: all.facets,
        }
    });
    close(backend);
    seen
}

/// Waits for the engine's own threads and closes the store, so that only its files remain.
fn close(backend: LocalBackend) {
    backend.engine().settle();
    let store = backend.store().clone();
    drop(backend);
    store.close().unwrap();
}

/// A store as a new user has it after some work: the demo space (2,400 documents and its configuration), a
/// space `products` of imported documents with a configuration, and a dozen long configurations (so that
/// their table spans several pages); a backup when asked.
fn build(dir: &Path, with_backup: bool) {
    let rt = runtime();
    let store = Store::open_dir(dir).unwrap();
    let backend = LocalBackend::new(store.clone());
    demo::load_demo_data(&backend, &mut |_| {}, &std::sync::atomic::AtomicBool::new(false)).unwrap();
    let lines: Vec<String> = (0..PRODUCTS)
        .map(|i| {
            json!({"id": format!("p{i}"), "title": format!("kettle {i}"), "description": "steel ".repeat(40)})
                .to_string()
        })
        .collect();
    let report = import_documents(&store, "products", lines.join("\n").as_bytes(), &mut |_| {}).unwrap();
    assert_eq!(report.imported, PRODUCTS as u64);
    rt.block_on(async {
        for i in 0..12 {
            let body = json!({ "config": {
                "title": format!("Designer's work {i}"), "searchSpace": if i == 0 { "products" } else { DEMO_SPACE },
                "filter": { "componentOrder": component_order() },
            }});
            backend.create_configuration(&os_caller(), body).await.unwrap();
        }
    });
    if with_backup {
        studio_local::backup::snapshot(store.path()).unwrap();
    }
    close(backend);
}

/// The store files that `moved` (files moved aside, with their logs) were, by name.
fn files(moved: &[std::path::PathBuf]) -> Vec<String> {
    let names = moved.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned());
    let files = names.filter(|n| !n.ends_with("-wal") && !n.ends_with("-shm"));
    files.map(|n| n.split(".damaged-").next().unwrap().to_owned()).collect()
}

/// Every file of the full-text index's directory, by name, with its bytes.
fn index_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let entries = std::fs::read_dir(dir.join(TEXT_DIR)).unwrap().map(|e| e.unwrap().path());
    entries.map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())).collect()
}

fn documents_per_space(dir: &Path) -> BTreeMap<String, i64> {
    let conn = rusqlite::Connection::open(dir.join(DOCUMENTS_FILE)).unwrap();
    let mut stmt = conn.prepare("SELECT search_space, count(*) FROM documents GROUP BY search_space").unwrap();
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    rows.map(Result::unwrap).collect()
}

#[test]
fn a_damaged_studio_db_keeps_every_document_searchable_as_it_was() {
    for with_backup in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), with_backup);
        let before = seen(dir.path(), DEMO_SPACE, "solar");
        assert_eq!(before.total, demo::DEMO_DOCUMENTS as i64);
        assert!(before.word_total > 0 && before.word_total < before.total, "{before:?}");
        let products = seen(dir.path(), "products", "kettle");
        assert_eq!(products.total, PRODUCTS as i64);

        damage::damage_middle_page(&dir.path().join(DB_FILE), "configurations");
        let checked = check(dir.path()).unwrap();
        assert!(checked.problems.iter().any(|p| p.file.ends_with(DB_FILE)), "{checked:#?}");
        let documents = std::fs::read(dir.path().join(DOCUMENTS_FILE)).unwrap();
        let text = std::fs::read(dir.path().join(TEXT_FILE)).unwrap();
        let index = index_files(dir.path());

        let report = recover(dir.path()).unwrap();
        assert_eq!(report.documents, demo::DEMO_DOCUMENTS + PRODUCTS, "{report:#?}");
        assert!(report.lost_documents.is_empty(), "{report:#?}");
        assert!(!report.text_rebuilt, "{report:#?}");
        let aside = damage::moved_aside(dir.path());
        assert_eq!(files(&aside), ["studio.db"], "only studio.db is moved aside: {report:#?}");
        assert!(std::fs::read(dir.path().join(DOCUMENTS_FILE)).unwrap() == documents, "the documents file changed");
        assert!(std::fs::read(dir.path().join(TEXT_FILE)).unwrap() == text, "the full-text index's state changed");
        assert!(index_files(dir.path()) == index, "the full-text index changed");
        assert!(check(dir.path()).unwrap().problems.is_empty());

        assert_eq!(seen(dir.path(), DEMO_SPACE, "solar"), before, "with a backup: {with_backup}");
        assert_eq!(seen(dir.path(), "products", "kettle"), products);
    }
}

/// Damage the store's opening does not see (inside a segment's lists, which only a search of their terms or
/// `studio check` reads), then a state file that is no database: each time `check` names it as rebuildable, and
/// `recover` builds the index again from the documents, which it leaves as they are.
#[test]
fn a_damaged_text_index_alone_is_built_again_and_the_documents_are_untouched() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), false);
    let before = seen(dir.path(), DEMO_SPACE, "solar");
    let segments: Vec<_> = std::fs::read_dir(dir.path().join(TEXT_DIR))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("segment-"))
        .collect();
    let largest = segments.iter().max_by_key(|p| std::fs::metadata(p).unwrap().len()).unwrap();
    let middle = std::fs::metadata(largest).unwrap().len() / 2;
    damage::overwrite(largest, middle, &[0xde, 0xad, 0xbe, 0xef]);

    for (damaged, moved) in [(TEXT_DIR, Vec::<String>::new()), (TEXT_FILE, vec![TEXT_FILE.to_owned()])] {
        if damaged == TEXT_FILE {
            damage::overwrite_header(&dir.path().join(TEXT_FILE));
        }
        let precious = std::fs::read(dir.path().join(DB_FILE)).unwrap();
        let documents = std::fs::read(dir.path().join(DOCUMENTS_FILE)).unwrap();
        let checked = check(dir.path()).unwrap();
        let problem = checked.problems.iter().find(|p| p.file.ends_with(damaged));
        let problem = problem.unwrap_or_else(|| panic!("{damaged} is named: {checked:#?}"));
        assert!(problem.action.contains("`studio recover`"), "{problem:#?}");
        assert_eq!(checked.problems.len(), 1, "{checked:#?}");

        let report = recover(dir.path()).unwrap();
        assert!(report.text_rebuilt, "{report:#?}");
        assert!(report.lost_documents.is_empty(), "{report:#?}");
        assert_eq!(report.documents, demo::DEMO_DOCUMENTS + PRODUCTS);
        assert_eq!(files(&damage::moved_aside(dir.path())), moved, "only {damaged} is moved aside, if a file");
        assert!(std::fs::read(dir.path().join(DOCUMENTS_FILE)).unwrap() == documents, "the documents file changed");
        assert!(std::fs::read(dir.path().join(DB_FILE)).unwrap() == precious, "studio.db changed");
        assert!(check(dir.path()).unwrap().problems.is_empty());
        assert_eq!(seen(dir.path(), DEMO_SPACE, "solar"), before);
    }
}

#[test]
fn a_damaged_page_of_the_documents_names_each_space_with_what_was_kept_and_lost() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), true);
    let had = documents_per_space(dir.path());
    damage::damage_middle_page(&dir.path().join(DOCUMENTS_FILE), "documents");

    let report = recover(dir.path()).unwrap();
    assert!(!report.lost_documents.is_empty(), "{report:#?}");
    let now = documents_per_space(dir.path());
    for lost in &report.lost_documents {
        let space = &lost.search_space;
        assert_eq!(lost.kept as i64, now.get(space).copied().unwrap_or(0), "{lost:#?}");
        let n = lost.lost.expect("the count of the damaged file is known");
        assert!(n > 0);
        assert_eq!((lost.kept + n) as i64, had[space], "{lost:#?}");
        assert!(lost.message.contains(&format!("search space {space}")), "{}", lost.message);
        assert!(lost.message.contains(&format!("{} documents kept, {n} lost", lost.kept)), "{}", lost.message);
        assert!(lost.message.contains(&format!("`{}`", lost.get_back)), "{}", lost.message);
    }
    // Every space whose documents are fewer now is named, and no other.
    let named: Vec<&str> = report.lost_documents.iter().map(|l| l.search_space.as_str()).collect();
    let fewer: Vec<&str> = had.iter().filter(|(s, n)| now.get(*s) < Some(n)).map(|(s, _)| s.as_str()).collect();
    assert_eq!(named, fewer);
    assert!(check(dir.path()).unwrap().problems.is_empty());
    for lost in &report.lost_documents {
        assert_eq!(seen(dir.path(), &lost.search_space, "kettle").total, lost.kept as i64);
    }
}

#[test]
fn a_documents_file_beyond_salvage_names_every_space_and_the_command_to_load_it_again() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), false);
    damage::overwrite_header(&dir.path().join(DOCUMENTS_FILE));

    let report = recover(dir.path()).unwrap();
    assert_eq!(report.documents, 0);
    let named: Vec<(&str, &str)> =
        report.lost_documents.iter().map(|l| (l.search_space.as_str(), l.get_back.as_str())).collect();
    assert_eq!(
        named,
        [(DEMO_SPACE, "studio demo-data"), ("products", "studio import --search-space products FILE")],
        "{report:#?}"
    );
    for lost in &report.lost_documents {
        assert_eq!((lost.kept, lost.lost), (0, None));
        assert!(lost.message.contains("cannot tell how many"), "{}", lost.message);
    }
    assert!(report.lost_documents[1].message.contains("FILE: the JSON Lines file"), "{report:#?}");

    // The command named brings the demo space back.
    let store = Store::open_dir(dir.path()).unwrap();
    let backend = LocalBackend::new(store);
    demo::load_demo_data(&backend, &mut |_| {}, &std::sync::atomic::AtomicBool::new(false)).unwrap();
    close(backend);
    assert_eq!(seen(dir.path(), DEMO_SPACE, "solar").total, demo::DEMO_DOCUMENTS as i64);
}

#[test]
fn a_pulled_space_that_lost_its_documents_is_named_with_its_pull() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    let lines = (0..50).map(|i| json!({"id": format!("s{i}"), "title": format!("shop {i}")}).to_string());
    import_documents(&store, "shop", lines.collect::<Vec<_>>().join("\n").as_bytes(), &mut |_| {}).unwrap();
    // The bookmark `studio pull` keeps of a finished pull.
    store
        .conn()
        .unwrap()
        .execute(
            "INSERT INTO pulls (source, remote_id, local_id, search_space, next_start, total, finished, updated_at)
             VALUES ('https://search.example.org', 7, 1, 'shop', 50, 50, 1, '2026-01-01T00:00:00.000Z')",
            [],
        )
        .unwrap();
    store.close().unwrap();
    damage::overwrite_header(&dir.path().join(DOCUMENTS_FILE));

    let report = recover(dir.path()).unwrap();
    let named: Vec<&str> = report.lost_documents.iter().map(|l| l.get_back.as_str()).collect();
    assert_eq!(named, ["studio pull --from https://search.example.org --config 7"], "{report:#?}");
}

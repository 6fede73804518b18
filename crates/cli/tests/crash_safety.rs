//! Crash safety: `studio serve`, `studio import` and `studio pull` are killed with SIGKILL at random
//! moments while they write, dozens of times over one store. After every kill the store must pass SQLite's
//! integrity check, hold every write that was answered 200 exactly once, its full-text index must read whole and
//! hold exactly the documents' rows, and its search index must agree with the documents table: an empty search
//! finds every document of the search space, and facet counts equal a direct SQL count. A pull's bookmark is never past what it stored, and resumes to the
//! whole copy.
//!
//! Rounds are bounded (STUDIO_CRASH_ROUNDS, default 24 of each) so the test stays well under a minute.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;
use rusqlite::Connection;
use serde_json::{json, Value};
use studio_local::{LocalBackend, Store};
use studio_model::{Configuration, SearchRequest};

use crate::support::{client, serve, STUDIO};

fn rounds() -> usize {
    std::env::var("STUDIO_CRASH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(24)
}

/// What one writer learned about one configuration it created.
#[derive(Debug, Default, Clone)]
struct Written {
    /// Its id, once the create was answered 200.
    id: Option<i64>,
    /// `result.itemsPerPage` as last answered 200.
    acked: i64,
    /// A value sent whose answer never came (the server died): it may or may not be stored.
    pending: Option<i64>,
}

/// Creates configurations and updates each a few times until the server dies or `stop` is set. Returns
/// every configuration by title, including a create whose answer never came (id `None`).
fn writer(base: String, token: String, tag: String, stop: Arc<AtomicBool>) -> HashMap<String, Written> {
    let http = client(10);
    let mut seen = HashMap::new();
    let mut n = 0;
    'outer: while !stop.load(Ordering::Relaxed) {
        n += 1;
        let title = format!("{tag}-{n}");
        let body = json!({"config": {"title": title, "searchSpace": "crash", "result": {"itemsPerPage": 1}}});
        seen.insert(title.clone(), Written { id: None, acked: 1, pending: Some(1) });
        let answer = http.post(format!("{base}/api/configurations")).bearer_auth(&token).json(&body).send();
        let Some(created) = answer.ok().filter(|r| r.status() == 200).and_then(|r| r.json::<Value>().ok()) else {
            break;
        };
        let id = created["config"]["id"].as_i64().expect("a created configuration has an id");
        seen.insert(title.clone(), Written { id: Some(id), acked: 1, pending: None });
        for value in 2..=4 {
            if let Some(w) = seen.get_mut(&title) {
                w.pending = Some(value);
            }
            let body = json!({"config": {"result": {"itemsPerPage": value}}});
            let answer = http.put(format!("{base}/api/configurations/{id}")).bearer_auth(&token).json(&body).send();
            if !answer.is_ok_and(|r| r.status() == 200) {
                break 'outer;
            }
            if let Some(w) = seen.get_mut(&title) {
                (w.acked, w.pending) = (value, None);
            }
        }
    }
    seen
}

fn check_integrity(conn: &Connection) {
    let result: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).expect("integrity_check runs");
    assert_eq!(result, "ok", "SQLite's integrity check failed");
}

/// Every acknowledged write is in the store exactly once; an unacknowledged one at most once.
fn check_configurations(db: &Path, ledger: &HashMap<String, Written>) {
    let conn = Connection::open(db).expect("the store opens");
    check_integrity(&conn);
    let mut by_title: HashMap<String, Vec<Configuration>> = HashMap::new();
    let mut statement = conn.prepare("SELECT envelope FROM configurations").expect("a query");
    let rows = statement.query_map([], |r| r.get::<_, String>(0)).expect("configurations are read");
    for row in rows {
        let config: Configuration = serde_json::from_str(&row.expect("a row")).expect("a stored envelope reads");
        by_title.entry(config.config.title.clone()).or_default().push(config);
    }
    for (title, written) in ledger {
        let found = by_title.get(title).map_or(&[][..], Vec::as_slice);
        match written.id {
            Some(id) => {
                assert_eq!(found.len(), 1, "{title}: answered 200 as id {id}, stored {} times", found.len());
                assert_eq!(found[0].id, Some(id as i32), "{title}");
                let value = i64::from(found[0].config.result.items_per_page);
                assert!(
                    value == written.acked || Some(value) == written.pending,
                    "{title}: itemsPerPage {value}, but {} was answered 200 (and {:?} was in flight)",
                    written.acked,
                    written.pending
                );
                let logged: i64 = conn
                    .query_row(
                        "SELECT count(*) FROM configuration_log WHERE config_id = ?1 AND action = 'create'",
                        [id],
                        |r| r.get(0),
                    )
                    .expect("the history is read");
                assert_eq!(logged, 1, "{title}: the create is in the history once");
            }
            None => assert!(found.len() <= 1, "{title}: an unanswered create was stored {} times", found.len()),
        }
    }
}

#[test]
fn serve_killed_under_write_load_loses_no_answered_write() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut ledger: HashMap<String, Written> = HashMap::new();
    let mut rng = rand::thread_rng();
    let started = Instant::now();
    let rounds = rounds();
    for round in 0..rounds {
        let mut server = serve(&data);
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = (0..4)
            .map(|w| {
                let (base, token, stop) = (server.base.clone(), server.token.clone(), stop.clone());
                std::thread::spawn(move || writer(base, token, format!("r{round}-w{w}"), stop))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(rng.gen_range(30..400)));
        server.child.kill().expect("SIGKILL is sent");
        server.child.wait().expect("the server is reaped");
        stop.store(true, Ordering::Relaxed);
        for writer in writers {
            ledger.extend(writer.join().expect("a writer thread ends"));
        }
        check_configurations(&data.join(studio_local::DB_FILE), &ledger);
    }
    let answered = ledger.values().filter(|w| w.id.is_some()).count();
    eprintln!("serve: {rounds} kills survived, {answered} answered creates kept, in {:?}", started.elapsed());
    assert!(answered >= rounds, "the load wrote too little to mean anything ({answered} creates)");

    // The server starts on what the kills left and lists exactly what the store holds.
    let server = serve(&data);
    let list: Value = client(30)
        .get(format!("{}/api/configurations", server.base))
        .bearer_auth(&server.token)
        .send()
        .and_then(|r| r.json())
        .expect("the list is answered");
    let conn = Connection::open(data.join(studio_local::DB_FILE)).unwrap();
    let stored: i64 = conn.query_row("SELECT count(*) FROM configurations", [], |r| r.get(0)).unwrap();
    assert_eq!(list["configurations"].as_array().map(Vec::len), Some(stored as usize));
}

const SPACE: &str = "crash";
const DOCS: usize = 12_000;

/// A JSON Lines file of `DOCS` documents with an author (literal) and a topic (concept) facet each.
fn write_documents(path: &Path) {
    let mut text = String::new();
    for i in 0..DOCS {
        let doc = json!({
            "id": format!("doc-{i}"), "title": format!("Crash document {i}"), "description": "written while killed",
            "date": 1_600_000_000_000_i64 + i as i64, "type": "news",
            "facetList": [
                {"field": "dyn_lit_author", "label": "Author", "facets": [{"count": 1, "label": format!("Author {}", i % 13), "value": null}]},
                {"field": "dyn_uri_topic", "label": "Topic", "facets": [{"count": 1, "label": format!("Topic {}", i % 7), "value": format!("urn:topic:{}", i % 7)}]}
            ]
        });
        text.push_str(&doc.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

/// The search index agrees with the documents table once the store is opened again (as the next process to
/// use it does: an index an import left behind is built again then); returns the number of documents.
fn check_index(data: &Path) -> i64 {
    studio_local::Store::open_dir(data).expect("the store opens after the import").close().unwrap();
    let conn = Connection::open(data.join(studio_local::DOCUMENTS_FILE)).expect("the documents file opens");
    check_integrity(&conn);
    let index =
        studio_text::Reader::new(&data.join(studio_local::TEXT_DIR)).snapshot().expect("the full-text index reads");
    index.verify().expect("every byte of the full-text index checks");
    // Every document has the word "crash" in its title: its rows are the index's, all of them and no other.
    let mut statement = conn.prepare("SELECT num FROM documents ORDER BY num").unwrap();
    let documents: Vec<u64> =
        statement.query_map([], |r| r.get::<_, i64>(0)).unwrap().map(|row| row.unwrap() as u64).collect();
    let found = index.phrase(&studio_text::Phrase::new("crash", false)).expect("the index answers").rows;
    assert!(
        found == documents,
        "the word's rows are the documents' ({} found, {} documents)",
        found.len(),
        documents.len()
    );
    assert_eq!(index.statistics().rows, documents.len() as u64, "the full-text index holds exactly the documents");
    let count: i64 =
        conn.query_row("SELECT count(*) FROM documents WHERE search_space = ?1", [SPACE], |r| r.get(0)).unwrap();
    let mut sql_counts: HashMap<String, i64> = HashMap::new();
    let mut statement = conn
        .prepare(
            "SELECT r.value ->> 'label', count(DISTINCT d.num)
             FROM documents d, json_each(d.facet_list) g, json_each(g.value, '$.facets') r
             WHERE d.search_space = ?1 AND g.value ->> 'field' = 'dyn_lit_author' GROUP BY 1",
        )
        .unwrap();
    for row in statement.query_map([SPACE], |r| Ok((r.get(0)?, r.get(1)?))).unwrap() {
        let (label, n) = row.unwrap();
        sql_counts.insert(label, n);
    }

    // A fresh backend, as the next process to open the store would have (it may read an index snapshot).
    let backend = LocalBackend::new(Store::open_dir(data).expect("the store opens through studio-local"));
    let mut config = Configuration::template().config;
    config.search_space = SPACE.to_owned();
    config.filter.facets_to_show = serde_json::from_value(
        json!([{"uri": "dyn_lit_author", "title": "Author", "maximumTerms": 1000, "refId": "dyn_lit_author"}]),
    )
    .unwrap();
    let mut conn = backend.store().conn().unwrap();
    let answer = backend.engine().search(&mut conn, &config, &SearchRequest::default()).expect("an empty search");
    assert_eq!(answer.total, count, "an empty search finds every document of the search space");
    let index_counts: HashMap<String, i64> =
        answer.facets[0].facets.iter().map(|r| (r.label.clone(), r.count)).collect();
    assert_eq!(index_counts, sql_counts, "facet counts of the index equal the SQL counts");
    count
}

#[test]
fn import_killed_at_random_moments_leaves_a_consistent_store() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("docs.jsonl");
    write_documents(&file);
    let import = || {
        Command::new(STUDIO)
            .args(["import", "--search-space", SPACE])
            .arg(&file)
            .arg("--data-dir")
            .arg(&data)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("studio import starts")
    };
    // One whole import first: how long one takes bounds the moments to kill at.
    let started = Instant::now();
    assert!(import().wait().unwrap().success());
    let whole = started.elapsed();
    assert_eq!(check_index(&data), DOCS as i64);

    let mut rng = rand::thread_rng();
    let (mut killed, mut finished) = (0, 0);
    let mut previous = DOCS as i64;
    let rounds = rounds();
    for round in 0..rounds {
        // Every other round starts from an empty search space, so kills land mid-way through first imports.
        if round % 2 == 1 {
            let conn = Connection::open(data.join(studio_local::DOCUMENTS_FILE)).unwrap();
            conn.execute("ATTACH DATABASE ?1 AS text", [data.join(studio_local::TEXT_FILE).to_string_lossy()]).unwrap();
            // Deleted behind the store's back, so the full-text index is marked for building again.
            conn.execute_batch(
                "PRAGMA foreign_keys = ON; DELETE FROM documents WHERE search_space = 'crash';
                 UPDATE generations SET generation = generation + 1 WHERE scope = 'crash';
                 UPDATE text_state SET building = building + 1;",
            )
            .unwrap();
            previous = 0;
        }
        let mut child = import();
        let wait = whole.mul_f64(rng.gen_range(0.05..1.2));
        std::thread::sleep(wait);
        let done = matches!(child.try_wait(), Ok(Some(status)) if status.success());
        let _ = child.kill();
        let _ = child.wait();
        let count = check_index(&data);
        if done {
            finished += 1;
            assert_eq!(count, DOCS as i64, "a finished import holds every document exactly once");
        } else {
            killed += 1;
            assert!(
                count <= DOCS as i64 && count >= previous,
                "{count} documents after a killed import (before: {previous})"
            );
        }
        previous = count;
    }
    eprintln!("import: {killed} kills mid-import and {finished} finished imports, store consistent after each (whole import {whole:?})");
    assert!(killed >= rounds / 3, "too few imports were killed mid-way ({killed})");
}

/// The bookmark of the one pull into the store at `data`: the next offset, and whether it finished.
fn pull_bookmark(data: &Path) -> Option<(i64, bool)> {
    let conn = Connection::open(data.join(studio_local::DB_FILE)).unwrap();
    conn.query_row("SELECT next_start, finished FROM pulls", [], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? != 0))).ok()
}

#[test]
fn pull_killed_at_random_moments_resumes_to_a_whole_copy() {
    let dir = tempfile::tempdir().unwrap();
    let (theirs, ours) = (dir.path().join("theirs"), dir.path().join("ours"));
    let file = dir.path().join("docs.jsonl");
    write_documents(&file);
    let imported = Command::new(STUDIO)
        .args(["import", "--search-space", SPACE])
        .arg(&file)
        .arg("--data-dir")
        .arg(&theirs)
        .output()
        .unwrap();
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let remote = serve(&theirs);
    let mut config = Configuration::template();
    config.config.search_space = SPACE.to_owned();
    config.config.title = "Pulled while killed".to_owned();
    let (status, created) = remote.post("/api/configurations", &serde_json::to_value(&config).unwrap());
    assert_eq!(status, 200, "{created}");
    let id = created["config"]["id"].to_string();
    let pull = || {
        Command::new(STUDIO)
            .arg("--data-dir")
            .arg(&ours)
            .args(["pull", "--from", &remote.base, "--config", &id])
            .env("STUDIO_REMOTE_TOKEN", &remote.token)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("studio pull starts")
    };
    let started = Instant::now();
    assert!(pull().wait().unwrap().success());
    let whole = started.elapsed();
    assert_eq!(check_index(&ours), DOCS as i64);

    let mut rng = rand::thread_rng();
    let (mut killed, mut finished) = (0, 0);
    let rounds = rounds();
    for round in 0..rounds {
        // Every other round starts the copy again, so kills land in first pulls as well as in pulls over a copy.
        if round % 2 == 1 {
            let conn = Connection::open(ours.join(studio_local::DOCUMENTS_FILE)).unwrap();
            conn.execute_batch(
                "PRAGMA foreign_keys = ON; DELETE FROM documents WHERE search_space = 'crash';
                 UPDATE generations SET generation = generation + 1 WHERE scope = 'crash';",
            )
            .unwrap();
            Connection::open(ours.join(studio_local::DB_FILE)).unwrap().execute("DELETE FROM pulls", []).unwrap();
        }
        let mut child = pull();
        std::thread::sleep(whole.mul_f64(rng.gen_range(0.05..1.2)));
        let done = matches!(child.try_wait(), Ok(Some(status)) if status.success());
        let _ = child.kill();
        let _ = child.wait();
        let count = check_index(&ours);
        let (next, whole_copy) = pull_bookmark(&ours).unwrap_or((0, false));
        assert!(next <= count, "the bookmark ({next}) is never past the documents stored ({count})");
        if done {
            finished += 1;
            assert!(whole_copy && count == DOCS as i64, "a finished pull holds every document ({count})");
        } else {
            killed += 1;
        }
    }
    // What the kills left resumes to the whole copy.
    if pull_bookmark(&ours) != Some((DOCS as i64, true)) {
        assert!(pull().wait().unwrap().success());
    }
    assert_eq!(pull_bookmark(&ours), Some((DOCS as i64, true)));
    assert_eq!(check_index(&ours), DOCS as i64);
    eprintln!("pull: {killed} kills mid-pull and {finished} finished pulls, store consistent after each (whole pull {whole:?})");
    assert!(killed >= rounds / 3, "too few pulls were killed mid-way ({killed})");
}

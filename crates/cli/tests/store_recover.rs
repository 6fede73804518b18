//! `studio recover` through the real binary keeps what was intact: with pages of `studio.db` damaged, the
//! demo space and an imported space answer every search as before; with the documents file damaged, each
//! search space that lost documents is named with the command that loads them again, and that command works.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{serve, studio, Served, STUDIO};

/// Documents of the imported search space.
const PRODUCTS: usize = 500;

fn studio_in(data: &Path, args: &[&str]) -> std::process::Output {
    Command::new(STUDIO).args(args).arg("--data-dir").arg(data).output().unwrap()
}

/// Ends `studio serve` with SIGTERM (its clean exit) and waits for it.
fn stop(mut server: Served) {
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "studio serve did not end within 20 s of SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A JSON Lines file of the `products` space's documents.
fn products_file(dir: &Path) -> std::path::PathBuf {
    let lines: Vec<String> = (0..PRODUCTS)
        .map(|i| json!({"id": format!("p{i}"), "title": format!("kettle {i}"), "description": "steel ".repeat(30)}))
        .map(|d| d.to_string())
        .collect();
    let file = dir.join("products.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    file
}

/// The store a new user has: the demo data, an imported space with a configuration, and thirty configurations
/// more (so that their table spans several pages), closed cleanly.
fn build(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("data");
    studio(&["demo-data"], &data);
    let file = products_file(dir);
    studio(&["import", "--search-space", "products", file.to_str().unwrap()], &data);
    let server = serve(&data);
    for i in 0..30 {
        let space = if i == 0 { "products" } else { "demo" };
        let body = json!({"config": {"title": format!("work {i}"), "searchSpace": space,
                                     "filter": {"componentOrder": (0..40).map(|n| format!("component-{n}")).collect::<Vec<_>>()}}});
        let (status, created) = server.post("/api/configurations", &body);
        assert_eq!(status, 200, "{created}");
    }
    stop(server);
    data
}

/// What a user sees of a search space through the server: the total, what a word finds, the facets' counts.
fn seen(server: &Served, space: &str, word: &str) -> Value {
    let (status, list) = server.get("/api/configurations");
    assert_eq!(status, 200, "{list}");
    let id = list["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["config"]["searchSpace"] == space)
        .and_then(|c| c["id"].as_i64())
        .unwrap_or_else(|| panic!("a configuration of {space} is listed"));
    let search = |body: Value| {
        let (status, found) = server.post(&format!("/api/configurations/{id}/search"), &body);
        assert_eq!(status, 200, "{found}");
        found
    };
    let all = search(json!({}));
    let word = search(json!({"input": word}));
    let ids: Vec<Value> = word["result"].as_array().unwrap().iter().map(|d| d["id"].clone()).collect();
    json!({"total": all["total"], "facets": all["facets"], "wordTotal": word["total"], "wordIds": ids})
}

fn seen_now(data: &Path) -> (Value, Value) {
    let server = serve(data);
    let seen = (seen(&server, "demo", "solar"), seen(&server, "products", "kettle"));
    stop(server);
    seen
}

/// Overwrites the middle leaf page of `table` in `file`, found with SQLite's dbstat.
fn damage_middle_page(file: &Path, table: &str) {
    let (size, page) = {
        let conn = rusqlite::Connection::open(file).unwrap();
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        let mut stmt =
            conn.prepare("SELECT pageno FROM dbstat WHERE name = ?1 AND pagetype = 'leaf' ORDER BY pageno").unwrap();
        let pages: Vec<i64> = stmt.query_map([table], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
        assert!(pages.len() >= 2, "{table} spans {} leaf pages", pages.len());
        (size, pages[pages.len() / 2])
    };
    let garbage: Vec<u8> = (0..size).map(|i| (i as u8).wrapping_mul(37).wrapping_add(0xA5)).collect();
    overwrite(file, ((page - 1) * size) as u64, &garbage);
}

fn overwrite(file: &Path, at: u64, bytes: &[u8]) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::OpenOptions::new().write(true).open(file).unwrap();
    f.seek(SeekFrom::Start(at)).unwrap();
    f.write_all(bytes).unwrap();
    f.sync_all().unwrap();
}

#[test]
fn recover_after_damage_to_studio_db_keeps_every_document_searchable() {
    let dir = tempfile::tempdir().unwrap();
    let data = build(dir.path());
    let (demo, products) = seen_now(&data);
    assert_eq!(demo["total"], 2400, "{demo}");
    assert!(demo["wordTotal"].as_i64().unwrap() > 0, "{demo}");
    assert_eq!(products["total"], PRODUCTS, "{products}");

    damage_middle_page(&data.join("studio.db"), "configurations");
    let checked = studio_in(&data, &["check"]);
    let said = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(1), "{said}");
    assert!(said.contains("studio.db"), "{said}");

    let recovered = studio_in(&data, &["recover"]);
    let said = String::from_utf8_lossy(&recovered.stdout);
    assert!(recovered.status.success(), "{said}{}", String::from_utf8_lossy(&recovered.stderr));
    assert!(said.contains(&format!("and {} documents", 2400 + PRODUCTS)), "{said}");
    assert!(!said.contains("search space"), "no search space lost documents: {said}");

    let (demo_after, products_after) = seen_now(&data);
    assert_eq!(demo_after, demo, "the demo space answers as before");
    assert_eq!(products_after, products, "the imported space answers as before");
    assert!(studio_in(&data, &["check"]).status.success(), "the recovered store is healthy");
}

#[test]
fn recover_after_damage_to_the_documents_names_each_space_and_the_command_that_loads_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let data = build(dir.path());
    let (demo, products) = seen_now(&data);
    overwrite(&data.join("studio-documents.db"), 0, &[0x55; 100]);

    let recovered = studio_in(&data, &["recover"]);
    let said = String::from_utf8_lossy(&recovered.stdout).into_owned();
    assert!(recovered.status.success(), "{said}{}", String::from_utf8_lossy(&recovered.stderr));
    let line = |space: &str| -> String {
        said.lines()
            .find(|l| l.starts_with(&format!("search space {space}:")))
            .unwrap_or_else(|| panic!("search space {space} is named: {said}"))
            .to_owned()
    };
    let (demo_line, products_line) = (line("demo"), line("products"));
    assert!(demo_line.contains("0 documents kept") && demo_line.contains("`studio demo-data`"), "{demo_line}");
    assert!(
        products_line.contains("0 documents kept")
            && products_line.contains("`studio import --search-space products FILE`"),
        "{products_line}"
    );

    // The commands named bring the documents back, as they were.
    let command = |line: &str| -> Vec<String> {
        let quoted = line.split('`').nth(1).unwrap();
        quoted.split(' ').skip(1).map(str::to_owned).collect()
    };
    let file = products_file(dir.path());
    for line in [&demo_line, &products_line] {
        let args: Vec<String> =
            command(line).into_iter().map(|a| if a == "FILE" { file.display().to_string() } else { a }).collect();
        studio(&args.iter().map(String::as_str).collect::<Vec<_>>(), &data);
    }
    let (demo_after, products_after) = seen_now(&data);
    assert_eq!(demo_after, demo);
    assert_eq!(products_after, products);
}

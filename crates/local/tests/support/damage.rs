//! Damaging a store's files the way real faults do, for the tests of `check` and `recover` (this crate's
//! and the `studio` binary's): a header overwritten, a page in the middle of a table, a log frame, a
//! truncated file. Files are changed in place; the store must be closed (or the files a copy).

use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Bytes that are no valid SQLite page, header or frame.
fn garbage(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(37).wrapping_add(0xA5)).collect()
}

/// Writes `bytes` at `offset` of `file`.
pub fn overwrite(file: &Path, offset: u64, bytes: &[u8]) {
    let mut f = OpenOptions::new().write(true).open(file).unwrap();
    f.seek(SeekFrom::Start(offset)).unwrap();
    f.write_all(bytes).unwrap();
    f.sync_all().unwrap();
}

/// Overwrites the file's first 100 bytes (SQLite's header).
pub fn overwrite_header(file: &Path) {
    overwrite(file, 0, &garbage(100));
}

/// Cuts the file to `fraction` of its length.
pub fn truncate(file: &Path, fraction: f64) {
    let len = std::fs::metadata(file).unwrap().len();
    let f = OpenOptions::new().write(true).open(file).unwrap();
    f.set_len((len as f64 * fraction) as u64).unwrap();
}

/// The page size and the leaf pages of `table`, read from the (healthy) file with SQLite's dbstat.
pub fn leaf_pages(file: &Path, table: &str) -> (u64, Vec<u64>) {
    let conn = rusqlite::Connection::open(file).unwrap();
    let page_size = conn.query_row("PRAGMA page_size", [], |r| r.get::<_, i64>(0)).unwrap() as u64;
    let mut stmt =
        conn.prepare("SELECT pageno FROM dbstat WHERE name = ?1 AND pagetype = 'leaf' ORDER BY pageno").unwrap();
    let pages = stmt.query_map([table], |r| r.get::<_, i64>(0)).unwrap().map(|p| p.unwrap() as u64).collect();
    (page_size, pages)
}

/// Overwrites the middle leaf page of `table` (after its first 8 bytes, so that the page keeps its type
/// byte's neighbourhood plausible and SQLite meets the damage while reading cells).
pub fn damage_middle_page(file: &Path, table: &str) -> u64 {
    let (page_size, pages) = leaf_pages(file, table);
    assert!(pages.len() >= 2, "{table} spans {} leaf pages; the test needs more rows", pages.len());
    let page = pages[pages.len() / 2];
    overwrite(file, (page - 1) * page_size, &garbage(page_size as usize));
    page
}

/// The store's log file beside `db`.
pub fn wal_of(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// The number of frames in the log `wal` (32-byte header, then frames of 24 bytes plus a page).
pub fn wal_frames(wal: &Path) -> u64 {
    let bytes = std::fs::read(wal).unwrap();
    let page_size = u32::from_be_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as u64;
    (bytes.len() as u64 - 32) / (24 + page_size)
}

/// Overwrites the page of frame `frame` (from 0) of the log `wal`: its checksum then fails, and SQLite
/// drops this frame and every later one.
pub fn damage_wal_frame(wal: &Path, frame: u64) {
    let bytes = std::fs::read(wal).unwrap();
    let page_size = u32::from_be_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as u64;
    let offset = 32 + frame * (24 + page_size) + 24;
    overwrite(wal, offset, &garbage(64));
}

/// Copies the store's files (`studio.db` and its log, not the shared-memory index) from `from` to `to`,
/// as a file copied while open (a cloud folder's sync, a backup tool) would be.
pub fn copy_store(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for name in ["studio.db", "studio.db-wal", "studio-documents.db", "studio-documents.db-wal"] {
        if from.join(name).exists() {
            std::fs::copy(from.join(name), to.join(name)).unwrap();
        }
    }
    if from.join("backups").exists() {
        std::fs::create_dir_all(to.join("backups")).unwrap();
        for entry in std::fs::read_dir(from.join("backups")).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), to.join("backups").join(entry.file_name())).unwrap();
        }
    }
}

/// The files of `dir` whose name says they were moved aside as damaged.
pub fn moved_aside(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(".damaged-"))
        .collect();
    out.sort();
    out
}

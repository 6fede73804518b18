//! A file of about 100 MB imports in bounded memory: the peak resident size grows far less than the file.
//! Alone in its own test binary so that no other test's allocations count.

use std::io::{BufReader, BufWriter, Write};

use studio_local::demo;
use studio_local::{import_documents, Store};
use studio_testkit::io::{peak_resident_kib, reset_peak_resident};

const FILE_BYTES: u64 = 100 * 1024 * 1024;

/// The peak resident set size of this process (VmHWM), in bytes; 0 where it cannot be read.
fn peak_rss() -> u64 {
    peak_resident_kib().map_or(0, |kib| kib * 1024)
}

/// Counts bytes written through it.
struct Counting<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[test]
fn a_100_mb_file_imports_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    let mut out = Counting { inner: BufWriter::new(std::fs::File::create(&path).unwrap()), written: 0 };
    let mut lines = 0u64;
    for doc in demo::generate_documents(usize::MAX, 99) {
        serde_json::to_writer(&mut out, &doc).unwrap();
        out.write_all(b"\n").unwrap();
        lines += 1;
        if out.written >= FILE_BYTES {
            break;
        }
    }
    out.flush().unwrap();
    drop(out);
    if peak_rss() == 0 {
        eprintln!("no /proc/self/status here; memory is not measured");
    }

    let store = Store::open_dir(dir.path()).unwrap();
    // Reset the peak to the current size, so that generating the file does not hide the import's peak.
    reset_peak_resident();
    let before = peak_rss();
    let file = BufReader::new(std::fs::File::open(&path).unwrap());
    let report = import_documents(&store, "big", file, &mut |_| {}).unwrap();
    let after = peak_rss();
    assert_eq!(report.imported, lines);
    assert!(report.errors.is_empty());
    let grown = after.saturating_sub(before);
    eprintln!("imported {lines} documents ({FILE_BYTES} bytes); peak RSS grew by {} MiB", grown / (1024 * 1024));
    assert!(grown < 48 * 1024 * 1024, "peak RSS grew by {grown} bytes while importing a {FILE_BYTES}-byte file");
}

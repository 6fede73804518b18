//! Readers of what a process holds in memory, for the tests that bound it (an import of a large file, a
//! server under load): the resident size of any process and the peak resident size of the test's own,
//! both from Linux's `/proc/<pid>/status`. Elsewhere they answer `None`, and such a test says that it did
//! not measure rather than failing. Whether a process may have transparent huge pages, and the calling thread's
//! scheduling policy, for the tests of what the processes ask of the system. And the files an open store leaves
//! beside it, for the tests of closing.

/// The resident memory (`VmRSS`) of process `pid`, in KiB.
pub fn resident_kib(pid: u32) -> Option<u64> {
    status_kib(&format!("/proc/{pid}/status"), "VmRSS:")
}

/// The peak resident memory (`VmHWM`) of this process, in KiB.
pub fn peak_resident_kib() -> Option<u64> {
    status_kib("/proc/self/status", "VmHWM:")
}

/// Sets this process's peak resident memory back to its current size (Linux 4.0 and later), so that what
/// a test did before does not hide the peak of what it measures. False where that is not possible.
pub fn reset_peak_resident() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Whether the kernel may back process `pid`'s memory with transparent huge pages (`THP_enabled`, Linux 5.0 and
/// later).
pub fn transparent_huge_pages(pid: u32) -> Option<bool> {
    Some(status_field(&format!("/proc/{pid}/status"), "THP_enabled:")? != "0")
}

/// The scheduling policy of the calling thread (field 41 of `/proc/thread-self/stat`; 0 is the default).
pub fn own_thread_policy() -> Option<i32> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command's name, in parentheses, which may hold spaces; the first of them is field 3.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(41 - 3)?.parse().ok()
}

fn status_kib(path: &str, field: &str) -> Option<u64> {
    status_field(path, field)?.trim_end_matches("kB").trim().parse().ok()
}

/// The value of `field` (its name with the colon) in a `/proc/…/status` file, trimmed.
fn status_field(path: &str, field: &str) -> Option<String> {
    let status = std::fs::read_to_string(path).ok()?;
    status.lines().find_map(|line| line.strip_prefix(field)).map(|value| value.trim().to_owned())
}

/// The names of the files in `dir` that only an open SQLite database leaves: its `-wal` and `-shm` logs.
pub fn sqlite_logs(dir: &std::path::Path) -> Vec<String> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    entries
        .map(|e| e.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display())).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n.ends_with("-wal") || n.ends_with("-shm"))
        .collect()
}

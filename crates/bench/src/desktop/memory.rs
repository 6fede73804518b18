//! The memory of a process tree as the kernel accounts it: each process's proportional set size (`Pss:` of
//! `/proc/<pid>/smaps_rollup`, every shared page split between the processes sharing it), so that the parts
//! add up to what the whole tree costs the machine. Linux only; it never writes anything.

use std::path::{Path, PathBuf};

use studio_bench::BenchError;

/// One process of a tree and its proportional set size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessMemory {
    pub pid: u32,
    /// Its command name (`/proc/<pid>/comm`, at most 15 bytes: `WebKitWebProces`).
    pub name: String,
    pub pss_kb: u64,
}

/// The processes of the machine with their parents, from `/proc/<pid>/stat`.
fn parents() -> Result<Vec<(u32, u32)>, BenchError> {
    let proc = Path::new("/proc");
    let entries = std::fs::read_dir(proc).map_err(BenchError::file("list", proc))?;
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        // A process may end between the listing and the reading: it is then no part of any tree.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // `pid (comm) state ppid ...`; the command name may hold spaces and parentheses, so read after the last `)`.
        let parent = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse().ok());
        if let Some(parent) = parent {
            found.push((pid, parent));
        }
    }
    Ok(found)
}

/// `root` and every process descending from it, `root` first.
pub fn tree(root: u32) -> Result<Vec<u32>, BenchError> {
    let all = parents()?;
    let mut members = vec![root];
    let mut next = 0;
    while let Some(&pid) = members.get(next) {
        members.extend(all.iter().filter(|&&(_, parent)| parent == pid).map(|&(child, _)| child));
        next += 1;
    }
    Ok(members)
}

/// The `Pss:` figure, in kB, of a `smaps_rollup` text.
fn pss_of(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("Pss:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The proportional set size of process `pid`, in kB.
pub fn pss_kb(pid: u32) -> Result<u64, BenchError> {
    let path = PathBuf::from(format!("/proc/{pid}/smaps_rollup"));
    let text = std::fs::read_to_string(&path).map_err(BenchError::file("read", &path))?;
    pss_of(&text).ok_or(BenchError::NoPss(path))
}

/// The memory of `root` and of every process descending from it. A descendant that ends while it is read is
/// left out; `root` itself must be readable.
pub fn tree_memory(root: u32) -> Result<Vec<ProcessMemory>, BenchError> {
    let mut list = Vec::new();
    for pid in tree(root)? {
        let comm = PathBuf::from(format!("/proc/{pid}/comm"));
        let read = std::fs::read_to_string(&comm)
            .map_err(BenchError::file("read", &comm))
            .and_then(|name| Ok(ProcessMemory { pid, name: name.trim().to_owned(), pss_kb: pss_kb(pid)? }));
        match read {
            Ok(memory) => list.push(memory),
            Err(e) if pid == root => return Err(e),
            Err(_) => {}
        }
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_pss_line() {
        let text = "55d0-7ffd ---p 00000000 00:00 0 [rollup]\nRss: 9000 kB\nPss: 4321 kB\nPss_Dirty: 12 kB\n";
        assert_eq!(pss_of(text), Some(4321));
        assert_eq!(pss_of("Rss: 1 kB\n"), None);
    }
}

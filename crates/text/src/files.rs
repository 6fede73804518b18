//! The index's files and how they come to be: each written under a temporary name, synced, renamed into place
//! and its directory synced, so that a file under its own name is complete and on disk.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::TextError;

/// The manifest's name in the index's directory.
pub(crate) const MANIFEST: &str = "manifest";
/// The lock file that keeps a second writer out.
pub(crate) const LOCK: &str = "lock";
/// What a file being written is called until it is complete.
pub(crate) const TEMPORARY: &str = ".tmp";
const SEGMENT_PREFIX: &str = "segment-";
const SEGMENT_SUFFIX: &str = ".tix";

/// The file of segment `id` in `dir`.
pub(crate) fn segment_path(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("{SEGMENT_PREFIX}{id:016x}{SEGMENT_SUFFIX}"))
}

/// The segment id a file name stands for, if it is a segment's.
pub(crate) fn segment_id(name: &str) -> Option<u64> {
    let hex = name.strip_prefix(SEGMENT_PREFIX)?.strip_suffix(SEGMENT_SUFFIX)?;
    if hex.len() != 16 {
        return None;
    }
    u64::from_str_radix(hex, 16).ok()
}

/// The temporary name of the file `path` while it is written.
pub(crate) fn temporary(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(TEMPORARY);
    PathBuf::from(name)
}

/// Syncs the directory `dir`, so that the names created, renamed or removed in it are on disk.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), TextError> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(TextError::io("sync the directory", dir))
}

/// Makes the file written and synced at `from` the file `to`, and syncs their directory.
pub(crate) fn publish(from: &Path, to: &Path) -> Result<(), TextError> {
    std::fs::rename(from, to).map_err(TextError::io("rename into place", from))?;
    sync_dir(to.parent().unwrap_or(Path::new(".")))
}

/// Writes `bytes` as the file `path`: under a temporary name, synced, renamed over `path`, directory synced.
pub(crate) fn replace(path: &Path, bytes: &[u8]) -> Result<(), TextError> {
    let tmp = temporary(path);
    let mut file = File::create(&tmp).map_err(TextError::io("create", &tmp))?;
    file.write_all(bytes).map_err(TextError::io("write", &tmp))?;
    file.sync_all().map_err(TextError::io("sync", &tmp))?;
    drop(file);
    publish(&tmp, path)
}

/// Removes the file `path`; one already gone is no failure.
pub(crate) fn remove(path: &Path) -> Result<(), TextError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(TextError::io("remove", path)(e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_names_round_trip() {
        let path = segment_path(Path::new("/x"), 0x1f);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap();
        assert_eq!(name, "segment-000000000000001f.tix");
        assert_eq!(segment_id(name), Some(0x1f));
        assert_eq!(segment_id("segment-1f.tix"), None);
        assert_eq!(segment_id("segment-000000000000001f.tix.tmp"), None);
    }
}

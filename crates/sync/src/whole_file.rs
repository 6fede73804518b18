//! A file written whole or not at all, for what the programs keep in files of their own: exports of
//! configurations, a folder workspace's configuration files, the desktop's settings ([`write_whole`]); and a
//! damaged file of the desktop's kept beside it, never deleted ([`set_aside`]).

use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

/// Writes `text` as the file at `path` whole or not at all, as an export is written: into a new file beside it,
/// synced, then renamed over it and the folder synced, so that a write that fails (a full disk) leaves an earlier
/// file as it was and one that succeeds is on disk, name and all. A link
/// is followed (it stays, and the file it names is replaced) and an earlier file's permissions are kept. What is not
/// a plain file (`/dev/stdout`, a pipe) is written to as it is, and so is a file in a folder where this user may not
/// make a new one.
pub fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let target = match std::fs::canonicalize(path) {
        Ok(target) => target,
        Err(e) if e.kind() == ErrorKind::NotFound => path.to_owned(),
        Err(e) => return Err(e),
    };
    let earlier = std::fs::metadata(&target).ok();
    if earlier.as_ref().is_some_and(|m| !m.is_file()) {
        return write_in_place(&target, text);
    }
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // A hidden name beside it (`.news.json.a1b2c3.tmp`), which a folder workspace's listing passes over.
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut temp = match tempfile::Builder::new().prefix(&format!(".{name}.")).suffix(".tmp").tempfile_in(dir) {
        Ok(temp) => temp,
        Err(e) if e.kind() == ErrorKind::PermissionDenied && earlier.is_some() => return write_in_place(&target, text),
        Err(e) => return Err(e),
    };
    temp.write_all(text.as_bytes())?;
    if let Some(earlier) = &earlier {
        temp.as_file().set_permissions(earlier.permissions())?;
    }
    temp.as_file().sync_all()?;
    temp.persist(&target).map_err(|e| e.error)?;
    // The new name on disk too, before the write is acknowledged.
    #[cfg(unix)]
    std::fs::File::open(dir)?.sync_all()?;
    Ok(())
}

/// Moves the damaged file at `path` aside, to `<stem>.damaged-<UTC time>.json` beside it (the desktop's secrets and
/// settings files), and answers the new path. It is kept, never deleted: the designer may still want what it holds.
pub fn set_aside(path: &Path) -> std::io::Result<PathBuf> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut aside = path.with_file_name(format!("{stem}.damaged-{stamp}.json"));
    let mut n = 1;
    while aside.exists() {
        n += 1;
        aside = path.with_file_name(format!("{stem}.damaged-{stamp}-{n}.json"));
    }
    std::fs::rename(path, &aside)?;
    Ok(aside)
}

/// Writes `text` into the file at `path` as it is, synced when it is a plain file.
fn write_in_place(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = OpenOptions::new().write(true).create(true).truncate(true).open(path)?;
    file.write_all(text.as_bytes())?;
    if file.metadata()?.is_file() {
        file.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::write_whole;

    fn names(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn an_export_replaces_the_file_whole_keeping_its_permissions_and_a_link_to_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("all.json");
        std::fs::write(&file, "an earlier export\n").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("latest.json");
        std::os::unix::fs::symlink(&file, &link).unwrap();

        write_whole(&link, "{}\n").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "{}\n");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o640);
        assert_eq!(names(dir.path()), ["all.json", "latest.json"], "no temporary file is left");

        let new = dir.path().join("new.json");
        write_whole(&new, "[]\n").unwrap();
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "[]\n");
    }

    #[test]
    fn an_export_to_a_pipe_is_written_into_it_and_leaves_it_a_pipe() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("pipe");
        assert!(std::process::Command::new("mkfifo").arg(&pipe).status().unwrap().success());
        let reader = {
            let pipe = pipe.clone();
            std::thread::spawn(move || std::fs::read_to_string(pipe).unwrap())
        };
        write_whole(&pipe, "{}\n").unwrap();
        assert_eq!(reader.join().unwrap(), "{}\n");
        assert!(!std::fs::symlink_metadata(&pipe).unwrap().is_file(), "still a pipe, not replaced by a file");
        assert_eq!(names(dir.path()), ["pipe"]);
    }
}

//! `studio bench`: runs the `studio-bench` program installed next to `studio` with the arguments as given.
//! The benchmark (corpus, workload, the engines compared, reports, charts) is its own crate, crates/bench,
//! so that `studio` links none of it, nor tantivy; this module only finds and starts that program.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::{BenchError, CliError};
use crate::global_args::GlobalArgs;

/// The program `studio bench` runs, found in the directory of `studio`.
const PROGRAM: &str = "studio-bench";

#[derive(Args)]
pub struct BenchArgs {
    /// Arguments of studio-bench, passed to it as given, e.g. `--docs 100000 --json` (`studio-bench --help`
    /// lists them); its store goes to a fresh directory under the data directory, removed after, unless
    /// --dir names one
    #[arg(value_name = "ARGS", allow_hyphen_values = true, num_args = 0..)]
    args: Vec<OsString>,
}

/// `studio bench ARGS…`: `studio-bench ARGS…`, with a scratch store under the data directory unless the
/// arguments name a --dir.
pub fn run(global: &GlobalArgs, args: &BenchArgs) -> Result<(), CliError> {
    let program = sibling_program()?;
    let (data_dir, args) = take_data_dir(&args.args);
    let names_dir = args.iter().any(|a| a == "--dir" || a.to_string_lossy().starts_with("--dir="));
    let scratch = match (names_dir, data_dir) {
        (true, _) => None,
        (false, Some(data_dir)) => Some(tempdir_in(&data_dir)?),
        (false, None) => Some(tempdir_in(&global.data_dir()?)?),
    };
    let mut command = std::process::Command::new(&program);
    command.args(&args);
    if let Some(dir) = &scratch {
        command.arg("--dir").arg(dir);
    }
    let status = command.status();
    if let Some(dir) = &scratch {
        let _ = std::fs::remove_dir_all(dir);
    }
    let status =
        status.map_err(|source| CliError::Io { what: "cannot run", path: program.display().to_string(), source })?;
    if status.success() {
        Ok(())
    } else {
        Err(BenchError::Failed(status).into())
    }
}

/// Takes studio's own `--data-dir DIR` (or `--data-dir=DIR`) out of the arguments: it may follow them, as
/// a global option may follow any command's arguments, and is studio's, not studio-bench's.
fn take_data_dir(args: &[OsString]) -> (Option<PathBuf>, Vec<OsString>) {
    let (mut data_dir, mut rest) = (None, Vec::with_capacity(args.len()));
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--data-dir" {
            data_dir = args.next().map(PathBuf::from);
        } else if let Some(dir) = arg.to_str().and_then(|a| a.strip_prefix("--data-dir=")) {
            data_dir = Some(PathBuf::from(dir));
        } else {
            rest.push(arg.clone());
        }
    }
    (data_dir, rest)
}

/// The `studio-bench` executable in the directory of the running `studio`.
fn sibling_program() -> Result<PathBuf, CliError> {
    let exe = std::env::current_exe().map_err(|source| CliError::Io {
        what: "cannot locate",
        path: "studio".into(),
        source,
    })?;
    let program = exe.with_file_name(format!("{PROGRAM}{}", std::env::consts::EXE_SUFFIX));
    if program.is_file() {
        Ok(program)
    } else {
        Err(BenchError::NotBuilt(program).into())
    }
}

/// A fresh directory for a benchmark's store under the data directory, removed after the run. It is
/// always a new directory made here: a name that already exists (a leftover, or a link planted to point
/// elsewhere) is never reused, so the run cannot write into, or its clean-up delete, anything else.
fn tempdir_in(parent: &Path) -> Result<PathBuf, CliError> {
    std::fs::create_dir_all(parent).map_err(|source| CliError::Io {
        what: "cannot create",
        path: parent.display().to_string(),
        source,
    })?;
    let mut attempt = 0u32;
    loop {
        let dir = parent.join(format!("bench-{}-{attempt}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
            Err(source) => return Err(CliError::Io { what: "cannot create", path: dir.display().to_string(), source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tempdir_in;

    #[test]
    fn a_bench_directory_is_always_new_and_inside_the_data_directory() {
        let root = tempfile::tempdir().unwrap();
        let (data, elsewhere) = (root.path().join("data"), root.path().join("elsewhere"));
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::create_dir_all(&data).unwrap();
        // A leftover directory and a planted link under the names a run would try first.
        std::fs::create_dir(data.join(format!("bench-{}-0", std::process::id()))).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&elsewhere, data.join(format!("bench-{}-1", std::process::id()))).unwrap();
        let dir = tempdir_in(&data).unwrap();
        assert_eq!(dir.parent(), Some(data.as_path()));
        assert!(std::fs::symlink_metadata(&dir).unwrap().is_dir(), "a real directory, not a link");
        assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "and an empty one");
        assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());
    }
}

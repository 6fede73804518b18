//! `studio-bench --desktop APP --start-order FILE`: the functions of APP that its everyday launch runs, one
//! name a line, for the linker to place together at the front of the binary's code (LLD's
//! `--symbol-ordering-file`; scripts/desktop-release.sh relinks with it).
//!
//! The kernel maps a program's code into memory in blocks around each function the program runs. The start
//! of the app runs about 3 MB of functions spread over its 18 MB of code, which left 12 MB of code in memory
//! when idle; placed together they take about 4 (docs/performance-journal.md, "The start's code placed
//! together").
//!
//! How the functions are found: APP is launched once on a fresh data directory (the demo data is loaded, as
//! for a new user), then again on it under valgrind's callgrind, which records every function run. Neither
//! launch needs the benchmark's mark, so a build without `bench-hooks` (the packaged one) is profiled the same
//! way: a launch is taken as done when its process has been quiet (at most [`QUIET_SHARE`] of one core) for
//! [`QUIET_FOR`], which in the app comes after its first results are shown and its idle upkeep has run.
//! Callgrind's record is then written out (`callgrind_control --dump`) before the app is ended, so what the
//! app runs on its way out is not in it. Names are exact symbol names of this build of APP: the list holds
//! for this binary only, and is made again for every build.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use studio_bench::BenchError;
use studio_model::marks::MARK_FIRST_RESULTS;

use super::display::Display;
use super::launch::stop;

/// How long a launch must have been quiet to be taken as done.
const QUIET_FOR: Duration = Duration::from_secs(3);

/// The share of one core a quiet process may use (timers, the main loop's wake-ups).
const QUIET_SHARE: f64 = 0.05;

/// How long a launch may take to become quiet: under callgrind the app runs some 30 to 50 times slower.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(300);

/// The kernel's clock ticks per second for the CPU times of `/proc/<pid>/stat` (`USER_HZ`, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// The CPU time, in seconds, that process `pid` (all its threads) has used; `None` once it has ended.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid ...`: utime and stime are the 12th and 13th fields after the command name.
    let rest = stat.rsplit_once(')')?.1;
    let mut fields = rest.split_whitespace().skip(11);
    let (user, system): (f64, f64) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
    Some((user + system) / TICKS_PER_SECOND)
}

/// Waits until `child` has used at most [`QUIET_SHARE`] of a core over the last [`QUIET_FOR`].
fn wait_until_quiet(child: &mut Child, app: &Path, log: &Path) -> Result<(), BenchError> {
    let started = Instant::now();
    let step = Duration::from_millis(250);
    let window = (QUIET_FOR.as_millis() / step.as_millis()) as usize;
    let mut samples: Vec<f64> = Vec::new();
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(BenchError::AppEnded { app: app.to_owned(), status, log: super::launch::log_tail(log) });
        }
        if let Some(used) = cpu_seconds(child.id()) {
            samples.push(used);
        }
        if samples.len() > window {
            let recent = samples[samples.len() - 1] - samples[samples.len() - 1 - window];
            if recent <= QUIET_SHARE * QUIET_FOR.as_secs_f64() {
                return Ok(());
            }
        }
        if started.elapsed() > LAUNCH_TIMEOUT {
            stop(child);
            return Err(BenchError::NeverQuiet { app: app.to_owned(), seconds: LAUNCH_TIMEOUT.as_secs() });
        }
        std::thread::sleep(step);
    }
}

/// A command for `program` on `display`, with the app's data directory `data`, its output to `log`.
fn command(program: &OsStr, display: &Display, data: &Path, log: &Path) -> Result<Command, BenchError> {
    let log_file = std::fs::File::create(log).map_err(BenchError::file("write", log))?;
    let mut command = Command::new(program);
    command
        .env("DISPLAY", &display.name)
        .env("SEARCH_STUDIO_DATA_DIR", data)
        // The benchmark's build prints its mark when asked, as in the launches it measures (others ignore it).
        .env(MARK_FIRST_RESULTS, "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log_file);
    Ok(command)
}

/// The functions of `object` that a callgrind record (written with `--compress-strings=no --demangle=no`) names, in the
/// order they first appear. Every `fn=` line names a function of the object of the last `ob=` line; a `cfn=`
/// line names a function called from it, of the object of the last `cob=` line, or of `ob=`'s when the call
/// record has none.
pub fn functions_of(record: &str, object: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut names = Vec::new();
    let (mut ob, mut cob): (&str, Option<&str>) = ("", None);
    for line in record.lines() {
        let Some((key, value)) = line.split_once('=') else { continue };
        let name = match key {
            "ob" => {
                ob = value;
                cob = None;
                continue;
            }
            "cob" => {
                cob = Some(value);
                continue;
            }
            "fn" => {
                cob = None;
                (ob == object).then_some(value)
            }
            "cfn" => (cob.unwrap_or(ob) == object).then_some(value),
            "calls" => {
                cob = None;
                continue;
            }
            _ => continue,
        };
        // A function called within its own recursion is named with the depth after a quote (`f'2`).
        let name = name.map(|n| n.rsplit_once('\'').filter(|(_, d)| d.parse::<u32>().is_ok()).map_or(n, |(f, _)| f));
        // Left out: code without a symbol (`0x…`) and callgrind's own names (`(below main)`).
        if let Some(name) = name.filter(|n| !n.is_empty() && !n.starts_with("0x") && !n.starts_with('(')) {
            if seen.insert(name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// Profiles `app`'s everyday launch and writes the functions it runs to `out`; answers how many.
pub fn write(app: &Path, out: &Path) -> Result<usize, BenchError> {
    let app = std::fs::canonicalize(app).map_err(|source| BenchError::AppStart { app: app.to_owned(), source })?;
    let display = Display::open()?;
    let scratch = std::env::temp_dir().join(format!("studio-bench-start-order-{}", std::process::id()));
    let result = profile(&app, &display, &scratch).and_then(|record| {
        let names = functions_of(&record, &app.to_string_lossy());
        if names.is_empty() {
            return Err(BenchError::NoFunctions(app.clone()));
        }
        let tmp = out.with_extension("partial");
        let written = std::fs::File::create(&tmp)
            .and_then(|mut f| f.write_all(names.join("\n").as_bytes()).and_then(|()| f.write_all(b"\n")))
            .and_then(|()| std::fs::rename(&tmp, out));
        written.map_err(BenchError::file("write", out))?;
        Ok(names.len())
    });
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

/// The first launch, then the everyday launch under callgrind: callgrind's record of the start.
fn profile(app: &Path, display: &Display, scratch: &Path) -> Result<String, BenchError> {
    let data = scratch.join("data");
    std::fs::create_dir_all(&data).map_err(BenchError::file("create", &data))?;
    let log = scratch.join("first.log");
    let mut first = command(app.as_os_str(), display, &data, &log)?
        .spawn()
        .map_err(|source| BenchError::AppStart { app: app.to_owned(), source })?;
    let quiet = wait_until_quiet(&mut first, app, &log);
    stop(&mut first);
    quiet?;

    let record = scratch.join("callgrind.out");
    let out_file = format!("--callgrind-out-file={}", record.display());
    let options = [
        "--tool=callgrind",
        "--demangle=no",
        "--dump-instr=no",
        "--compress-strings=no",
        "--compress-pos=no",
        &out_file,
        "--",
    ];
    let log = scratch.join("callgrind.log");
    let mut child = command(OsStr::new("valgrind"), display, &data, &log)?
        .args(options)
        .arg(app)
        .spawn()
        .map_err(BenchError::NoValgrind)?;
    let dumped = wait_until_quiet(&mut child, app, &log).and_then(|()| dump(child.id()));
    stop(&mut child);
    dumped?;
    // The dump asked for is the first of the run: callgrind writes it beside the file named, with `.1`.
    let first_dump = PathBuf::from(format!("{}.1", record.display()));
    std::fs::read_to_string(&first_dump).map_err(BenchError::file("read", &first_dump))
}

/// Asks callgrind in process `pid` to write its record so far; it has when this answers.
fn dump(pid: u32) -> Result<(), BenchError> {
    let output = Command::new("callgrind_control")
        .args(["--dump", &pid.to_string()])
        .stdin(Stdio::null())
        .output()
        .map_err(BenchError::NoValgrind)?;
    if output.status.success() {
        Ok(())
    } else {
        Err(BenchError::DumpFailed(String::from_utf8_lossy(&output.stderr).trim().to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_s_functions_of_the_app_are_kept_in_order_once_each() {
        // The shape callgrind writes with --compress-strings=no --compress-pos=no (names shortened).
        let record = "\
version: 1
creator: callgrind-3.19.0
cmd: /opt/app
events: Ir

ob=/opt/app
fl=???
fn=main
3 12
cob=/usr/lib/libc.so.6
cfi=???
cfn=malloc
calls=2 0
4 80
cfn=app_start
calls=1 0
5 900
cfn=main'2
calls=1 0
6 3

ob=/usr/lib/libc.so.6
fl=???
fn=malloc
0 40
cob=/opt/app
cfn=app_alloc_hook
calls=1 0
0 5
cfn=free
calls=1 0
0 4

ob=/opt/app
fn=app_start
1 900
fn=main
2 1
fn=0x0000000000012345
1 3
fn=(below main)
1 1
";
        assert_eq!(functions_of(record, "/opt/app"), ["main", "app_start", "app_alloc_hook"]);
        assert_eq!(functions_of(record, "/usr/lib/libc.so.6"), ["malloc", "free"]);
        assert!(functions_of(record, "/opt/other").is_empty());
    }

    #[test]
    fn a_process_s_cpu_time_is_read_and_an_ended_one_has_none() {
        let me = std::process::id();
        let before = cpu_seconds(me).unwrap();
        let mut x = 0u64;
        let started = Instant::now();
        while started.elapsed() < Duration::from_millis(300) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        assert!(cpu_seconds(me).unwrap() > before, "300 ms of work counted");
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert_eq!(cpu_seconds(pid), None);
    }
}

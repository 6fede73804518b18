//! One launch of a desktop program (the app, or the empty window it is measured beside): spawned on the display,
//! timed from the spawn to the first-results mark on its standard output ([`studio_model::marks`]), left idle,
//! its process tree's memory read, then ended as closing its window ends it.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use studio_bench::BenchError;
use studio_model::marks::{FIRST_RESULTS_LINE, MARK_FIRST_RESULTS};

use super::display::Display;
use super::memory::{tree_memory, ProcessMemory};

/// How long a launch waits.
#[derive(Debug, Clone, Copy)]
pub struct Wait {
    /// How long the program may take to mark its first results before the run fails.
    pub timeout: Duration,
    /// How long after the mark the memory is read, the program being idle.
    pub idle: Duration,
}

/// One launch: when the results showed, and the process tree's memory once idle.
#[derive(Debug)]
pub struct Launch {
    pub first_results: Duration,
    pub memory: Vec<ProcessMemory>,
}

/// One program to launch: its binary and what its environment holds beyond the display and the mark.
pub struct Program<'a> {
    pub binary: &'a Path,
    pub env: Vec<(&'a str, &'a OsStr)>,
}

/// The last lines of a program's log, for an error message.
pub fn log_tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(8)..].join("\n")
}

/// Ends the program as closing its window does (SIGTERM: the app takes its exit backup and closes the store),
/// or kills it when it has not ended within 20 s.
pub fn stop(child: &mut Child) {
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Launches `program`, waits for its first-results mark, then for it to be idle, reads its memory and ends it;
/// its standard error goes to `log`.
pub fn launch(program: &Program, display: &Display, wait: Wait, log: &Path) -> Result<Launch, BenchError> {
    let binary: PathBuf = program.binary.to_owned();
    let log_file = std::fs::File::create(log).map_err(BenchError::file("write", log))?;
    let started = Instant::now();
    let mut child = Command::new(&binary)
        .envs(program.env.iter().copied())
        .env("DISPLAY", &display.name)
        .env(MARK_FIRST_RESULTS, "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log_file)
        .spawn()
        .map_err(|source| BenchError::AppStart { app: binary.clone(), source })?;
    let (marks, marked) = mpsc::channel();
    if let Some(out) = child.stdout.take() {
        // Reads (and so drains) the program's output to its end; the moment is taken as the line arrives.
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                match line {
                    Ok(line) if line.trim() == FIRST_RESULTS_LINE => {
                        let _ = marks.send(Instant::now());
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
        });
    }
    let shown = loop {
        match marked.recv_timeout(Duration::from_millis(50)) {
            Ok(at) => break at,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {}
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(BenchError::AppEnded { app: binary, status, log: log_tail(log) });
        }
        if started.elapsed() > wait.timeout {
            stop(&mut child);
            return Err(BenchError::NoResults { app: binary, seconds: wait.timeout.as_secs(), log: log_tail(log) });
        }
    };
    std::thread::sleep(wait.idle);
    let memory = tree_memory(child.id());
    stop(&mut child);
    Ok(Launch { first_results: shown.duration_since(started), memory: memory? })
}

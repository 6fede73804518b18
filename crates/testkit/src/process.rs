//! One test server process: `node servers/<script>` with its stdin held open (the script exits when it
//! closes, so a crashed test leaves nothing running), its one announcement line read from stdout, its
//! stderr kept for error messages, and the process killed on drop.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::Value;

use crate::error::TestkitError;

/// The absolute path of `crates/testkit/servers`, for tests that start the scripts themselves.
pub fn servers_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("servers")
}

/// How long a script may take to say where it listens (a cold Node start on a busy machine).
const STARTUP: Duration = Duration::from_secs(30);

/// The most of a server's stderr kept for error messages.
const KEPT_OUTPUT: usize = 32 * 1024;

pub(crate) struct ServerProcess {
    child: Child,
    _stdin: Option<ChildStdin>,
}

/// Starts of a script tried before giving up on one that says nothing: a start usually takes 1–2 s on a busy
/// 2-core machine, yet once in a fresh-clone run of the whole suite the provider said nothing for 30 s, and a
/// second start is cheaper than a failed run.
const ATTEMPTS: usize = 2;

impl ServerProcess {
    /// Starts `node servers/<script> <args>` and returns it with the JSON object it announced; a start that
    /// says nothing within [`STARTUP`] is ended and tried again, up to [`ATTEMPTS`] in all.
    pub(crate) fn start(script: &str, args: &[OsString]) -> Result<(ServerProcess, Value), TestkitError> {
        let mut attempt = 1;
        loop {
            match ServerProcess::start_once(script, args) {
                Err(TestkitError::Silent { .. }) if attempt < ATTEMPTS => {
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    fn start_once(script: &str, args: &[OsString]) -> Result<(ServerProcess, Value), TestkitError> {
        let mut child = Command::new("node")
            .arg(servers_dir().join(script))
            .args(args)
            .current_dir(servers_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| TestkitError::Spawn { script: script.to_owned(), source })?;
        let stdin = child.stdin.take();
        let output = Arc::new(Mutex::new(String::new()));
        if let Some(stderr) = child.stderr.take() {
            keep_output(stderr, Arc::clone(&output));
        }
        let first_line = child.stdout.take().map(announcement);
        let mut server = ServerProcess { child, _stdin: stdin };

        let written = || output.lock().map(|text| text.clone()).unwrap_or_default();
        let not_started =
            |reason: String| TestkitError::NotStarted { script: script.to_owned(), reason, output: written() };
        let line = match first_line.map(|lines| lines.recv_timeout(STARTUP)) {
            Some(Ok(Some(line))) => line,
            Some(Ok(None)) | None => {
                // Give its stderr a moment to arrive: it says why it ended.
                let _ = server.child.wait();
                thread::sleep(Duration::from_millis(100));
                return Err(not_started("it ended without a word on stdout".into()));
            }
            Some(Err(_)) => {
                return Err(TestkitError::Silent {
                    script: script.to_owned(),
                    seconds: STARTUP.as_secs(),
                    output: written(),
                })
            }
        };
        match serde_json::from_str::<Value>(&line) {
            Ok(value) if value.is_object() => Ok((server, value)),
            _ => Err(not_started(format!("its first line was {line:?}, not a JSON object"))),
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads stdout on a thread: the first line goes to the channel (None if stdout ends first); the rest is
/// read and dropped so that the script never blocks on a full pipe.
fn announcement(stdout: impl Read + Send + 'static) -> mpsc::Receiver<Option<String>> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        let first = lines.next().and_then(Result::ok);
        let _ = sender.send(first);
        for _ in lines {}
    });
    receiver
}

/// Reads stderr on a thread into `output`, keeping its last `KEPT_OUTPUT` bytes.
fn keep_output(stderr: impl Read + Send + 'static, output: Arc<Mutex<String>>) {
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let Ok(mut text) = output.lock() else { break };
            text.push_str(&line);
            text.push('\n');
            if text.len() > KEPT_OUTPUT {
                let mut cut = text.len() - KEPT_OUTPUT;
                while !text.is_char_boundary(cut) {
                    cut += 1;
                }
                text.drain(..cut);
            }
        }
    });
}

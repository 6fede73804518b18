//! `studio serve` telling a service manager how it is (the notify protocol), through the real binary on
//! loopback: READY=1 only once the store is open (while /readyz says why not), watchdog pings at half the
//! interval asked for, STOPPING=1 at SIGTERM.

use std::os::unix::net::UnixDatagram;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::remote_support::free_port;
use crate::support::{client, kill, serve_with, wait_exit, STUDIO};

/// The messages a notify socket receives, with the time each came.
struct NotifySocket {
    path: std::path::PathBuf,
    messages: mpsc::Receiver<(Instant, String)>,
}

impl NotifySocket {
    fn bind(dir: &Path) -> NotifySocket {
        let path = dir.join("notify.sock");
        let socket = UnixDatagram::bind(&path).unwrap();
        let (send, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = socket.recv(&mut buffer) {
                let text = String::from_utf8_lossy(&buffer[..n]).into_owned();
                for line in text.lines() {
                    if send.send((Instant::now(), line.to_owned())).is_err() {
                        return;
                    }
                }
            }
        });
        NotifySocket { path, messages }
    }

    /// Every message received so far.
    fn drain(&self) -> Vec<String> {
        self.messages.try_iter().map(|(_, m)| m).collect()
    }

    /// Waits (up to 30 s) for `message`, returning the ones before it.
    fn wait_for(&self, message: &str) -> Vec<(Instant, String)> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok((_, m)) if m == message => return seen,
                Ok(other) => seen.push(other),
                Err(_) => panic!("no {message} within 30 s; received {seen:?}"),
            }
        }
    }
}

/// Holds the store's precious file locked, so that opening it waits: the server's start stays in its
/// opening phase for as long as the test wishes.
fn lock_store(data: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(data.join("studio.db")).unwrap();
    conn.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;").unwrap();
    conn
}

#[test]
fn ready_is_said_only_once_the_store_is_open_stopping_at_sigterm_and_the_watchdog_is_fed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    drop(serve_with(&data, &[], &[], Stdio::null()));
    let notify = NotifySocket::bind(dir.path());
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let lock = lock_store(&data);
    let watchdog_usec = 1_000_000u64;
    let mut child = Command::new(STUDIO)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--data-dir"])
        .arg(&data)
        .env("NOTIFY_SOCKET", &notify.path)
        .env("WATCHDOG_USEC", watchdog_usec.to_string())
        .env_remove("WATCHDOG_PID")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let http = client(10);
    // While the store is locked the probes answer, and say why the server is not ready.
    let deadline = Instant::now() + Duration::from_secs(20);
    let starting = loop {
        if let Ok(response) = http.get(format!("{base}/readyz")).send() {
            break response;
        }
        assert!(Instant::now() < deadline, "the probes did not answer within 20 s");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(starting.status().as_u16(), 503);
    let body: Value = starting.json().unwrap();
    assert_eq!(body["reason"], "starting", "{body}");
    assert!(body["message"].as_str().unwrap().contains("opening the store"), "{body}");
    assert_eq!(http.get(format!("{base}/healthz")).send().unwrap().status().as_u16(), 200);
    assert_eq!(http.get(format!("{base}/api/configurations")).send().unwrap().status().as_u16(), 503);
    let before = notify.drain();
    assert!(!before.contains(&"READY=1".to_owned()), "READY=1 while /readyz answers 503: {before:?}");
    assert!(before.iter().any(|m| m.starts_with("STATUS=opening the store")), "{before:?}");

    drop(lock);
    notify.wait_for("READY=1");
    assert_eq!(http.get(format!("{base}/readyz")).send().unwrap().status().as_u16(), 200, "ready when READY=1 came");

    // The watchdog is told at half of WATCHDOG_USEC.
    let mut pings = Vec::new();
    while pings.len() < 5 {
        let before = notify.wait_for("WATCHDOG=1");
        assert!(before.iter().all(|(_, m)| m != "STOPPING=1"));
        pings.push(Instant::now());
    }
    let mut gaps: Vec<Duration> = pings.windows(2).map(|w| w[1] - w[0]).collect();
    gaps.sort();
    let median = gaps[gaps.len() / 2];
    let asked = Duration::from_micros(watchdog_usec);
    assert!(median > asked / 4 && median < asked, "pings every {median:?}, asked for half of {asked:?}");

    kill(&child, "-TERM");
    notify.wait_for("STOPPING=1");
    assert!(wait_exit(&mut child).success());
}

//! The X display the desktop programs are shown on: the DISPLAY the benchmark is given, else an Xvfb started
//! for the run (as scripts/lib.sh starts one for the end-to-end tests) and ended with it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use studio_bench::BenchError;

/// An X display: DISPLAY, or an Xvfb started here and ended on drop.
pub struct Display {
    /// The display's name, as DISPLAY takes it (`:3`).
    pub name: String,
    server: Option<Child>,
}

impl Display {
    pub fn open() -> Result<Display, BenchError> {
        if let Some(name) = std::env::var("DISPLAY").ok().filter(|d| !d.is_empty()) {
            return Ok(Display { name, server: None });
        }
        // -displayfd: Xvfb picks a free display and prints its number, so a stale lock of an earlier run is no
        // obstacle.
        let mut server = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(BenchError::NoXvfb)?;
        let mut line = String::new();
        if let Some(out) = server.stdout.take() {
            // Xvfb keeps its standard output open while it runs; it ends it (and so this read) if it fails.
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let number = line.trim();
        if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
            let _ = server.kill();
            let _ = server.wait();
            return Err(BenchError::XvfbFailed);
        }
        Ok(Display { name: format!(":{number}"), server: Some(server) })
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(server) = &mut self.server {
            let _ = server.kill();
            let _ = server.wait();
        }
    }
}

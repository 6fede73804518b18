//! Reading a process's system calls, as `strace -f -y -s 80 -e trace=read,recvfrom,write,writev,sendto,
//! fsync,fdatasync -o FILE` writes them, to find out whether each answer to a save was sent only after the
//! store's log was synced since its request arrived: the durability a "Saved" promises.
//!
//! Lines of several threads interleave, and a call another thread interrupts is split into an
//! `<unfinished ...>` line and a `<... resumed>` one; a sync counts when it has returned, a request when
//! its bytes have been read, an answer when its write begins.

use std::collections::HashMap;

/// The arguments strace is started with (before the program and its arguments) for [`answers_after_sync`].
pub fn strace_args(trace_file: &std::path::Path) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> =
        ["-f", "-y", "-s", "80", "-e", "trace=read,recvfrom,write,writev,sendto,fsync,fdatasync", "-o"]
            .iter()
            .map(Into::into)
            .collect();
    args.push(trace_file.into());
    args
}

/// One answer to a request the caller counts as a save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The request's first line, e.g. `POST /api/configurations HTTP/1.1`.
    pub request: String,
    /// The answer's status line.
    pub status: String,
    /// Whether a sync of the log returned between the request's read and the answer's write.
    pub synced: bool,
}

/// The answers to the requests whose first line `is_save` accepts, in the order they were written, each
/// with whether a sync of a file whose path ends in `log_suffix` (e.g. `/studio.db-wal`) returned after the
/// request was read and before the answer was written, on any thread.
pub fn answers_after_sync(trace: &str, log_suffix: &str, is_save: impl Fn(&str) -> bool) -> Vec<Answer> {
    // Per socket: the save request read on it and not answered yet, and whether a sync returned since.
    let mut open: HashMap<String, (String, bool)> = HashMap::new();
    // Per thread: the socket (or log file) of a call that strace split in two.
    let mut unfinished: HashMap<String, String> = HashMap::new();
    let mut answers = Vec::new();
    for line in trace.lines() {
        let Some((thread, call)) = line.split_once(' ') else { continue };
        let call = call.trim_start();
        let (name, target, rest) = if let Some(resumed) = call.strip_prefix("<... ") {
            let Some((name, rest)) = resumed.split_once(" resumed>") else { continue };
            let Some(target) = unfinished.remove(thread) else { continue };
            (name.to_owned(), target, rest.to_owned())
        } else {
            let Some((name, args)) = call.split_once('(') else { continue };
            let Some(target) = args.split_once('<').and_then(|(_, t)| t.split_once('>')).map(|(t, _)| t.to_owned())
            else {
                continue;
            };
            if call.ends_with("<unfinished ...>") {
                unfinished.insert(thread.to_owned(), target.clone());
                // A read's bytes and a sync's return come with the resumed line; a write has begun.
                if !matches!(name, "write" | "writev" | "sendto") {
                    continue;
                }
            }
            (name.to_owned(), target, args.to_owned())
        };
        match name.as_str() {
            "fsync" | "fdatasync" if target.ends_with(log_suffix) && !rest.contains("= -1") => {
                open.values_mut().for_each(|(_, synced)| *synced = true);
            }
            "read" | "recvfrom" if target.starts_with("socket:") => {
                if let Some(first) = quoted(&rest).and_then(|text| text.split("\\r\\n").next().map(str::to_owned)) {
                    if is_save(&first) {
                        open.insert(target, (first, false));
                    }
                }
            }
            "write" | "writev" | "sendto" if target.starts_with("socket:") => {
                let Some(status) = quoted(&rest).filter(|t| t.starts_with("HTTP/")) else { continue };
                if let Some((request, synced)) = open.remove(&target) {
                    let status = status.split("\\r\\n").next().unwrap_or_default().to_owned();
                    answers.push(Answer { request, status, synced });
                }
            }
            _ => {}
        }
    }
    answers
}

/// The first string argument strace printed in `args` (without its quotes).
fn quoted(args: &str) -> Option<&str> {
    let start = args.find('"')? + 1;
    let len = args[start..].find('"')?;
    Some(&args[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = r#"101 recvfrom(21<socket:[5]>, "POST /api/configurations HTTP/1.1\r\nHost: x"..., 8192, 0, NULL, NULL) = 283
102 fsync(11</d/studio.db-wal>) = 0
103 writev(21<socket:[5]>, [{iov_base="HTTP/1.1 200 OK\r\ncontent-type: a"..., iov_len=429}], 2) = 1598
101 recvfrom(22<socket:[6]>, "PUT /api/configurations/1 HTTP/1.1\r\nHost: x"..., 8192, 0, NULL, NULL) = 283
103 writev(22<socket:[6]>, [{iov_base="HTTP/1.1 200 OK\r\ncontent-type: a"..., iov_len=429}], 2) = 1598
102 fsync(11</d/studio.db-wal> <unfinished ...>
101 recvfrom(23<socket:[7]>, "GET /api/configurations HTTP/1.1\r\n"..., 8192, 0, NULL, NULL) = 83
101 recvfrom(21<socket:[5]>, <unfinished ...>
102 <... fsync resumed>) = 0
101 <... recvfrom resumed>"POST /api/configurations HTTP/1.1\r\nHost: x"..., 8192, 0, NULL, NULL) = 283
104 fdatasync(11</d/studio.db-wal>) = 0
103 writev(23<socket:[7]>, [{iov_base="HTTP/1.1 200 OK\r\n"..., iov_len=4}], 2) = 4
103 writev(21<socket:[5]>, [{iov_base="HTTP/1.1 200 OK\r\n"..., iov_len=4}], 2) = 4
"#;

    #[test]
    fn each_save_answer_says_whether_a_sync_came_between_its_request_and_it() {
        let answers = answers_after_sync(TRACE, "/studio.db-wal", |first| !first.starts_with("GET "));
        let seen: Vec<(&str, bool)> = answers.iter().map(|a| (a.request.as_str(), a.synced)).collect();
        assert_eq!(
            seen,
            [
                ("POST /api/configurations HTTP/1.1", true),
                ("PUT /api/configurations/1 HTTP/1.1", false),
                ("POST /api/configurations HTTP/1.1", true),
            ]
        );
        assert!(answers.iter().all(|a| a.status == "HTTP/1.1 200 OK"));
    }
}

//! A remote server's answer (status, content type, body) read as every answer of the API. Must hold: no
//! panic; an answer is either a value or a typed error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use studio_remote::{decode_answer, AnswerKind};

fuzz_target!(|data: &[u8]| {
    // First two bytes: the status; third: the content type; the rest: the body.
    let [a, b, c, body @ ..] = data else { return };
    let status = u16::from_be_bytes([*a, *b]) % 1000;
    let content_type = match c % 5 {
        0 => None,
        1 => Some("application/json"),
        2 => Some("application/json; charset=utf-8"),
        3 => Some("text/plain"),
        _ => Some("text/html"),
    };
    for kind in AnswerKind::ALL {
        let _ = decode_answer(*kind, status, content_type, body);
    }
});

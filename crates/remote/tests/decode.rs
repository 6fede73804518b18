//! Reading answers without a server (`decode_answer`, the code the fuzz target `remote_answer` drives): odd
//! statuses, bodies and content types become typed errors, never panics, and good answers read.

use studio_remote::{decode_answer, AnswerKind, RemoteError};

#[test]
fn every_kind_reads_a_good_answer_and_refuses_odd_ones_with_typed_errors() {
    let one = br#"{"configuration":{"id":1,"user":"ana","created":null,"config":{"title":"t"}}}"#;
    assert!(decode_answer(AnswerKind::OneConfiguration, 200, Some("application/json"), one).is_ok());
    assert!(decode_answer(AnswerKind::Search, 200, None, b"   ").is_ok(), "an empty 2xx body reads as {{}}");
    for kind in AnswerKind::ALL {
        for (status, content_type, body) in [
            (0u16, None, &b""[..]),
            (99, Some("application/json"), b"{}"),
            (1000, None, b"{}"),
            (200, Some("text/html"), b"<html>"),
            (200, Some("application/json"), b"[1,2]"),
            (200, Some("application/json"), b"{\"configuration\": 5, \"configurations\": {}, \"total\": \"x\"}"),
            (200, Some("bad\nheader"), b"{}"),
            (302, None, b""),
            (503, Some("text/plain"), &[0xff, 0xfe, b'\n'][..]),
        ] {
            let _ = decode_answer(*kind, status, content_type, body);
        }
    }
    let err = decode_answer(AnswerKind::Logs, 1000, None, b"{}").unwrap_err();
    assert!(matches!(err, RemoteError::NotTheApi { .. }), "{err:?}");
    let err = decode_answer(AnswerKind::Logs, 404, Some("application/json"), br#"{"message":"configuration 4 does not exist"}"#);
    assert!(matches!(err, Err(RemoteError::NotFound { ref message }) if message == "configuration 4 does not exist"), "{err:?}");
}

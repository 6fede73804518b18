//! Reading answers without a server (`decode_answer`, the code the fuzz target `remote_answer` drives): odd
//! statuses, bodies and content types become typed errors, never panics, and good answers read.

use studio_remote::{decode_answer, read_error_answer, AnswerKind, RemoteError};

#[test]
fn every_kind_reads_a_good_answer_and_refuses_odd_ones_with_typed_errors() {
    let one = br#"{"configuration":{"id":1,"user":"ana","created":null,"config":{"title":"t"}}}"#;
    assert!(decode_answer(AnswerKind::OneConfiguration, 200, Some("application/json"), one).is_ok());
    assert!(decode_answer(AnswerKind::Search, 200, None, b"   ").is_ok(), "an empty 2xx body reads as {{}}");
    let health = br#"{"searchSpace":"demo","documents":2,"message":"1 field","fields":[{"field":"dyn_lit_author",
        "label":"Author","kind":"literal","documents":2,"values":3,"depth":1,"valuesByDepth":[3],
        "largestValueDocuments":2}]}"#;
    assert!(decode_answer(AnswerKind::FacetHealth, 200, Some("application/json"), health).is_ok());
    let err = decode_answer(AnswerKind::FacetHealth, 200, Some("application/json"), br#"{"searchSpace":"demo"}"#);
    assert!(matches!(err, Err(RemoteError::NotTheApi { .. })), "facet health without its counts: {err:?}");
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
    let ours = br#"{"status":404,"error":"Not Found","message":"configuration 4 does not exist"}"#;
    let err = decode_answer(AnswerKind::Logs, 404, Some("application/json"), ours);
    assert!(
        matches!(err, Err(RemoteError::NotFound { ref message }) if message == "configuration 4 does not exist"),
        "{err:?}"
    );
}

/// Other servers' error bodies are shown by their most specific text with the status, never by a bare
/// reason phrase, and an extension answered without this API's error body is not offered: the cases the
/// web UI's tests read too.
#[test]
fn error_answers_read_as_the_shared_cases_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/cases/error-answers.json");
    let cases: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let body = match case.get("bodyText") {
            Some(text) => text.as_str().unwrap().as_bytes().to_vec(),
            None => serde_json::to_vec(&case["body"]).unwrap(),
        };
        let content_type = case.get("contentType").and_then(|v| v.as_str()).unwrap_or("application/json");
        let got = read_error_answer(
            case["request"].as_str().unwrap(),
            case["status"].as_u64().unwrap() as u16,
            Some(content_type),
            &body,
        );
        let want = (case["notOffered"].as_bool().unwrap(), case["text"].as_str().map(str::to_owned));
        assert_eq!(got, want, "case: {}", case["name"]);
    }
}

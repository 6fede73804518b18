//! `studio pull` between two real `studio` processes: a server holding the demo search space, and a second
//! store that takes it offline; served in turn, the copy answers the same totals and facets.

use std::process::Command;

use serde_json::{json, Value};

use crate::support::{serve, Served, STUDIO};

fn search(server: &Served, id: i64, body: Value) -> Value {
    server.post(&format!("/api/configurations/{id}/search"), &body).1
}

#[test]
fn pull_copies_a_remote_search_space_that_then_answers_the_same_totals() {
    let (theirs, ours) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert!(Command::new(STUDIO)
        .arg("--data-dir")
        .arg(theirs.path())
        .arg("demo-data")
        .output()
        .unwrap()
        .status
        .success());
    let remote = serve(theirs.path());

    let pull = |token: &str| {
        Command::new(STUDIO)
            .arg("--data-dir")
            .arg(ours.path())
            .args(["pull", "--from", &remote.base, "--config", "1"])
            .env("STUDIO_REMOTE_TOKEN", token)
            .output()
            .unwrap()
    };
    let refused = pull("wrong");
    assert_eq!(refused.status.code(), Some(1));
    let refusal = String::from_utf8_lossy(&refused.stderr);
    assert!(refusal.contains("401"), "{refusal}");
    assert!(refusal.contains("sign in again (a valid token in STUDIO_REMOTE_TOKEN"), "{refusal}");
    let out = pull(&remote.token);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "pulled 2400 documents into demo as configuration 1");

    let local = serve(ours.path());
    // Text queries are left out: the API does not return a document's full text, so offline the words
    // of titles and descriptions match, not those of the body (docs/choices.md).
    let context = search(&remote, 1, json!({}))["facets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["field"] == "dyn_lit_context")
        .unwrap()["facets"][0]["label"]
        .clone();
    for body in
        [json!({}), json!({"start": 30}), json!({"selectedFacets": [{"field": "dyn_lit_context", "label": context}]})]
    {
        let (a, b) = (search(&remote, 1, body.clone()), search(&local, 1, body.clone()));
        assert_eq!(a["total"], b["total"], "{body}");
        assert_eq!(a["facets"], b["facets"], "{body}");
        assert_eq!(a["result"].as_array().unwrap().len(), b["result"].as_array().unwrap().len());
    }
}

//! `studio pull` between two real `studio` processes: a server holding the demo search space, and a second
//! store that takes it offline; served in turn, the copy answers the same totals and facets.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

const STUDIO: &str = env!("CARGO_BIN_EXE_studio");

struct Server {
    child: Child,
    base: String,
    token: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data_dir: &Path) -> Server {
    let mut child = Command::new(STUDIO)
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let token = lines.next().unwrap().unwrap().strip_prefix("token: ").unwrap().to_owned();
    let base = lines.next().unwrap().unwrap().strip_prefix("listening on ").unwrap().to_owned();
    Server { child, base, token }
}

impl Server {
    fn search(&self, id: i64, body: Value) -> Value {
        let r = reqwest::blocking::Client::new()
            .post(format!("{}/api/configurations/{id}/search", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .unwrap();
        r.json().unwrap()
    }
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
    assert!(String::from_utf8_lossy(&refused.stderr).contains("401"), "{}", String::from_utf8_lossy(&refused.stderr));
    let out = pull(&remote.token);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "pulled 2400 documents into demo as configuration 1");

    let local = serve(ours.path());
    // Text queries are left out: the API does not return a document's full text, so offline the words
    // of titles and descriptions match, not those of the body (docs/choices.md).
    let context = remote.search(1, json!({}))["facets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["field"] == "dyn_lit_context")
        .unwrap()["facets"][0]["label"]
        .clone();
    for body in
        [json!({}), json!({"start": 30}), json!({"selectedFacets": [{"field": "dyn_lit_context", "label": context}]})]
    {
        let (a, b) = (remote.search(1, body.clone()), local.search(1, body.clone()));
        assert_eq!(a["total"], b["total"], "{body}");
        assert_eq!(a["facets"], b["facets"], "{body}");
        assert_eq!(a["result"].as_array().unwrap().len(), b["result"].as_array().unwrap().len());
    }
}

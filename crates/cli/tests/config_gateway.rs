//! `studio config apply` through a gateway that forwards each write to the server and then answers 502, as a
//! proxy does when the server's answer is lost (docs/config-files.md, Interrupted applies): each write reached
//! the server, yet the apply was told it failed. The next plan is exact (what reached the server is unchanged)
//! and the next apply finishes without writing anything twice: the server's history counts every write.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::config_folder::{config, edit, expect};
use crate::support::{client, serve};

/// A gateway on a free loopback port in front of `upstream`: every request is forwarded and its answer
/// passed back, except that each write (any method but GET) is answered `502 Bad Gateway` once the server has
/// answered it, while it is failing. Counts the writes it forwarded. Runs until the test ends.
struct Gateway {
    base: String,
    /// Whether writes are answered 502 (after they were forwarded).
    failing: Arc<AtomicBool>,
    writes: Arc<AtomicUsize>,
}

impl Gateway {
    fn start(upstream: &str) -> Gateway {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (failing, writes) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
        let (upstream, fail, counted) = (upstream.to_owned(), failing.clone(), writes.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (upstream, fail, counted) = (upstream.clone(), fail.clone(), counted.clone());
                std::thread::spawn(move || forward(stream, &upstream, &fail, &counted));
            }
        });
        Gateway { base, failing, writes }
    }
}

/// Forwards one request of `stream` (the gateway closes each connection after its answer).
fn forward(mut stream: TcpStream, upstream: &str, failing: &AtomicBool, writes: &AtomicUsize) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next().unwrap().to_owned(), parts.next().unwrap().to_owned());
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        let header = header.trim_end().to_owned();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let length = headers.iter().find(|(n, _)| n == "content-length").map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let mut request = client(30).request(method.parse().unwrap(), format!("{upstream}{path}")).body(body);
    for (name, value) in headers.iter().filter(|(n, _)| n == "authorization" || n == "content-type") {
        request = request.header(name.as_str(), value.as_str());
    }
    let answer = request.send().unwrap();
    let (status, kind) = (answer.status().as_u16(), answer.headers().get("content-type").cloned());
    let answer = answer.bytes().unwrap();
    if method != "GET" {
        writes.fetch_add(1, Ordering::SeqCst);
    }
    let reply = if method == "GET" || !failing.load(Ordering::SeqCst) {
        let kind = kind.map(|k| format!("Content-Type: {}\r\n", k.to_str().unwrap())).unwrap_or_default();
        let mut reply = format!(
            "HTTP/1.1 {status} Forwarded\r\n{kind}Content-Length: {}\r\nConnection: close\r\n\r\n",
            answer.len()
        )
        .into_bytes();
        reply.extend_from_slice(&answer);
        reply
    } else {
        let page = "<html><body><h1>502 Bad Gateway</h1></body></html>";
        format!("HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}", page.len()).into_bytes()
    };
    let _ = stream.write_all(&reply);
}

/// Every configuration of the server as (title, actions of its history, oldest first).
fn histories(base: &str, token: &str) -> Vec<(String, Vec<String>)> {
    let get = |path: &str| -> Value {
        client(30).get(format!("{base}{path}")).bearer_auth(token).send().unwrap().json().unwrap()
    };
    let list = get("/api/configurations");
    list["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let logs = get(&format!("/api/configurations/{}/logs", c["id"]));
            let mut actions: Vec<String> =
                logs["logs"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap().to_owned()).collect();
            actions.reverse();
            (c["config"]["title"].as_str().unwrap().to_owned(), actions)
        })
        .collect()
}

fn kinds(plan: &str) -> Vec<(String, String)> {
    let plan: Value = serde_json::from_str(plan).unwrap();
    plan["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["key"].as_str().unwrap().to_owned(), i["action"].as_str().unwrap().to_owned()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(k, a)| ((*k).to_owned(), (*a).to_owned())).collect()
}

#[test]
fn an_apply_told_502_after_each_write_reached_the_server_is_finished_by_the_next_which_writes_nothing() {
    let data = tempfile::tempdir().unwrap();
    let served = serve(data.path());
    let gateway = Gateway::start(&served.base);
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("f");
    std::fs::create_dir(&dir).unwrap();
    for key in ["a", "b", "c"] {
        let body = json!({"active": key == "a", "config": {"title": key.to_uppercase(), "searchSpace": "demo"}});
        std::fs::write(dir.join(format!("{key}.json")), body.to_string()).unwrap();
    }
    let d = dir.to_str().unwrap();
    let run = |args: &[&str]| config(args, data.path(), &served.token);
    let apply = || run(&["apply", d, "--to", &gateway.base, "--yes"]);
    let plan = || kinds(&expect(run(&["plan", d, "--to", &gateway.base, "--json"]), 2));
    expect(apply(), 0);

    // The folder updates b and adds d, active; from now on the gateway answers 502 to each write it forwards.
    edit(&dir, "a", |v| v["active"] = json!(false));
    edit(&dir, "b", |v| v["config"]["result"] = json!({"itemsPerPage": 40}));
    std::fs::write(
        dir.join("d.json"),
        "{\"active\": true, \"config\": {\"title\": \"D\", \"searchSpace\": \"demo\"}}\n",
    )
    .unwrap();
    gateway.failing.store(true, Ordering::SeqCst);
    let forwarded_before = gateway.writes.load(Ordering::SeqCst);
    assert_eq!(plan(), pairs(&[("a", "unchanged"), ("b", "update"), ("c", "unchanged"), ("d", "create")]));

    // Each apply stops at its first write, which did reach the server; the next plan knows it.
    let failed = apply();
    assert!(String::from_utf8_lossy(&failed.stderr).contains("502"), "{failed:?}");
    expect(failed, 1);
    assert_eq!(plan(), pairs(&[("a", "unchanged"), ("b", "unchanged"), ("c", "unchanged"), ("d", "create")]));
    expect(apply(), 1);
    let set_active = run(&["plan", d, "--to", &gateway.base, "--json"]);
    let set_active: Value = serde_json::from_str(&expect(set_active, 2)).unwrap();
    assert_eq!(set_active["items"].as_array().unwrap().iter().filter(|i| i["action"] == "unchanged").count(), 4);
    assert_eq!(set_active["setActive"]["key"], "d", "{set_active}");
    expect(apply(), 1);

    // Then there is nothing left to write: the next apply writes nothing, through a gateway that works again.
    gateway.failing.store(false, Ordering::SeqCst);
    let forwarded = gateway.writes.load(Ordering::SeqCst);
    assert!(expect(run(&["plan", d, "--to", &gateway.base]), 0).contains("Nothing to do"));
    assert!(expect(apply(), 0).contains("Nothing was written."));
    assert_eq!(gateway.writes.load(Ordering::SeqCst), forwarded, "the last apply wrote nothing");

    // The history: every write the gateway forwarded is one row, each configuration created once, b updated
    // once, d made active once: no write was sent twice.
    let history = histories(&served.base, &served.token);
    let rows: usize = history.iter().map(|(_, actions)| actions.len()).sum();
    assert_eq!(rows, forwarded, "{history:?}");
    assert_eq!(forwarded - forwarded_before, 3, "the update, the create and the set-active, once each");
    let one = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        history,
        [
            ("A".to_owned(), one(&["create"])),
            ("B".to_owned(), one(&["create", "update"])),
            ("C".to_owned(), one(&["create"])),
            ("D".to_owned(), one(&["create", "set-active"]))
        ]
    );
    let (_, b) = served.get("/api/configurations/2");
    assert_eq!(b["configuration"]["config"]["result"]["itemsPerPage"], 40);
}

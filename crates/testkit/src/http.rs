//! Loopback HTTP fixtures. [`FakeServer`] is a small misbehaving HTTP server: it accepts connections on
//! 127.0.0.1, reads each request, and answers whatever the test's handler says, byte for byte: good JSON,
//! HTML, truncated bodies, or nothing at all; it records the requests it saw. Beside it, the answers tests
//! build for it and small readers of what a real server answered (its content security policy, an origin).
//!
//! The fake server runs on the test's tokio runtime and panics when no loopback port can be bound: a test
//! cannot go on without it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A request as the fake server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    /// `GET /api/configurations HTTP/1.1`
    pub line: String,
    /// Header lines, names lower-cased: `accept: application/json`.
    pub headers: Vec<String>,
    pub body: Vec<u8>,
    pub at: Instant,
}

impl Seen {
    /// The value of header `name` (lower case), if sent.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.iter().find_map(|h| h.strip_prefix(&format!("{name}: ")).map(str::to_owned))
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("the request body is JSON")
    }
}

/// What the fake server does with one request.
pub enum Reply {
    /// Writes these bytes and closes the connection.
    Raw(Vec<u8>),
    /// Never answers (holds the connection open for an hour).
    Stall,
}

/// A running fake server; it stops when the test's runtime ends.
pub struct FakeServer {
    pub base: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

type Handler = dyn Fn(usize, &Seen) -> Reply + Send + Sync;

impl FakeServer {
    /// Starts a server on a free port; `handler` gets the 0-based number of the request and the request.
    pub async fn start(handler: impl Fn(usize, &Seen) -> Reply + Send + Sync + 'static) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a loopback port");
        Self::serve(listener, Arc::new(handler))
    }

    /// Starts a server on `port` (one that was free a moment ago).
    pub async fn start_on(port: u16, handler: impl Fn(usize, &Seen) -> Reply + Send + Sync + 'static) -> FakeServer {
        let listener = TcpListener::bind(("127.0.0.1", port)).await.expect("bind the given port");
        Self::serve(listener, Arc::new(handler))
    }

    fn serve(listener: TcpListener, handler: Arc<Handler>) -> FakeServer {
        let base = format!("http://{}", listener.local_addr().expect("local address"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (handler, log) = (handler.clone(), log.clone());
                tokio::spawn(async move { answer(stream, handler, log).await });
            }
        });
        FakeServer { base, seen }
    }

    /// How many requests arrived.
    pub fn hits(&self) -> usize {
        self.seen.lock().unwrap().len()
    }

    /// Every request that arrived, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

async fn answer(mut stream: TcpStream, handler: Arc<Handler>, log: Arc<Mutex<Vec<Seen>>>) {
    let Some(request) = read_request(&mut stream).await else { return };
    let number = {
        let mut log = log.lock().unwrap();
        log.push(request.clone());
        log.len() - 1
    };
    match handler(number, &request) {
        Reply::Raw(bytes) => {
            let _ = stream.write_all(&bytes).await;
            let _ = stream.shutdown().await;
        }
        Reply::Stall => tokio::time::sleep(Duration::from_secs(3600)).await,
    }
}

async fn read_request(stream: &mut TcpStream) -> Option<Seen> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = stream.read(&mut chunk).await.ok().filter(|n| *n > 0)?;
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let line = lines.next()?.to_owned();
    let headers: Vec<String> = lines
        .map(|h| match h.split_once(':') {
            Some((name, value)) => format!("{}: {}", name.trim().to_ascii_lowercase(), value.trim()),
            None => h.to_owned(),
        })
        .collect();
    let length = headers.iter().find_map(|h| h.strip_prefix("content-length: ")?.parse::<usize>().ok()).unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).await.ok().filter(|n| *n > 0)?;
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Seen { line, headers, body, at: Instant::now() })
}

/// A whole HTTP/1.1 response with a body of `content_type` (no Content-Type header when empty).
pub fn response(status: u16, content_type: &str, body: &str, extra_headers: &[&str]) -> Reply {
    let mut head = format!("HTTP/1.1 {status} Whatever\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    if !content_type.is_empty() {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    for h in extra_headers {
        head.push_str(&format!("{h}\r\n"));
    }
    Reply::Raw(format!("{head}\r\n{body}").into_bytes())
}

/// A JSON response.
pub fn json(status: u16, body: Value) -> Reply {
    response(status, "application/json", &body.to_string(), &[])
}

/// This API's error body, `{status, error, message}` (docs/api.md, Errors), with `status`.
pub fn api_error(status: u16, message: &str) -> Reply {
    json(status, serde_json::json!({"status": status, "error": "Some Error", "message": message}))
}

/// A response that promises `promised` bytes of JSON and closes after a few.
pub fn cut_short(promised: usize) -> Reply {
    Reply::Raw(
        format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {promised}\r\n\r\n{{\"configurations\": [")
            .into_bytes(),
    )
}

/// A port that nothing listens on (it was free a moment ago).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port()
}

/// `http://127.0.0.1:PORT` of a URL such as an issuer `http://127.0.0.1:PORT/realms/studio`.
pub fn origin_of(url: &str) -> String {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let end = url[after_scheme..].find('/').map_or(url.len(), |i| after_scheme + i);
    url[..end].to_owned()
}

/// The sources a content security policy lets the page connect to (its `connect-src`). Panics when the
/// policy has none.
pub fn connect_src(csp: &str) -> Vec<String> {
    let directive = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("connect-src "))
        .unwrap_or_else(|| panic!("no connect-src: {csp}"));
    directive.split_whitespace().skip(1).map(str::to_owned).collect()
}

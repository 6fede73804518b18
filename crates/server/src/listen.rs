//! Serving the router over TCP with the limits a server on a network needs (docs/security.md): a client
//! gets [`HEADER_TIMEOUT`] to send a request's head, at most [`MAX_HEADER_BYTES`] of it, and the whole
//! request (body included) must be answered within the request timeout. Without these one slow client
//! could hold a connection, and with enough of them every file descriptor, forever (slowloris).
//!
//! Only HTTP/1.1 is spoken, as by `axum::serve` with axum's default features. This module never decides
//! what a request means; the router does.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use crate::error::AppError;

/// Longest wait for the head (request line and headers) of a request, from its first byte or from the
/// end of the previous answer on a kept-alive connection.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Largest request head accepted; a larger one is answered 431.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;
/// Longest time one request may take, reading its body included. It exceeds the upstream client's worst
/// case (three attempts of 30 s, with waits), so a proxy's own answer always gets through.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);
/// How long open connections get to finish after a shutdown was asked for.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);

/// The limits of one server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub header_timeout: Duration,
    pub request_timeout: Duration,
    pub max_header_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { header_timeout: HEADER_TIMEOUT, request_timeout: REQUEST_TIMEOUT, max_header_bytes: MAX_HEADER_BYTES }
    }
}

/// Adds the per-request limits to `app`: a head (request line and headers) over `max_header_bytes` is
/// answered 431, and a request not answered within `request_timeout` (its body read included) 408, both
/// with the error body. hyper's read buffer bounds the head in memory before this runs.
pub fn with_limits(app: Router, limits: Limits) -> Router {
    app.layer(axum::middleware::from_fn(move |request: Request, next: Next| async move {
        let head = head_bytes(&request);
        if head > limits.max_header_bytes {
            let message =
                format!("the request's headers are {head} bytes; at most {} are accepted", limits.max_header_bytes);
            return AppError::new(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, message).into_response();
        }
        match tokio::time::timeout(limits.request_timeout, next.run(request)).await {
            Ok(response) => response,
            Err(_) => timed_out(limits.request_timeout),
        }
    }))
}

/// The router of one connection, which tells each request who sent it (`ConnectInfo`, which `/metrics`
/// reads).
fn with_peer(
    app: Router,
    peer: SocketAddr,
) -> impl tower::Service<Request<Incoming>, Response = Response, Error = std::convert::Infallible, Future: Send> + Clone
{
    use tower::ServiceExt;
    app.map_request(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        request
    })
}

/// The size of a request's head as sent: the request line and every header line.
fn head_bytes(request: &Request) -> usize {
    let line = request.method().as_str().len() + request.uri().to_string().len() + 12;
    let headers: usize = request.headers().iter().map(|(name, value)| name.as_str().len() + value.len() + 4).sum();
    line + headers
}

fn timed_out(timeout: Duration) -> Response {
    let message =
        format!("the request was not complete and answered within {} s, so it was stopped", timeout.as_secs());
    AppError::new(StatusCode::REQUEST_TIMEOUT, message).into_response()
}

/// Serves `app` on `listener` with `limits` until `shutdown` completes, then lets open connections finish
/// for a short while. Failing to accept one connection (e.g. no file descriptor left) is logged and the
/// server goes on.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, shutdown: impl Future<Output = ()>) {
    let app = with_limits(app, limits);
    // hyper's read buffer holds the head while it is parsed, which caps a head's memory at about twice
    // this before the exact check above (hyper refuses a buffer under 8 KiB).
    let max_buf = limits.max_header_bytes.max(8 * 1024);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .max_buf_size(max_buf)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(with_peer(app.clone(), peer)));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "a connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN_TIMEOUT, graceful.shutdown()).await.is_err() {
        tracing::warn!(
            "some connections were still open {} s after the shutdown; they were closed",
            DRAIN_TIMEOUT.as_secs()
        );
    }
}

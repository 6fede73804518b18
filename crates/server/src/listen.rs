//! Serving the router over TCP with the limits a server on a network needs (docs/security.md): a client
//! gets [`HEADER_TIMEOUT`] to send a request's head, at most [`MAX_HEADER_BYTES`] of it, and the whole
//! request (body included) must be answered within the request timeout. Without these one slow client
//! could hold a connection, and with enough of them every file descriptor, forever (slowloris).
//!
//! Only HTTP/1.1 is spoken, as by `axum::serve` with axum's default features. This module never decides
//! what a request means; the router does.

use std::future::Future;
use std::time::Duration;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use crate::error::AppError;

/// Longest wait for the head (request line and headers) of a request, from its first byte or from the
/// end of the previous answer on a kept-alive connection.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Largest request head accepted; a larger one is answered 431 and the connection closed.
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

/// Adds the request timeout to `app`: a request not answered in time gets a 408 with the error body.
pub fn with_request_timeout(app: Router, timeout: Duration) -> Router {
    app.layer(axum::middleware::from_fn(move |request: Request, next: Next| async move {
        match tokio::time::timeout(timeout, next.run(request)).await {
            Ok(response) => response,
            Err(_) => timed_out(timeout),
        }
    }))
}

fn timed_out(timeout: Duration) -> Response {
    let message = format!("the request was not complete and answered within {} s, so it was stopped", timeout.as_secs());
    AppError::new(StatusCode::REQUEST_TIMEOUT, message).into_response()
}

/// Serves `app` on `listener` with `limits` until `shutdown` completes, then lets open connections finish
/// for a short while. Failing to accept one connection (e.g. no file descriptor left) is logged and the
/// server goes on.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, shutdown: impl Future<Output = ()>) {
    let app = with_request_timeout(app, limits.request_timeout);
    // hyper refuses a read buffer under 8 KiB; its head must fit in the buffer.
    let max_buf = limits.max_header_bytes.max(8 * 1024);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
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
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "a connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN_TIMEOUT, graceful.shutdown()).await.is_err() {
        tracing::warn!("some connections were still open {} s after the shutdown; they were closed", DRAIN_TIMEOUT.as_secs());
    }
}

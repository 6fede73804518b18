//! The server as a service runs it: the probes and `/metrics` answer from the first moment, while the store
//! is still being opened; the API (the [`crate::router`]) is put in place once it is open, and until then
//! its paths answer 503. Every request gets an id (`X-Request-Id`, the caller's when it sends a sane one),
//! which its answer carries and its log lines name, and is counted in the metrics by its operation.
//!
//! A log line names a request's method, route and status, never its query or its headers (tokens).

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::middleware::{from_fn, from_fn_with_state, map_response, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rand::RngCore;
use tower::ServiceExt;
use tracing::Instrument;

use crate::error::{AppError, StoreFault};
use crate::headers;
use crate::metrics::{self as scrape, Metrics, MetricsAccess, MetricsRoute, SharedAccess};
use crate::probes::{healthz, readyz, Readiness};

/// The header that carries a request's id.
pub static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest request id taken from a caller; a longer one, or one with other characters than letters,
/// digits and `-._:`, is replaced by one of the server's.
const MAX_REQUEST_ID: usize = 128;

/// The operation a request was, as metrics and logs name it: its method and route (`GET
/// /api/configurations/{configId}`), so that ids in paths do not each make a series of their own.
#[derive(Debug, Clone)]
pub struct OperationName(pub String);

/// The API, once the store is open.
#[derive(Clone, Default)]
pub struct ApiSlot(Arc<OnceLock<Router>>);

impl ApiSlot {
    /// Puts the API in place; requests are then answered by it.
    pub fn open(&self, api: Router) {
        let _ = self.0.set(api);
    }
}

/// What the service shares between its requests.
#[derive(Clone)]
struct Observer {
    readiness: Readiness,
    metrics: Arc<Metrics>,
}

/// The whole service: `/healthz`, `/readyz`, `/metrics` (unless `metrics_access` is `None`: served on an
/// address of its own) and the API in `api` once it is open.
pub fn service(
    readiness: Readiness,
    metrics: Arc<Metrics>,
    metrics_access: Option<SharedAccess>,
    api: ApiSlot,
) -> Router {
    let observer = Observer { readiness: readiness.clone(), metrics: metrics.clone() };
    let mut app = Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz).with_state(readiness));
    if let Some(access) = metrics_access {
        app = app.route("/metrics", get(scrape::metrics).with_state(MetricsRoute { metrics, access }));
    }
    app.fallback(forward_to_api)
        .with_state(api)
        .layer(from_fn(name_operation))
        .layer(from_fn_with_state(observer, observe))
        .layer(map_response(security_headers))
}

/// `/metrics` alone, for `--metrics-listen`: answered to whoever reaches that address.
pub fn metrics_service(metrics: Arc<Metrics>) -> Router {
    let access = SharedAccess::new(MetricsAccess::anyone());
    Router::new()
        .route("/metrics", get(scrape::metrics).with_state(MetricsRoute { metrics, access }))
        .layer(map_response(security_headers))
}

/// The security headers of every answer ([`headers`]) on the answers the API's router did not make: the probes,
/// `/metrics` and the 503s while the store opens. An answer of the router keeps its own policy, which may
/// name the provider the web UI signs in through.
async fn security_headers(response: Response) -> Response {
    if response.headers().contains_key(axum::http::header::CONTENT_SECURITY_POLICY) {
        return response;
    }
    headers::security_headers(State(headers::web_ui_csp(None)), response).await
}

async fn forward_to_api(State(api): State<ApiSlot>, request: Request) -> Response {
    match api.0.get() {
        Some(router) => match router.clone().oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        },
        None => AppError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is starting: its store is being opened; GET /readyz says when it is ready",
        )
        .into_response(),
    }
}

/// Middleware: names the operation of a request that matched a route (unless an inner router did).
pub async fn name_operation(request: Request, next: Next) -> Response {
    let name = request.extensions().get::<MatchedPath>().map(|path| format!("{} {}", request.method(), path.as_str()));
    let mut response = next.run(request).await;
    if let Some(name) = name {
        if response.extensions().get::<OperationName>().is_none() {
            response.extensions_mut().insert(OperationName(name));
        }
    }
    response
}

/// The caller's request id when it is sane, else a new one.
fn request_id(request: &Request) -> HeaderValue {
    let given = request.headers().get(&REQUEST_ID).filter(|value| {
        let bytes = value.as_bytes();
        !bytes.is_empty()
            && bytes.len() <= MAX_REQUEST_ID
            && bytes.iter().all(|b| b.is_ascii_alphanumeric() || b"-._:".contains(b))
    });
    given.cloned().unwrap_or_else(|| {
        let mut bytes = [0u8; 16];
        rand::thread_rng().fill_bytes(&mut bytes);
        // Hex digits are always a valid header value.
        HeaderValue::from_str(&hex::encode(bytes)).unwrap_or(HeaderValue::from_static("unknown"))
    })
}

/// Middleware: the request's id, its log line, its count and latency, and what its answer says about the
/// store.
async fn observe(State(observer): State<Observer>, request: Request, next: Next) -> Response {
    let id = request_id(&request);
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let span = tracing::info_span!("request", request_id = %id.to_str().unwrap_or_default());
    let started = Instant::now();
    let mut response = next.run(request).instrument(span.clone()).await;
    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    let operation = response
        .extensions()
        .get::<OperationName>()
        .map_or_else(|| format!("{method} (no route)"), |name| name.0.clone());
    if let Some(fault) = response.extensions().get::<StoreFault>() {
        observer.readiness.record(fault);
    }
    observer.metrics.observe(&operation, status, elapsed);
    let duration_ms = elapsed.as_secs_f64() * 1000.0;
    span.in_scope(|| {
        // The probes and the scrape are asked every few seconds: only at debug level.
        if matches!(path.as_str(), "/healthz" | "/readyz" | "/metrics") {
            tracing::debug!(operation, status, duration_ms, "answered");
        } else {
            tracing::info!(operation, status, duration_ms, "answered");
        }
    });
    response.headers_mut().insert(REQUEST_ID.clone(), id);
    response
}

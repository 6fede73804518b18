//! The HTTP face of Search Studio: the API of docs/api.md over any [`Backend`], with bearer
//! authentication, OpenAPI, a health check and the built web UI.
//!
//! Handlers adapt HTTP to the backend and nothing more; rules of the API live in the backend and model.

pub mod auth;
pub mod error;
pub mod extract;
mod headers;
pub mod listen;
pub mod metrics;
pub mod openapi;
pub mod probes;
pub mod routes;
pub mod service;

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::{Json, Router};
use studio_model::Backend;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

pub use auth::{token_digest, Auth, WebSignIn};
use error::AppError;
use headers::security_headers;
pub use headers::web_ui_csp;
use routes::AppState;

/// Builds the whole service. `ui_dir` is the built web UI (`ui/dist`), served at `/` when it exists.
pub fn router(backend: Arc<dyn Backend>, auth: Arc<Auth>, ui_dir: Option<PathBuf>) -> Router {
    let web_sign_in = auth.web_sign_in();
    let csp = web_ui_csp(web_sign_in.as_ref().map(WebSignIn::origin));
    let docs = ApiDocs { backend: backend.clone(), web_sign_in: web_sign_in.map(Arc::new) };
    let state = AppState { backend, auth: auth.clone() };
    let api = Router::from(routes::api())
        .route_layer(from_fn_with_state(auth, auth::require_token))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(extract::MAX_BODY_BYTES))
        .with_state(state);
    let app = Router::new()
        .nest("/api", api)
        .route("/healthz", get(probes::healthz))
        .route("/api-docs", get(api_docs).with_state(docs))
        .method_not_allowed_fallback(method_not_allowed);
    let app = match ui_dir.filter(|dir| dir.join("index.html").is_file()) {
        Some(dir) => app.fallback_service(ServeDir::new(&dir).fallback(ServeFile::new(dir.join("index.html")))),
        None => app.fallback(no_ui),
    };
    // Requests are logged (at debug level) by method, path and status; never with their headers, which
    // carry the bearer token.
    app.layer(axum::middleware::from_fn(service::name_operation))
        .layer(axum::middleware::map_response_with_state(csp, security_headers))
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
}

/// What `/api-docs` describes: the backend's operations and the web UI's provider sign-in.
#[derive(Clone)]
struct ApiDocs {
    backend: Arc<dyn Backend>,
    web_sign_in: Option<Arc<WebSignIn>>,
}

/// The OpenAPI document, listing only the extensions the backend offers (in front of another server, what
/// that server offers), so that a client can tell from it what it may use, and naming the provider the
/// web UI signs in through.
async fn api_docs(axum::extract::State(docs): axum::extract::State<ApiDocs>) -> Json<serde_json::Value> {
    Json(openapi::document_offering(docs.backend.offers().await, docs.web_sign_in.as_deref()))
}

/// The span a request is logged in: its method and path, never its query (a sign-in redirect carries a code
/// there) or its headers (the bearer token).
fn request_span(request: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    tracing::debug_span!("request", method = %request.method(), path = %request.uri().path())
}

async fn not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "no such API path; GET /api-docs lists them")
}

async fn method_not_allowed() -> AppError {
    AppError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this path does not accept that method; GET /api-docs lists the methods",
    )
}

async fn no_ui() -> impl IntoResponse {
    Html(concat!(
        "<!doctype html><title>Search Studio</title>",
        "<h1>Search Studio</h1><p>The API is served under <code>/api</code>, described at <a href=\"/api-docs\">/api-docs</a>.",
        " The web UI has not been built here: run <code>npm run build</code> in <code>ui/</code>.</p>"
    ))
}

//! The one place where failures become HTTP answers: every non-200 response carries
//! `{"status", "error", "message"}` (docs/api.md, Errors). Server faults are logged here and answered without
//! their internals.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use studio_model::BackendError;
use utoipa::ToSchema;

/// An error answer.
#[derive(Debug)]
pub struct AppError {
    pub status: StatusCode,
    pub message: String,
    /// What the failure says about the store, for the readiness probe (crate::probes).
    pub fault: Option<StoreFault>,
}

/// A failure that says the store cannot serve as it should: carried in the answer's extensions so that
/// `/readyz` learns of it from the request that met it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreFault {
    /// A store file is damaged; the message says which and what to do.
    Damaged(String),
    /// The disk holding the store refused a write.
    DiskFull(String),
}

/// The body of every non-200 answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The HTTP status code, e.g. 404.
    pub status: u16,
    /// The status's reason phrase, e.g. `Not Found`.
    pub error: String,
    /// What was wrong, naming the bad input.
    pub message: String,
}

impl AppError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        AppError { status, message: message.into(), fault: None }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        AppError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        AppError::new(StatusCode::UNAUTHORIZED, message)
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        AppError::new(StatusCode::FORBIDDEN, message)
    }
}

impl From<BackendError> for AppError {
    fn from(e: BackendError) -> Self {
        let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::BAD_GATEWAY);
        let fault = match &e {
            BackendError::StoreDamaged(_) => Some(StoreFault::Damaged(e.to_string())),
            BackendError::InsufficientStorage(_) => Some(StoreFault::DiskFull(e.to_string())),
            _ => None,
        };
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = %e, "request failed");
            // A damaged store is said as such: someone must act, and the message says how.
            if !matches!(e, BackendError::StoreDamaged(_)) {
                return AppError::new(status, "the server failed to complete the request; its log says why");
            }
        }
        AppError { fault, ..AppError::new(status, e.to_string()) }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            status: self.status.as_u16(),
            error: self.status.canonical_reason().unwrap_or("Error").to_owned(),
            message: self.message,
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(fault) = self.fault {
            response.extensions_mut().insert(fault);
        }
        response
    }
}

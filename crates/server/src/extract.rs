//! Request extractors whose every rejection is an [`AppError`] with the error body and a message naming the
//! bad input (docs/api.md, Errors): JSON bodies (415, 413, 400), configuration ids in paths and query strings
//! (400).

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::AppError;

/// Largest request body accepted.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// A JSON request body, or `None` when the request has no body at all.
pub struct JsonBody(pub Option<Value>);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, AppError> {
        let content_type = request.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the body is larger than {} bytes (1 MiB)", MAX_BODY_BYTES),
                )
            } else {
                AppError::bad_request(format!("the body could not be read: {}", rejection.body_text()))
            }
        })?;
        if bytes.is_empty() {
            return Ok(JsonBody(None));
        }
        let is_json = content_type.as_deref().is_some_and(|ct| {
            ct.split(';').next().is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
        });
        if !is_json {
            return Err(AppError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "the body must be sent with `Content-Type: application/json` (it came as {})",
                    content_type.map_or_else(|| "no content type".to_owned(), |ct| format!("`{ct}`"))
                ),
            ));
        }
        serde_json::from_slice(&bytes)
            .map(|v| JsonBody(Some(v)))
            .map_err(|e| AppError::bad_request(format!("the body is not valid JSON: {e}")))
    }
}

impl JsonBody {
    /// Reads the body as `T`; a wrong type names the field (`selectedFacets[0].field: invalid type ...`).
    pub fn typed<T: DeserializeOwned + Default>(self) -> Result<T, AppError> {
        let Some(value) = self.0 else { return Ok(T::default()) };
        if !value.is_object() {
            return Err(AppError::bad_request("the body must be a JSON object"));
        }
        serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            AppError::bad_request(format!("field `{path}` of the body is invalid: {}", e.into_inner()))
        })
    }
}

/// A configuration id from the path: an int32.
pub struct ConfigId(pub i32);

impl<S: Send + Sync> FromRequestParts<S> for ConfigId {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| AppError::bad_request(format!("the path is invalid: {}", e.body_text())))?;
        raw.parse::<i32>()
            .map(ConfigId)
            .map_err(|_| AppError::bad_request(format!("configuration id `{raw}` is not a 32-bit integer")))
    }
}

/// Query parameters; a missing or malformed parameter is a 400 naming it.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(q)| ApiQuery(q))
            .map_err(|e| AppError::bad_request(format!("invalid query parameters: {}", e.body_text())))
    }
}

//! Reading one answer without sending a request: the very code the client runs on every answer, exposed so
//! that fuzzing (fuzz/) and tests can feed it any status, content type and body a server might send.

use reqwest::header::{HeaderMap, HeaderValue, CONTENT_TYPE};
use reqwest::{Method, StatusCode};
use studio_model::{FacetHealth, Recommendations, SearchResponse};

use crate::answer::Answer;
use crate::error::RemoteError;
use crate::wire;

/// Which answer of the API a body is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    /// Operations 1, 3, 4 and set-active.
    OneConfiguration,
    /// Operation 2.
    ConfigurationList,
    /// `GET /api/configurations/visible`.
    Visible,
    /// Operations 5 and 6.
    Written,
    /// Operation 7.
    Similar,
    /// Operation 8.
    Recommendations,
    /// Operation 9.
    Search,
    /// `GET /api/configurations/{id}/logs`.
    Logs,
    /// `GET /api/searchspaces`.
    SearchSpaces,
    /// `GET /api/searchspaces/{searchSpaceId}/facethealth`.
    FacetHealth,
    /// Delete.
    Acknowledged,
}

impl AnswerKind {
    /// Every kind of answer.
    pub const ALL: &'static [AnswerKind] = &[
        AnswerKind::OneConfiguration,
        AnswerKind::ConfigurationList,
        AnswerKind::Visible,
        AnswerKind::Written,
        AnswerKind::Similar,
        AnswerKind::Recommendations,
        AnswerKind::Search,
        AnswerKind::Logs,
        AnswerKind::SearchSpaces,
        AnswerKind::FacetHealth,
        AnswerKind::Acknowledged,
    ];
}

/// Reads an answer with HTTP status `status`, `Content-Type` `content_type` and body `body` as `kind`, as
/// the client would: `Ok` when it carries that answer, else the error the client would report. A status
/// that HTTP cannot carry (outside 100–999) or a content type that is not a header value is itself reported
/// as not this API.
pub fn decode_answer(
    kind: AnswerKind,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> Result<(), RemoteError> {
    let mut headers = HeaderMap::new();
    if let Some(value) = content_type {
        let value =
            HeaderValue::from_str(value).map_err(|_| not_http(status, "a content type that is not a header value"))?;
        headers.insert(CONTENT_TYPE, value);
    }
    let status = StatusCode::from_u16(status).map_err(|_| not_http(status, "a status outside 100-999"))?;
    let answer =
        Answer { server: "http://fuzz.invalid", method: &Method::GET, path: "/api", status, headers: &headers, body };
    match kind {
        AnswerKind::OneConfiguration => answer.read::<wire::OneConfiguration>().map(drop),
        AnswerKind::ConfigurationList => answer.read::<wire::ConfigurationList>().map(drop),
        AnswerKind::Visible => answer.read::<serde_json::Value>().map(wire::visible_configurations).map(drop),
        AnswerKind::Written => answer.read::<wire::Written>().map(drop),
        AnswerKind::Similar => answer.read::<wire::Similar>().map(drop),
        AnswerKind::Recommendations => answer.read::<Recommendations>().map(drop),
        AnswerKind::Search => answer.read::<SearchResponse>().map(drop),
        AnswerKind::Logs => answer.read::<serde_json::Value>().map(wire::log_entries).map(drop),
        AnswerKind::SearchSpaces => answer.read::<wire::SearchSpaces>().map(drop),
        AnswerKind::FacetHealth => answer.read::<FacetHealth>().map(drop),
        AnswerKind::Acknowledged => answer.read::<wire::Acknowledged>().map(drop),
    }
}

fn not_http(status: u16, what: &str) -> RemoteError {
    RemoteError::NotTheApi {
        server: "http://fuzz.invalid".to_owned(),
        status,
        problem: format!("the answer had {what}"),
        start: String::new(),
    }
}

/// How an error answer to `request` (`"GET /api/configurations/9"`) is read: whether it says the server
/// lacks the extension asked for, and the reason it gives by its most specific text (the text the client's
/// errors carry). The web UI reads error answers by the same rules; both are pinned by
/// `crates/remote/cases/error-answers.json`.
pub fn read_error_answer(
    request: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> (bool, Option<String>) {
    let (method, path) = request.split_once(' ').unwrap_or(("GET", request));
    let method = Method::from_bytes(method.as_bytes()).unwrap_or(Method::GET);
    let mut headers = HeaderMap::new();
    if let Some(value) = content_type.and_then(|v| HeaderValue::from_str(v).ok()) {
        headers.insert(CONTENT_TYPE, value);
    }
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    let answer = Answer { server: "http://server.invalid", method: &method, path, status, headers: &headers, body };
    answer.reading()
}

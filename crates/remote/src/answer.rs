//! Turning one HTTP answer into either the expected value or a [`RemoteError`] that says what the server
//! meant. Reading is tolerant (optional fields may be missing, unknown fields are kept by the model types),
//! but an answer that cannot be this API's is named as such, with its status and first bytes.

use reqwest::header::{HeaderMap, CONTENT_TYPE};
use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::RemoteError;

/// How many bytes of an unexpected body an error shows.
pub const SNIPPET_BYTES: usize = 200;

/// The parts of an answer that decide what it means.
pub(crate) struct Answer<'a> {
    pub server: &'a str,
    /// `GET /api/configurations/4`, for messages.
    pub request: &'a str,
    pub status: StatusCode,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
}

impl Answer<'_> {
    /// The value a successful answer carries, or the error any other answer stands for.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, RemoteError> {
        let status = self.status.as_u16();
        if self.status.is_success() {
            return self.parse();
        }
        let server = self.server.to_owned();
        let given = self.error_message();
        let message = || given.clone().unwrap_or_else(|| format!("{} was answered {status} with no reason given", self.request));
        Err(match status {
            401 => RemoteError::TokenRejected { server, message: message() },
            403 => RemoteError::NotAllowed { server, message: message() },
            404 => RemoteError::NotFound {
                message: given.clone().unwrap_or_else(|| format!("{} does not exist on {server}", self.request)),
            },
            400 => RemoteError::BadRequest { message: message() },
            409 => RemoteError::Conflict { message: message() },
            402 | 405..=408 | 410..=499 => RemoteError::Refused { server, status, message: message() },
            500..=599 => RemoteError::ServerFailed {
                server,
                status,
                message: given.clone().unwrap_or_else(|| match self.body.is_empty() {
                    true => "its answer had no body".to_owned(),
                    false => format!("its answer began: {}", snippet(self.body)),
                }),
            },
            _ => self.not_the_api(format!("status {status} is not one this API answers with")),
        })
    }

    fn parse<T: DeserializeOwned>(&self) -> Result<T, RemoteError> {
        if let Some(content_type) = self.content_type().filter(|ct| !ct.contains("json")) {
            return Err(self.not_the_api(format!("content type `{content_type}` instead of JSON")));
        }
        let body: &[u8] = if self.body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { self.body };
        let value: Value = serde_json::from_slice(body)
            .map_err(|e| self.not_the_api(format!("the body is not valid JSON ({e})")))?;
        if !value.is_object() {
            return Err(self.not_the_api("the answer has the wrong shape: it is not a JSON object".into()));
        }
        serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            let problem = match path.as_str() {
                "." => format!("the answer has the wrong shape: {}", e.into_inner()),
                _ => format!("field `{path}` has the wrong shape: {}", e.into_inner()),
            };
            self.not_the_api(problem)
        })
    }

    fn content_type(&self) -> Option<String> {
        let raw = self.headers.get(CONTENT_TYPE)?.to_str().ok()?;
        Some(raw.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
    }

    fn not_the_api(&self, problem: String) -> RemoteError {
        RemoteError::NotTheApi {
            server: self.server.to_owned(),
            status: self.status.as_u16(),
            problem: format!("{}: {problem}", self.request),
            start: snippet(self.body),
        }
    }

    /// The reason an error answer gives: `message` of this API's error body (decisions.md §5), or the
    /// `error`/`detail`/`title` of other common error bodies, or a short plain-text body.
    fn error_message(&self) -> Option<String> {
        if let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(self.body) {
            return ["message", "detail", "error", "title"]
                .iter()
                .find_map(|key| map.get(*key)?.as_str().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned));
        }
        let is_text = self.content_type().is_some_and(|ct| ct == "text/plain");
        let text = String::from_utf8_lossy(self.body);
        (is_text && !text.trim().is_empty()).then(|| snippet(self.body))
    }
}

/// The first [`SNIPPET_BYTES`] bytes of a body as one line of text, marked when cut.
pub(crate) fn snippet(body: &[u8]) -> String {
    if body.is_empty() {
        return "(an empty body)".to_owned();
    }
    let text = String::from_utf8_lossy(&body[..body.len().min(SNIPPET_BYTES)]);
    let text = text.trim_end_matches('\u{fffd}');
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if body.len() > SNIPPET_BYTES {
        format!("{line}…")
    } else {
        line
    }
}

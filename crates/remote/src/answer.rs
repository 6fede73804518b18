//! Turning one HTTP answer into either the expected value or a [`RemoteError`] that says what the server
//! meant. Reading is tolerant (optional fields may be missing, unknown fields are kept by the model types),
//! but an answer that cannot be this API's is named as such, with its status and first bytes.

use reqwest::header::{HeaderMap, CONTENT_TYPE};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use studio_model::Extension;

use crate::error::RemoteError;

/// How many bytes of an unexpected body an error shows.
pub const SNIPPET_BYTES: usize = 200;

/// The parts of an answer that decide what it means.
pub(crate) struct Answer<'a> {
    pub server: &'a str,
    pub method: &'a Method,
    /// The path under the server's base URL, `/api/configurations/4`.
    pub path: &'a str,
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
        if let Some(extension) = self.lacked_extension() {
            return Err(RemoteError::NotOffered { server, extension });
        }
        let given = self.error_message();
        let request = self.request();
        let message =
            || given.clone().unwrap_or_else(|| format!("{request} was answered {status} with no reason given"));
        Err(match status {
            401 => RemoteError::TokenRejected { server, message: message() },
            403 => RemoteError::NotAllowed { server, message: message() },
            404 => RemoteError::NotFound {
                message: given.clone().unwrap_or_else(|| format!("{request} does not exist on {server}")),
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

    /// Whether this error answer says the server lacks an extension, and the reason it gives.
    pub fn reading(&self) -> (bool, Option<String>) {
        match self.lacked_extension() {
            Some(_) => (true, None),
            None => (false, self.error_message()),
        }
    }

    /// `GET /api/configurations/4`, for messages.
    fn request(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    /// The extension this request asked for, when the answer says the server lacks it: a 501, or a 404 or
    /// 405 whose body is not this API's error body (docs/choices.md, Real servers). This API's own 404 names a missing
    /// configuration; a server without the path answers with its framework's page or error.
    fn lacked_extension(&self) -> Option<Extension> {
        let extension = Extension::of_request(self.method.as_str(), self.path)?;
        match self.status.as_u16() {
            // "Not Implemented", as a proxy of this project answers for what its upstream lacks.
            501 => return Some(extension),
            404 | 405 => {}
            _ => return None,
        }
        let ours = match serde_json::from_slice::<Value>(self.body) {
            Ok(Value::Object(map)) => is_api_error_body(&map),
            _ => false,
        };
        (!ours).then_some(extension)
    }

    fn parse<T: DeserializeOwned>(&self) -> Result<T, RemoteError> {
        if let Some(content_type) = self.content_type().filter(|ct| !ct.contains("json")) {
            return Err(self.not_the_api(format!("content type `{content_type}` instead of JSON")));
        }
        let body: &[u8] = if self.body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { self.body };
        let not_json = |e: serde_json::Error| self.not_the_api(format!("the body is not valid JSON ({e})"));
        // An object is read straight from the bytes (no tree of values first: a page of a pull is large).
        if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            // A bare array is read only where a lenient answer takes one (other servers' extensions).
            let not_object = || self.not_the_api("the answer has the wrong shape: it is not a JSON object".into());
            return match serde_json::from_slice::<Value>(body).map_err(not_json)? {
                value @ Value::Array(_) => serde_json::from_value(value).map_err(|_| not_object()),
                _ => Err(not_object()),
            };
        }
        // Read once without tracking where it is (which costs an allocation per key), and again with it only to
        // say which field has the wrong shape.
        let error = match serde_json::from_slice(body) {
            Ok(value) => return Ok(value),
            Err(e) if e.classify() != serde_json::error::Category::Data => return Err(not_json(e)),
            Err(e) => e,
        };
        let mut reader = serde_json::Deserializer::from_slice(body);
        let problem = match serde_path_to_error::deserialize::<_, T>(&mut reader) {
            Err(e) if e.path().to_string() != "." => format!("field `{}` has the wrong shape: {}", e.path(), e.inner()),
            _ => format!("the answer has the wrong shape: {error}"),
        };
        Err(self.not_the_api(problem))
    }

    fn content_type(&self) -> Option<String> {
        let raw = self.headers.get(CONTENT_TYPE)?.to_str().ok()?;
        Some(raw.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
    }

    fn not_the_api(&self, problem: String) -> RemoteError {
        RemoteError::NotTheApi {
            server: self.server.to_owned(),
            status: self.status.as_u16(),
            problem: format!("{}: {problem}", self.request()),
            start: snippet(self.body),
        }
    }

    /// The reason an error answer gives, by its most specific text: `message` of this API's error body
    /// (docs/api.md, Errors), else the `error_description`, `detail`, `message`, `error` or `title` of other
    /// servers' bodies (OAuth, RFC 7807, Spring), or a short plain-text body. Another server's text comes
    /// with the status and, where its body names it, the path; a text that only repeats the status's reason
    /// ("Not Found") is never given alone.
    fn error_message(&self) -> Option<String> {
        let status = self.status.as_u16();
        let reason = self.status.canonical_reason().unwrap_or("Error");
        if let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(self.body) {
            if is_api_error_body(&map) {
                return text_of(&map, "message");
            }
            let specific = ["message", "error_description", "detail", "error", "title"]
                .iter()
                .filter_map(|key| text_of(&map, key))
                .find(|text| !text.eq_ignore_ascii_case(reason) && text != "No message available");
            let path = text_of(&map, "path").map(|p| format!(" at {p}")).unwrap_or_default();
            return Some(match specific {
                Some(text) => format!("{text} ({status} {reason}{path})"),
                None => format!("{} was answered {status} {reason}{path}", self.request()),
            });
        }
        let is_text = self.content_type().is_some_and(|ct| ct == "text/plain");
        let text = String::from_utf8_lossy(self.body);
        (is_text && !text.trim().is_empty()).then(|| format!("{} ({status} {reason})", snippet(self.body)))
    }
}

/// A non-blank string field of an error body, trimmed.
fn text_of(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key)?.as_str().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)
}

/// Whether an error body is this API's own `{status, error, message}` (docs/api.md, Errors): exactly those
/// three keys. Spring's default body adds `timestamp` and `path`, OAuth's has `error_description`.
fn is_api_error_body(map: &Map<String, Value>) -> bool {
    map.len() == 3
        && map.get("status").is_some_and(Value::is_u64)
        && text_of(map, "error").is_some()
        && map.get("message").is_some_and(Value::is_string)
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

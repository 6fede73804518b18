//! Sending one request to the server: the shared reqwest client with its headers and timeouts, the retry
//! loop (backoff, `Retry-After`), and the classification of transport failures. What an answer means is
//! left to [`crate::answer`].
//!
//! Retries: a request that failed to connect was never sent, so it is always tried again. A 502, 503, 504
//! or 429 answer is retried only for requests that are safe to repeat (`Repeat::Safe`): GET, DELETE and the
//! read-only search POST; never create, update or set-active, each of which leaves a row in the history.
//! Timeouts are not retried (each would cost a whole request timeout again).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, RETRY_AFTER, USER_AGENT};
use reqwest::{Client, Method, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::answer::Answer;
use crate::error::{root_cause, RemoteError};
use crate::options::RemoteOptions;
use crate::session::{Session, SignIn};

/// Whether a request may be sent again after the server may have seen it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Repeat {
    /// Repeating it changes nothing on the server.
    Safe,
    /// Repeating it could change something twice; only retried when it was never sent.
    Once,
}

/// One request: method, path under the base URL, query and JSON body.
pub(crate) struct Call {
    pub method: Method,
    pub path: String,
    pub query: Vec<(&'static str, String)>,
    pub body: Option<Value>,
    pub repeat: Repeat,
    /// Whether the request carries the Authorization header (not for public documents such as `/api-docs`).
    pub authorize: bool,
}

impl Call {
    pub fn get(path: String) -> Self {
        Call { method: Method::GET, path, query: Vec::new(), body: None, repeat: Repeat::Safe, authorize: true }
    }

    /// A GET of a public document, sent without the Authorization header.
    pub fn public_get(path: String) -> Self {
        Call { authorize: false, ..Call::get(path) }
    }

    pub fn without_body(method: Method, path: String, repeat: Repeat) -> Self {
        Call { method, path, query: Vec::new(), body: None, repeat, authorize: true }
    }

    pub fn with_body(method: Method, path: String, body: Value, repeat: Repeat) -> Self {
        Call { method, path, query: Vec::new(), body: Some(body), repeat, authorize: true }
    }
}

/// What a request carries to prove who sends it.
#[derive(Clone)]
enum Authorization {
    None,
    /// A pasted token, the same on every request.
    Fixed(HeaderValue),
    /// A provider's tokens, renewed as they expire.
    Session(Arc<Session>),
}

/// The HTTP client of one remote backend.
#[derive(Clone)]
pub(crate) struct Transport {
    client: Client,
    base: String,
    options: RemoteOptions,
    authorization: Authorization,
}

/// How one attempt ended.
enum Attempt {
    Answered { status: StatusCode, headers: HeaderMap, body: Vec<u8> },
    Failed { error: RemoteError, never_sent: bool },
}

impl Transport {
    /// A client for the server at `base_url` (`http(s)://host[:port][/prefix]`, the part before `/api`).
    pub fn new(
        base_url: &str,
        sign_in: SignIn,
        options: RemoteOptions,
        keeper: Option<Arc<dyn crate::session::TokenKeeper>>,
    ) -> Result<Self, RemoteError> {
        let base = check_base_url(base_url)?;
        let authorization = match sign_in {
            SignIn::Anonymous => Authorization::None,
            SignIn::Token(token) => Authorization::Fixed(bearer_header(&base, token.trim())?),
            SignIn::Provider(provider) => Authorization::Session(Arc::new(Session::new(&base, provider, keeper))),
        };
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        headers.insert(USER_AGENT, HeaderValue::from_static(concat!("search-studio/", env!("CARGO_PKG_VERSION"))));
        let client = Client::builder()
            .default_headers(headers)
            .connect_timeout(options.connect_timeout)
            .timeout(options.request_timeout)
            .build()
            .map_err(|e| RemoteError::Client(root_cause(&e)))?;
        Ok(Transport { client, base, options, authorization })
    }

    /// The provider session, when the client signs in through one.
    pub fn session(&self) -> Option<&Arc<Session>> {
        match &self.authorization {
            Authorization::Session(session) => Some(session),
            _ => None,
        }
    }

    /// The token for the next request (a provider's renewed first when it is due), and its header.
    async fn bearer(&self) -> Result<Option<(String, HeaderValue)>, RemoteError> {
        let token = match &self.authorization {
            Authorization::None => return Ok(None),
            Authorization::Fixed(value) => return Ok(Some((String::new(), value.clone()))),
            Authorization::Session(session) => session.bearer().await?,
        };
        let header = bearer_header(&self.base, &token)?;
        Ok(Some((token, header)))
    }

    /// The base URL, without a trailing slash.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Sends `call`, retrying as the module docs say, and reads the answer as `T`.
    ///
    /// This loop is written by hand on purpose. A retry crate (a reqwest middleware, a backoff helper)
    /// decides from the HTTP method and the status alone; here the decision needs what only this API's
    /// client knows:
    /// - which operations may be repeated: the search POST is read-only and is retried like a GET, while
    ///   create, update and set-active are never sent twice once the server may have seen them ([`Repeat`]);
    /// - whether a failed attempt reached the server at all: a refused connection is retried even for
    ///   create, a timeout or a connection lost mid-answer never is;
    /// - a 401 is not a failure to back off from but a token to renew: the session renews the token that
    ///   was sent (unless a request beside it already has), the request goes again at once, and that does
    ///   not count as a retry; a second 401 is the answer;
    /// - every retry takes the current token, since another request may have renewed it during the wait;
    /// - `Retry-After` is honoured only up to [`RemoteOptions::max_retry_after`], and the answer's size
    ///   limit is checked while reading, inside the same attempt.
    pub async fn send<T: DeserializeOwned>(&self, call: Call) -> Result<T, RemoteError> {
        let request = format!("{} {}", call.method, call.path);
        let mut retry = 0;
        let mut bearer = if call.authorize { self.bearer().await? } else { None };
        let mut renewed = false;
        loop {
            let wait = match self.attempt(&call, bearer.as_ref().map(|(_, header)| header)).await {
                // A refused token is renewed once and the request sent again: the server did not act on it.
                Attempt::Answered { status: StatusCode::UNAUTHORIZED, .. }
                    if !renewed && call.authorize && self.session().is_some() =>
                {
                    renewed = true;
                    if let (Some(session), Some((sent, _))) = (self.session(), &bearer) {
                        let fresh = session.rejected(sent).await?;
                        bearer = Some((fresh.clone(), bearer_header(&self.base, &fresh)?));
                    }
                    continue;
                }
                Attempt::Answered { status, headers, body } => {
                    let again = call.repeat == Repeat::Safe && is_retryable(status) && retry < self.options.retries;
                    if !again {
                        let answer = Answer {
                            server: &self.base,
                            method: &call.method,
                            path: &call.path,
                            status,
                            headers: &headers,
                            body: &body,
                        };
                        return answer.read();
                    }
                    self.retry_after(&headers).unwrap_or_else(|| self.options.backoff_for(retry + 1))
                }
                Attempt::Failed { error, never_sent } => {
                    if !never_sent || retry >= self.options.retries {
                        return Err(error);
                    }
                    self.options.backoff_for(retry + 1)
                }
            };
            retry += 1;
            tracing::debug!(%request, retry, ?wait, "retrying a request to the remote server");
            tokio::time::sleep(wait).await;
            if call.authorize {
                bearer = self.bearer().await?;
            }
        }
    }

    async fn attempt(&self, call: &Call, bearer: Option<&HeaderValue>) -> Attempt {
        let mut builder = self.client.request(call.method.clone(), format!("{}{}", self.base, call.path));
        if let Some(value) = bearer {
            builder = builder.header(AUTHORIZATION, value.clone());
        }
        if !call.query.is_empty() {
            builder = builder.query(&call.query);
        }
        if let Some(body) = &call.body {
            builder = builder.json(body);
        }
        let response = match builder.send().await {
            Ok(response) => response,
            Err(e) => return self.failed(e),
        };
        let (status, headers) = (response.status(), response.headers().clone());
        match self.read_body(call, response).await {
            Ok(body) => Attempt::Answered { status, headers, body },
            Err(failed) => failed,
        }
    }

    /// The whole body of `response`, read chunk by chunk up to [`RemoteOptions::max_answer_bytes`].
    async fn read_body(&self, call: &Call, mut response: reqwest::Response) -> Result<Vec<u8>, Attempt> {
        let limit = self.options.max_answer_bytes;
        let too_large = || Attempt::Failed {
            error: RemoteError::TooLarge {
                server: self.base.clone(),
                request: format!("{} {}", call.method, call.path),
                limit,
            },
            never_sent: false,
        };
        let announced = response.content_length();
        if announced.is_some_and(|n| n > limit) {
            return Err(too_large());
        }
        // The announced length, within the limit, is taken as a hint only: the body is still counted as it comes.
        let mut body = Vec::with_capacity(announced.and_then(|n| usize::try_from(n).ok()).unwrap_or(0));
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    if body.len() as u64 + chunk.len() as u64 > limit {
                        return Err(too_large());
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(None) => return Ok(body),
                Err(e) => return Err(self.failed(e)),
            }
        }
    }

    fn failed(&self, e: reqwest::Error) -> Attempt {
        let server = self.base.clone();
        if e.is_timeout() {
            let after = if e.is_connect() { self.options.connect_timeout } else { self.options.request_timeout };
            return Attempt::Failed { error: RemoteError::TimedOut { server, after }, never_sent: false };
        }
        if e.is_connect() {
            return Attempt::Failed {
                error: RemoteError::Unreachable { server, reason: root_cause(&e) },
                never_sent: true,
            };
        }
        Attempt::Failed { error: RemoteError::ConnectionLost { server, reason: root_cause(&e) }, never_sent: false }
    }

    /// The wait a `Retry-After` header asks for (seconds or an HTTP date), capped.
    fn retry_after(&self, headers: &HeaderMap) -> Option<Duration> {
        let raw = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
        let wait = match raw.parse::<u64>() {
            Ok(seconds) => Duration::from_secs(seconds),
            Err(_) => httpdate::parse_http_date(raw).ok()?.duration_since(SystemTime::now()).unwrap_or_default(),
        };
        Some(wait.min(self.options.max_retry_after))
    }
}

/// `Bearer <token>` as a header value that is never printed.
fn bearer_header(base: &str, token: &str) -> Result<HeaderValue, RemoteError> {
    let mut value = HeaderValue::from_str(&format!("Bearer {token}"))
        .map_err(|_| RemoteError::BadToken { server: base.to_owned() })?;
    value.set_sensitive(true);
    Ok(value)
}

fn is_retryable(status: StatusCode) -> bool {
    matches!(status.as_u16(), 429 | 502 | 503 | 504)
}

/// Checks that `url` is an absolute http(s) URL without query or fragment; drops a trailing slash or `/api`.
pub fn check_base_url(url: &str) -> Result<String, RemoteError> {
    let bad = |reason: &str| RemoteError::BadBaseUrl { url: url.to_owned(), reason: reason.to_owned() };
    let parsed = reqwest::Url::parse(url.trim()).map_err(|e| bad(&format!("{e}; write it like http://host:8080")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad("only http:// and https:// servers are supported"));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(bad("it names no host"));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(bad("it must not carry a query or fragment"));
    }
    // Every path of the API starts with /api; a pasted `http://host:8080/api` means `http://host:8080`.
    let base = parsed.as_str().trim_end_matches('/');
    Ok(base.strip_suffix("/api").unwrap_or(base).to_owned())
}

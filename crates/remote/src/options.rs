//! How patient a [`RemoteBackend`](crate::RemoteBackend) is: timeouts, retries and backoff. Kept apart from
//! the client so that tests and the CLI can tighten them without touching how requests are made.

use std::time::Duration;

/// Timeouts and retry policy of a remote backend. `RemoteOptions::default()` is what the issue asks for:
/// connect timeout 5 s, request timeout 30 s, two retries with 250 ms / 500 ms backoff, `Retry-After`
/// honoured up to 10 s; answers of at most 64 MiB are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteOptions {
    /// Longest wait for a TCP (and TLS) connection to the server.
    pub connect_timeout: Duration,
    /// Longest wait for one whole request: connecting, sending, and reading the full answer.
    pub request_timeout: Duration,
    /// How many times a retryable request is sent again after its first attempt.
    pub retries: u32,
    /// Wait before the first retry; each further retry waits twice as long as the one before.
    pub backoff: Duration,
    /// Longest wait that a server's `Retry-After` header can impose before a retry.
    pub max_retry_after: Duration,
    /// Largest answer read, in bytes: a bigger one (a misbehaving server, or not a server of the API) is
    /// refused as soon as it is seen to be bigger, never held in memory whole.
    pub max_answer_bytes: u64,
}

impl Default for RemoteOptions {
    fn default() -> Self {
        RemoteOptions {
            connect_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
            retries: 2,
            backoff: Duration::from_millis(250),
            max_retry_after: Duration::from_secs(10),
            max_answer_bytes: 64 * 1024 * 1024,
        }
    }
}

impl RemoteOptions {
    /// Sets [`connect_timeout`](Self::connect_timeout).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Sets [`request_timeout`](Self::request_timeout).
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// Sets [`retries`](Self::retries); 0 sends every request once.
    pub fn retries(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }

    /// Sets [`backoff`](Self::backoff).
    pub fn backoff(mut self, backoff: Duration) -> Self {
        self.backoff = backoff;
        self
    }

    /// Sets [`max_retry_after`](Self::max_retry_after).
    pub fn max_retry_after(mut self, cap: Duration) -> Self {
        self.max_retry_after = cap;
        self
    }

    /// Sets [`max_answer_bytes`](Self::max_answer_bytes).
    pub fn max_answer_bytes(mut self, bytes: u64) -> Self {
        self.max_answer_bytes = bytes;
        self
    }

    /// The wait before retry number `retry` (1-based) when the server gave no `Retry-After`.
    pub(crate) fn backoff_for(&self, retry: u32) -> Duration {
        self.backoff.saturating_mul(1u32 << retry.saturating_sub(1).min(16))
    }
}

//! The server's log lines on stderr: text by default (a service manager's journal adds the time), or one
//! JSON object a line (`--log-format json`: `timestamp`, `level`, `message`, the fields of the line, e.g.
//! `operation`, `status`, `duration_ms`, and under `span` the request's `request_id`). `RUST_LOG` chooses
//! the levels (`info` by default). No line holds a token, a password or a secret: nothing logs a request's
//! headers or query, and the secrets are never fields.

use super::args::LogFormat;

/// Sends the log lines to stderr in `format`.
pub fn init(format: LogFormat) {
    let filter = || {
        tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"))
    };
    let builder = tracing_subscriber::fmt().with_env_filter(filter()).with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).with_span_list(false).init(),
    }
}

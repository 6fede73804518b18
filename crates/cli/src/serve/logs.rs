//! The server's log lines on stderr: text by default (a service manager's journal adds the time), or one
//! JSON object a line (`--log-format json`: `timestamp`, `level`, `message`, the fields of the line, e.g.
//! `operation`, `status`, `duration_ms`, and under `span` the request's `request_id`). `--log-level` (else
//! `RUST_LOG`, else `info`) chooses the lines. Both can change while the server runs ([`Logs::apply`], at
//! SIGHUP). No line holds a token, a password or a secret: nothing logs a request's headers or query, and
//! the secrets are never fields.
//!
//! Both formats' writers are always in place and both record every span's fields; only the lines (events)
//! go to the one in force. A request that began under one format and ends under the other is thus written
//! whole (the JSON writer cannot write a span whose fields it did not record: it would panic).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::ValueEnum;
use serde::Deserialize;
use tracing_subscriber::filter::dynamic_filter_fn;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{reload, EnvFilter, Layer, Registry};

use crate::error::CliError;

/// How log lines are written to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines (a service manager's journal adds the time)
    Text,
    /// One JSON object a line: time, level, message, request id, operation, status, duration
    Json,
}

/// The log settings in force, which SIGHUP may change.
pub struct Logs {
    filter: reload::Handle<EnvFilter, Registry>,
    /// Whether lines are written as JSON (else as text).
    json: Arc<AtomicBool>,
    now: (LogFormat, String),
}

/// The lines `level` asks for (`--log-level`), else `RUST_LOG`'s, else `info`.
fn filter(level: Option<&str>) -> Result<(EnvFilter, String), CliError> {
    let (given_as, directives) = match level.map(str::trim) {
        Some(level) => ("--log-level", level.to_owned()),
        None => match std::env::var("RUST_LOG").ok().filter(|v| !v.trim().is_empty()) {
            Some(directives) => ("RUST_LOG", directives),
            None => ("the default level", "info".to_owned()),
        },
    };
    let filter = EnvFilter::try_new(&directives).map_err(|e| {
        CliError::Input(format!(
            "{given_as} {directives}: {e}; give a level (error, warn, info, debug, trace) or directives such as \
             info,studio_server=debug"
        ))
    })?;
    Ok((filter, directives))
}

impl Logs {
    /// Sends the log lines to stderr in `format`, those `level` asks for.
    pub fn init(format: LogFormat, level: Option<&str>) -> Result<Logs, CliError> {
        let (env_filter, directives) = filter(level)?;
        let (filter_layer, filter_handle) = reload::Layer::new(env_filter);
        let json = Arc::new(AtomicBool::new(format == LogFormat::Json));
        let (for_text, for_json) = (json.clone(), json.clone());
        let text = tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_filter(dynamic_filter_fn(move |meta, _| meta.is_span() || !for_text.load(Ordering::Relaxed)));
        let json_lines = tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .with_filter(dynamic_filter_fn(move |meta, _| meta.is_span() || for_json.load(Ordering::Relaxed)));
        tracing_subscriber::registry().with(filter_layer).with(text).with(json_lines).init();
        Ok(Logs { filter: filter_handle, json, now: (format, directives) })
    }

    /// Writes the lines `level` asks for in `format` from now on; says which of the two changed. A level
    /// that is not one changes nothing.
    pub fn apply(&mut self, format: LogFormat, level: Option<&str>) -> Result<Vec<&'static str>, CliError> {
        let (env_filter, directives) = filter(level)?;
        let mut changed = Vec::new();
        if directives != self.now.1 {
            self.filter
                .reload(env_filter)
                .map_err(|e| CliError::Server(format!("cannot change the log level: {e}")))?;
            self.now.1 = directives;
            changed.push("log-level");
        }
        if format != self.now.0 {
            self.json.store(format == LogFormat::Json, Ordering::Relaxed);
            self.now.0 = format;
            changed.push("log-format");
        }
        Ok(changed)
    }
}

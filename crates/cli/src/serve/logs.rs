//! The server's log lines on stderr: text by default (a service manager's journal adds the time), or one
//! JSON object a line (`--log-format json`: `timestamp`, `level`, `message`, the fields of the line, e.g.
//! `operation`, `status`, `duration_ms`, and under `span` the request's `request_id`). `--log-level` (else
//! `RUST_LOG`, else `info`) chooses the lines. Both can change while the server runs ([`Logs::apply`], at
//! SIGHUP). No line holds a token, a password or a secret: nothing logs a request's headers or query, and
//! the secrets are never fields.

use tracing_subscriber::layer::{Layered, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{reload, EnvFilter, Layer, Registry};

use super::args::LogFormat;
use crate::CliError;

type Filtered = Layered<reload::Layer<EnvFilter, Registry>, Registry>;
type Format = Box<dyn Layer<Filtered> + Send + Sync>;

/// The log settings in force, which SIGHUP may change.
pub struct Logs {
    filter: reload::Handle<EnvFilter, Registry>,
    format: reload::Handle<Format, Filtered>,
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

fn format_layer(format: LogFormat) -> Format {
    let layer = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    match format {
        LogFormat::Text => layer.boxed(),
        LogFormat::Json => layer.json().flatten_event(true).with_current_span(true).with_span_list(false).boxed(),
    }
}

impl Logs {
    /// Sends the log lines to stderr in `format`, those `level` asks for.
    pub fn init(format: LogFormat, level: Option<&str>) -> Result<Logs, CliError> {
        let (env_filter, directives) = filter(level)?;
        let (filter_layer, filter) = reload::Layer::new(env_filter);
        let (format_layer, format_handle) = reload::Layer::new(format_layer(format));
        tracing_subscriber::registry().with(filter_layer).with(format_layer).init();
        Ok(Logs { filter, format: format_handle, now: (format, directives) })
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
            self.format
                .reload(format_layer(format))
                .map_err(|e| CliError::Server(format!("cannot change the log format: {e}")))?;
            self.now.0 = format;
            changed.push("log-format");
        }
        Ok(changed)
    }
}

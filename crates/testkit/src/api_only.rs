//! The double of a team's production server (`servers/api-only.mjs`): the API's nine operations forwarded
//! to a `studio serve`, only the extensions it is told to offer, Spring Boot's error answers for
//! everything else, an OpenAPI 2.0 document at `/api-docs`, and optionally the web UI at `/`.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::process::ServerProcess;
use crate::TestkitError;

/// How the double is started.
#[derive(Debug, Clone)]
pub struct ApiOnlyOptions {
    /// Publish the OpenAPI 2.0 document at `/api-docs` (otherwise that path is a 404).
    pub openapi: bool,
    /// The extensions it offers: any of "set", "visible", "logs".
    pub offer: Vec<&'static str>,
    /// A built web UI (with index.html) to serve at `/`, under the upstream's Content-Security-Policy.
    pub ui_dir: Option<PathBuf>,
    /// Places among a search's results (from 1) whose documents it sends with an empty id, as a production server
    /// holding such documents would.
    pub unstorable_results: Vec<u64>,
    /// The page's start and how many times: the first searches for that page answer 500, as a server failing for a
    /// while does.
    pub failing_searches: Option<(u64, u32)>,
}

impl Default for ApiOnlyOptions {
    /// An OpenAPI document, no extensions, no UI.
    fn default() -> Self {
        ApiOnlyOptions {
            openapi: true,
            offer: Vec::new(),
            ui_dir: None,
            unstorable_results: Vec::new(),
            failing_searches: None,
        }
    }
}

/// A running double; killed when dropped.
pub struct ApiOnlyServer {
    _process: ServerProcess,
    url: String,
}

impl ApiOnlyServer {
    /// Starts the double on a free loopback port in front of `upstream` (a `studio serve`). With a UI
    /// directory the upstream must already answer, since its security headers are read at start.
    pub fn start(upstream: &str, options: ApiOnlyOptions) -> Result<ApiOnlyServer, TestkitError> {
        let mut args: Vec<OsString> = vec![
            "--upstream".into(),
            upstream.into(),
            "--port".into(),
            "0".into(),
            "--openapi".into(),
            if options.openapi { "v2" } else { "none" }.into(),
            "--offer".into(),
            options.offer.join(",").into(),
        ];
        if !options.unstorable_results.is_empty() {
            let places: Vec<String> = options.unstorable_results.iter().map(u64::to_string).collect();
            args.extend(["--unstorable-results".into(), places.join(",").into()]);
        }
        if let Some((start, times)) = options.failing_searches {
            args.extend(["--failing-searches".into(), format!("{start}:{times}").into()]);
        }
        if let Some(dir) = options.ui_dir {
            args.extend(["--ui-dir".into(), dir.into_os_string()]);
        }
        let (process, announced) = ServerProcess::start("api-only.mjs", &args)?;
        let url = announced["url"].as_str().unwrap_or_default().to_owned();
        if !url.starts_with("http://127.0.0.1:") {
            return Err(TestkitError::NotStarted {
                script: "api-only.mjs".into(),
                reason: format!("it announced {announced}, not a URL"),
                output: String::new(),
            });
        }
        Ok(ApiOnlyServer { _process: process, url })
    }

    /// `http://127.0.0.1:PORT`
    pub fn url(&self) -> &str {
        &self.url
    }
}

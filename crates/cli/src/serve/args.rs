//! The settings of `studio serve` and where each comes from. Every flag has an environment variable
//! (`STUDIO_` and the flag's name, e.g. `STUDIO_LISTEN`) and a key of the configuration file named as the
//! flag (`listen`): a flag wins over its variable, which wins over the file, which wins over the default.
//! Secrets (the upstream's token, password and client secret) are never flags: they come from their
//! variables or from files the `…-file` settings name.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args};

use super::logs::LogFormat;
use super::settings::SettingsFile;
use crate::error::CliError;
use crate::signin;

/// Said in `studio serve --help` under the flags.
pub const PRECEDENCE: &str = "Every flag can also be set by its environment variable (shown as [env: …]) or by the \
key of the --config file named as the flag (`listen = \"127.0.0.1:8080\"`, `oidc-issuer = …`, `data-dir = …`). A \
flag wins over its variable, a variable over the file, the file over the default. Secrets are never flags: the \
upstream's token, password and client secret come from STUDIO_UPSTREAM_TOKEN, STUDIO_UPSTREAM_PASSWORD and \
STUDIO_UPSTREAM_CLIENT_SECRET, or from the files that --upstream-token-file, --upstream-password-file and \
--upstream-client-secret-file (or their keys) name.

SIGHUP reads the auth file and the --config file again and applies, without a restart, the settings that can \
change while the server runs: log-level, log-format and metrics-allow (a flag or variable still wins over the \
file). Every other setting (listen, data-dir, auth's path, upstream…, oidc-…, the timeouts, ui-dir, \
metrics-listen) takes effect at the next start. A configuration file that cannot be used at SIGHUP keeps the \
running settings and says why in one log line.";

#[derive(Args, Debug, Clone)]
#[command(after_long_help = PRECEDENCE)]
pub struct ServeArgs {
    /// A TOML configuration file whose keys are the flags' names; flags and environment variables win over it
    #[arg(long, env = "STUDIO_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Address to listen on
    #[arg(long, env = "STUDIO_LISTEN", default_value = "127.0.0.1:8080", value_name = "ADDR")]
    pub listen: SocketAddr,
    /// Auth file with users, token digests and groups, read again at SIGHUP [default: one random token,
    /// printed once]
    #[arg(long, env = "STUDIO_AUTH", value_name = "FILE")]
    pub auth: Option<PathBuf>,
    /// Serve in front of another server of the API instead of the local store (token in STUDIO_UPSTREAM_TOKEN
    /// or the --upstream-token-file, or signed in through --upstream-issuer)
    #[arg(long, env = "STUDIO_UPSTREAM", value_name = "URL")]
    pub upstream: Option<String>,
    /// Issuer URL of the OpenID Connect provider the upstream server takes tokens from, renewing tokens as
    /// they expire. Signs in with the password grant as STUDIO_UPSTREAM_USERNAME / STUDIO_UPSTREAM_PASSWORD
    /// (with the client secret, if the client has one); with neither, with the client credentials grant as
    /// the client itself, its secret in STUDIO_UPSTREAM_CLIENT_SECRET or --upstream-client-secret-file
    #[arg(long, env = "STUDIO_UPSTREAM_ISSUER", value_name = "ISSUER")]
    pub upstream_issuer: Option<String>,
    /// Client id at the upstream's provider
    #[arg(long, env = "STUDIO_UPSTREAM_CLIENT_ID", value_name = "ID", default_value = signin::DEFAULT_CLIENT_ID)]
    pub upstream_client_id: String,
    /// A file holding the access token for the upstream (when STUDIO_UPSTREAM_TOKEN is not set)
    #[arg(long, env = "STUDIO_UPSTREAM_TOKEN_FILE", value_name = "FILE")]
    pub upstream_token_file: Option<PathBuf>,
    /// A file holding the password for --upstream-issuer (when STUDIO_UPSTREAM_PASSWORD is not set)
    #[arg(long, env = "STUDIO_UPSTREAM_PASSWORD_FILE", value_name = "FILE")]
    pub upstream_password_file: Option<PathBuf>,
    /// A file holding the client secret for --upstream-issuer (when STUDIO_UPSTREAM_CLIENT_SECRET is not set)
    #[arg(long, env = "STUDIO_UPSTREAM_CLIENT_SECRET_FILE", value_name = "FILE")]
    pub upstream_client_secret_file: Option<PathBuf>,
    /// Also accept JWT access tokens of this OpenID Connect provider (signed with a key of its JWKS); their
    /// groups claim names groups of the --auth file
    #[arg(long, env = "STUDIO_OIDC_ISSUER", value_name = "ISSUER")]
    pub oidc_issuer: Option<String>,
    /// The audience the provider's tokens must name in `aud` [default: any]
    #[arg(long, env = "STUDIO_OIDC_AUDIENCE", value_name = "AUD")]
    pub oidc_audience: Option<String>,
    /// The claim of the provider's tokens that lists the user's groups (a leading / is ignored)
    #[arg(long, env = "STUDIO_OIDC_GROUPS_CLAIM", value_name = "NAME", default_value = "groups")]
    pub oidc_groups_claim: String,
    /// The provider's public client the web UI signs in with (authorization code with PKCE, redirect URI
    /// ORIGIN/signed-in); /api-docs names it and the page may then send requests to the issuer
    #[arg(long, env = "STUDIO_OIDC_UI_CLIENT_ID", value_name = "ID")]
    pub oidc_ui_client_id: Option<String>,
    /// Longest wait for one answer of the upstream server, in seconds; slower answers become 504
    #[arg(long, env = "STUDIO_UPSTREAM_TIMEOUT", value_name = "SECONDS", default_value_t = 30.0)]
    pub upstream_timeout: f64,
    /// The built web UI to serve at / [default: ui/dist next to the working directory or the binary]
    #[arg(long, env = "SEARCH_STUDIO_UI_DIR", value_name = "DIR")]
    pub ui_dir: Option<PathBuf>,
    /// Longest wait for a request's headers, in seconds; a slower client's connection is closed
    #[arg(long, env = "STUDIO_HEADER_TIMEOUT", value_name = "SECONDS",
          default_value_t = studio_server::listen::HEADER_TIMEOUT.as_secs_f64())]
    pub header_timeout: f64,
    /// Longest time one request may take, reading its body included, in seconds; it is then answered 408
    #[arg(long, env = "STUDIO_REQUEST_TIMEOUT", value_name = "SECONDS",
          default_value_t = studio_server::listen::REQUEST_TIMEOUT.as_secs_f64())]
    pub request_timeout: f64,
    /// How log lines are written to stderr (read again at SIGHUP)
    #[arg(long, env = "STUDIO_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Which log lines are written: a level (error, warn, info, debug, trace) or RUST_LOG's directives, e.g.
    /// `info,studio_server=debug` (read again at SIGHUP) [default: RUST_LOG, else info]
    #[arg(long, env = "STUDIO_LOG_LEVEL", value_name = "LEVEL")]
    pub log_level: Option<String>,
    /// Networks (CIDR, e.g. 10.0.0.0/8) also allowed to read /metrics, besides loopback (read again at SIGHUP)
    #[arg(long, env = "STUDIO_METRICS_ALLOW", value_name = "CIDR", num_args = 1.., value_delimiter = ',')]
    pub metrics_allow: Vec<String>,
    /// Serve /metrics on this address of its own instead (answered to anyone who reaches it)
    #[arg(long, env = "STUDIO_METRICS_LISTEN", value_name = "ADDR")]
    pub metrics_listen: Option<SocketAddr>,
}

/// Whether the setting `id` was left to its default (not given as a flag nor by its variable), so that the
/// configuration file may set it.
fn unset(matches: &ArgMatches, id: &str) -> bool {
    !matches!(matches.value_source(id), Some(ValueSource::CommandLine | ValueSource::EnvVariable))
}

/// Fills in the settings `matches` left to their defaults from `file`.
macro_rules! fill_from_file {
    ($args:ident, $file:ident, $matches:ident; values: $($value:ident),*; options: $($option:ident),*) => {
        $( if let Some(v) = $file.$value.take() { if unset($matches, stringify!($value)) { $args.$value = v; } } )*
        $( if let Some(v) = $file.$option.take() { if unset($matches, stringify!($option)) { $args.$option = Some(v); } } )*
    };
}

/// What the configuration file adds that is not a flag of `studio serve`.
#[derive(Debug, Default)]
pub struct FileOnly {
    /// `data-dir`, used when neither --data-dir nor SEARCH_STUDIO_DATA_DIR is given.
    pub data_dir: Option<PathBuf>,
    /// `upstream-username`, used when STUDIO_UPSTREAM_USERNAME is not set.
    pub upstream_username: Option<String>,
}

impl ServeArgs {
    /// Reads the --config file, if any, into the settings that flags and variables left to their defaults,
    /// then checks what depends on what (as the flags alone would be).
    pub fn apply_config_file(&mut self, matches: &ArgMatches) -> Result<FileOnly, CliError> {
        let mut only = FileOnly::default();
        let timeout_given = !unset(matches, "upstream_timeout");
        if let Some(path) = self.config.clone() {
            let mut file = SettingsFile::read(&path).map_err(|e| CliError::Input(e.to_string()))?;
            let timeout_given = timeout_given || file.upstream_timeout.is_some();
            let args = self;
            fill_from_file!(args, file, matches;
                values: listen, upstream_client_id, oidc_groups_claim, upstream_timeout, header_timeout,
                        request_timeout, log_format, metrics_allow;
                options: auth, log_level, upstream, upstream_issuer, upstream_token_file, upstream_password_file,
                         upstream_client_secret_file, oidc_issuer, oidc_audience, oidc_ui_client_id, ui_dir,
                         metrics_listen);
            only = FileOnly { data_dir: file.data_dir, upstream_username: file.upstream_username };
            args.check_requirements(timeout_given)?;
            return Ok(only);
        }
        self.check_requirements(timeout_given)?;
        Ok(only)
    }

    /// The settings that only mean something beside another one (`timeout_given`: whether
    /// --upstream-timeout was given, by a flag, a variable or the file): a usage error, as clap's own.
    fn check_requirements(&self, timeout_given: bool) -> Result<(), CliError> {
        let needs = |given: bool, name: &str, needed: bool, other: &str| {
            if given && !needed {
                Err(CliError::Usage(format!("{name} needs {other}")))
            } else {
                Ok(())
            }
        };
        needs(timeout_given, "--upstream-timeout", self.upstream.is_some(), "--upstream")?;
        needs(self.upstream_issuer.is_some(), "--upstream-issuer", self.upstream.is_some(), "--upstream")?;
        needs(
            self.oidc_issuer.is_some(),
            "--oidc-issuer",
            self.auth.is_some(),
            "--auth (whose groups its tokens name)",
        )?;
        needs(self.oidc_audience.is_some(), "--oidc-audience", self.oidc_issuer.is_some(), "--oidc-issuer")?;
        needs(self.oidc_ui_client_id.is_some(), "--oidc-ui-client-id", self.oidc_issuer.is_some(), "--oidc-issuer")
    }
}

#[cfg(test)]
mod tests {
    use clap::{Args, Command};

    use super::ServeArgs;
    use crate::serve::settings::{SettingsError, SettingsFile};

    /// Every flag of `studio serve` is a key of the file, named as the flag: a key the file did not know would
    /// be refused as "no such setting" rather than as a value of the wrong kind.
    #[test]
    fn every_flag_is_a_key_of_the_file() {
        let serve = ServeArgs::augment_args(Command::new("serve"));
        let flags: Vec<&str> = serve.get_arguments().filter_map(|a| a.get_long()).filter(|&f| f != "config").collect();
        assert!(flags.contains(&"listen") && flags.contains(&"metrics-allow"), "{flags:?}");
        for flag in flags {
            match SettingsFile::parse(&format!("{flag} = {{ kind = \"table\" }}"), "t.toml") {
                Err(SettingsError::Bad { key, problem, .. }) => {
                    assert_eq!(key, flag);
                    assert!(!problem.contains("no such setting"), "--{flag} has no key in the file: {problem}");
                }
                other => panic!("--{flag} = a table was taken: {other:?}"),
            }
        }
    }
}

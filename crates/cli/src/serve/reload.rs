//! SIGHUP (the unit's `ExecReload`): the configuration file and the auth file are read again, without a
//! restart and without touching the requests in flight (they keep the rights and settings they started
//! with).
//!
//! From the configuration file, the settings that can change while the server runs are applied:
//! `log-level`, `log-format` and `metrics-allow`, in the same order of precedence as at start (a flag or
//! a variable still wins over the file). The others (the listen address, the data directory, the
//! upstream, the provider, the timeouts…) are bound at start, and take effect at the next one. From the auth
//! file, its users and groups replace the ones in force. A file that cannot be used keeps what runs and
//! says why in one log line.

use std::path::PathBuf;
use std::sync::Arc;

use clap::ArgMatches;
use studio_server::metrics::{MetricsAccess, SharedAccess};
use studio_server::Auth;

use super::args::ServeArgs;
use super::logs::Logs;
use crate::error::CliError;

/// The SIGHUPs to come, watched from now on (a SIGHUP not watched would end the process).
pub fn hangups() -> Option<tokio::signal::unix::Signal> {
    match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) {
        Ok(signal) => Some(signal),
        Err(e) => {
            tracing::warn!("cannot watch for SIGHUP, so no setting is read again without a restart: {e}");
            None
        }
    }
}

/// What SIGHUP reads again, and where it applies it.
pub struct Reloadable {
    /// The settings as flags and variables gave them, before the configuration file filled in the rest.
    pub given: ServeArgs,
    /// Which settings flags and variables gave.
    pub matches: ArgMatches,
    pub logs: Logs,
    /// Who may read `/metrics` on the server's address (none when it has an address of its own).
    pub metrics_access: Option<SharedAccess>,
    /// The networks allowed now.
    pub metrics_allow: Vec<String>,
    pub auth: Arc<Auth>,
    /// The auth file the server started with (its path is bound at start; its contents are not).
    pub auth_path: Option<PathBuf>,
}

/// Reads the configuration file and the auth file again at each SIGHUP.
pub async fn reload_on_hangup(hangups: Option<tokio::signal::unix::Signal>, mut reloadable: Reloadable) {
    let Some(mut hangups) = hangups else { return };
    while hangups.recv().await.is_some() {
        reloadable.settings();
        reloadable.auth_file();
    }
}

impl Reloadable {
    fn settings(&mut self) {
        let Some(path) = self.given.config.clone() else { return };
        match self.apply_file() {
            Ok(changed) if changed.is_empty() => tracing::info!(
                "SIGHUP: read the configuration file {} again; no setting that can change without a restart changed",
                path.display()
            ),
            Ok(changed) => tracing::info!(
                "SIGHUP: read the configuration file {} again and applied {}",
                path.display(),
                changed.join(", ")
            ),
            Err(e) => {
                tracing::error!("SIGHUP: kept the running settings, as the configuration file cannot be used: {e}")
            }
        }
    }

    /// Reads the configuration file and applies what may change; every value is checked before any is
    /// applied. Answers the names of the settings that changed.
    fn apply_file(&mut self) -> Result<Vec<&'static str>, CliError> {
        let mut fresh = self.given.clone();
        fresh.apply_config_file(&self.matches)?;
        let access = MetricsAccess::allowing(&fresh.metrics_allow).map_err(|e| CliError::Input(e.to_string()))?;
        let mut changed = self.logs.apply(fresh.log_format, fresh.log_level.as_deref())?;
        if fresh.metrics_allow != self.metrics_allow {
            if let Some(shared) = &self.metrics_access {
                shared.replace(access);
            }
            self.metrics_allow = fresh.metrics_allow;
            changed.push("metrics-allow");
        }
        Ok(changed)
    }

    fn auth_file(&self) {
        let Some(path) = &self.auth_path else {
            if self.given.config.is_none() {
                tracing::warn!("SIGHUP: there is no auth file nor configuration file to read again");
            }
            return;
        };
        match Auth::from_file(path) {
            Ok(fresh) => {
                self.auth.replace_users(fresh);
                tracing::info!(users = self.auth.user_count(), "SIGHUP: read the auth file {} again", path.display());
            }
            Err(e) => tracing::error!("SIGHUP: kept the users in force, as the auth file cannot be used: {e}"),
        }
    }
}

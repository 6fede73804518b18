//! SIGHUP (the unit's `ExecReload`): the auth file is read again and its users and groups replace the ones
//! in force, without a restart; requests in flight keep the rights they started with. A file that cannot
//! be used keeps the running users and says why in one log line. Every other setting needs a restart.

use std::path::PathBuf;
use std::sync::Arc;

use studio_server::Auth;

/// The SIGHUPs to come, watched from now on (a SIGHUP not watched would end the process).
pub fn hangups() -> Option<tokio::signal::unix::Signal> {
    match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) {
        Ok(signal) => Some(signal),
        Err(e) => {
            tracing::warn!("cannot watch for SIGHUP, so the auth file is not read again without a restart: {e}");
            None
        }
    }
}

/// Reads the auth file `path` again at each SIGHUP.
pub async fn reload_on_hangup(hangups: Option<tokio::signal::unix::Signal>, auth: Arc<Auth>, path: Option<PathBuf>) {
    let Some(mut hangups) = hangups else { return };
    while hangups.recv().await.is_some() {
        let Some(path) = &path else {
            tracing::warn!("SIGHUP: there is no auth file to read again (the server runs without --auth)");
            continue;
        };
        match Auth::from_file(path) {
            Ok(fresh) => {
                auth.replace_users(fresh);
                tracing::info!(users = auth.user_count(), "SIGHUP: read the auth file {} again", path.display());
            }
            Err(e) => tracing::error!("SIGHUP: kept the users in force, as the auth file cannot be used: {e}"),
        }
    }
}

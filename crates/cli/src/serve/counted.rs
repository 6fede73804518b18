//! What the server's metrics count as it happens, outside the server's own crate: the store's automatic
//! backups that fail and the token renewals towards an upstream's provider. Each is the lower crate's
//! narrow hook (a trait it calls back) answered by the one [`Metrics`] of this server.

use std::sync::Arc;
use std::time::Duration;

use studio_local::backup::{BackupFailures, Backups};
use studio_local::{Store, StoreError};
use studio_remote::oidc::Tokens;
use studio_remote::{RemoteError, TokenKeeper};
use studio_server::metrics::Metrics;

/// Counts the failed automatic backups.
struct CountedBackups(Arc<Metrics>);

impl BackupFailures for CountedBackups {
    fn failed(&self, _error: &StoreError) {
        self.0.backup_failed();
    }
}

/// Starts the automatic backups of `store`, one at most `interval` after a change, each failure counted.
pub fn start_backups(store: &Store, interval: Duration, metrics: Arc<Metrics>) -> Backups {
    Backups::start_watched(store, interval, Some(Arc::new(CountedBackups(metrics))))
}

/// Counts the upstream's token renewals. The server keeps no token for its next start: it signs in again
/// with the credentials it was given.
pub struct CountedRenewals(pub Arc<Metrics>);

impl TokenKeeper for CountedRenewals {
    fn keep(&self, _tokens: &Tokens) {}

    fn renewed(&self) {
        self.0.token_renewal(false);
    }

    fn renewal_failed(&self, _error: &RemoteError) {
        self.0.token_renewal(true);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    fn failures(metrics: &Metrics) -> f64 {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let text = runtime.block_on(metrics.render()).unwrap();
        let scrape = prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).unwrap();
        let sample = scrape.samples.iter().find(|s| s.metric == "studio_backup_failures_total");
        let sample = sample.unwrap_or_else(|| panic!("no studio_backup_failures_total in {text}"));
        match sample.value {
            // The parser reads a counter's `_total` sample as untyped: its TYPE line names it without `_total`.
            prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
            ref other => panic!("not a counter: {other:?}"),
        }
    }

    #[test]
    fn a_failed_automatic_backup_is_counted() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_dir(dir.path()).unwrap();
        // No backup holds the new store, so one is due; the backups' folder is a file, so each one fails.
        std::fs::write(dir.path().join(studio_local::backup::BACKUPS_DIR), b"not a folder").unwrap();
        let metrics = Arc::new(Metrics::new());
        assert_eq!(failures(&metrics), 0.0);
        let backups = start_backups(&store, Duration::from_millis(50), metrics.clone());
        let deadline = Instant::now() + Duration::from_secs(20);
        while failures(&metrics) < 1.0 {
            assert!(Instant::now() < deadline, "no failed backup counted within 20 s");
            std::thread::sleep(Duration::from_millis(20));
        }
        drop(backups);
    }
}

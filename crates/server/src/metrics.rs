//! `/metrics` in the Prometheus text format (prometheus-client): requests by operation and status, their
//! latency by operation, and, read when scraped, the documents and configurations of each search space,
//! the store's file sizes and the age of its newest backup; counted as they happen, the failed automatic
//! backups, the token renewals towards an upstream server (and their failures) and the reads of an OpenID
//! provider's signing keys (and their failures).
//!
//! One [`Metrics`] is made per server and handed to what counts (no global registry), so that two servers
//! in one process, as in tests, never share a figure.
//!
//! Answered to loopback only unless networks are allowed (`--metrics-allow`), or on an address of its own
//! (`--metrics-listen`): the figures name search spaces and sizes that are nobody else's business.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, OnceLock, PoisonError, RwLock};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use studio_model::Backend;

use crate::error::AppError;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    operation: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationLabels {
    operation: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SpaceLabels {
    search_space: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FileLabels {
    file: String,
}

type HistogramFamily = Family<OperationLabels, Histogram, fn() -> Histogram>;

fn latency_histogram() -> Histogram {
    // 1 ms to about 33 s.
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

/// What the store's files are, for their sizes and backups; read when scraped.
pub trait StoreFiles: Send + Sync {
    /// Each store file's name and size in bytes.
    fn sizes(&self) -> Vec<(String, u64)>;
    /// How long ago the newest backup was taken, if there is one.
    fn newest_backup_age(&self) -> Option<Duration>;
}

/// The server's metrics. Shared by the request observer, the provider and the scrape.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: HistogramFamily,
    documents: Family<SpaceLabels, Gauge>,
    configurations: Family<SpaceLabels, Gauge>,
    file_bytes: Family<FileLabels, Gauge>,
    backup_age: Gauge<f64, AtomicU64>,
    backup_failures: Counter,
    token_renewals: Counter,
    token_renewal_failures: Counter,
    key_reads: Counter,
    key_read_failures: Counter,
    store: OnceLock<Store>,
}

struct Store {
    backend: Arc<dyn Backend>,
    files: Option<Arc<dyn StoreFiles>>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("studio");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency: HistogramFamily = Family::new_with_constructor(latency_histogram);
        let documents = Family::<SpaceLabels, Gauge>::default();
        let configurations = Family::<SpaceLabels, Gauge>::default();
        let file_bytes = Family::<FileLabels, Gauge>::default();
        let backup_age = Gauge::<f64, AtomicU64>::default();
        registry.register("http_requests", "Requests answered, by operation and status", requests.clone());
        registry.register("http_request_duration_seconds", "Time to answer a request, by operation", latency.clone());
        registry.register("documents", "Documents of each search space", documents.clone());
        registry.register("configurations", "Configurations using each search space", configurations.clone());
        registry.register("store_file_bytes", "Size of each store file", file_bytes.clone());
        registry.register("newest_backup_age_seconds", "Age of the store's newest backup", backup_age.clone());
        let counters = [
            ("backup_failures", "Automatic backups of the store that failed"),
            (
                "upstream_token_renewals",
                "Attempts to obtain tokens from the upstream's provider (the first sign-in included), failed ones included",
            ),
            ("upstream_token_renewal_failures", "Attempts to obtain tokens from the upstream's provider that failed"),
            ("jwks_reads", "Reads of the OpenID provider's signing keys (JWKS), failed ones included"),
            ("jwks_read_failures", "Reads of the OpenID provider's signing keys (JWKS) that failed"),
        ]
        .map(|(name, help)| {
            let counter = Counter::default();
            registry.register(name, help, counter.clone());
            counter
        });
        let [backup_failures, token_renewals, token_renewal_failures, key_reads, key_read_failures] = counters;
        Metrics {
            registry,
            requests,
            latency,
            documents,
            configurations,
            file_bytes,
            backup_age,
            backup_failures,
            token_renewals,
            token_renewal_failures,
            key_reads,
            key_read_failures,
            store: OnceLock::new(),
        }
    }

    /// Names the backend (and, over the local store, its files) the scrape reads its figures from.
    pub fn watch_store(&self, backend: Arc<dyn Backend>, files: Option<Arc<dyn StoreFiles>>) {
        let _ = self.store.set(Store { backend, files });
    }

    /// Counts one answered request.
    pub fn observe(&self, operation: &str, status: u16, elapsed: Duration) {
        self.requests.get_or_create(&RequestLabels { operation: operation.to_owned(), status }).inc();
        self.latency.get_or_create(&OperationLabels { operation: operation.to_owned() }).observe(elapsed.as_secs_f64());
    }

    /// Counts one failed automatic backup.
    pub fn backup_failed(&self) {
        self.backup_failures.inc();
    }

    /// Counts one attempt to obtain tokens from the upstream's provider, and whether it failed.
    pub fn token_renewal(&self, failed: bool) {
        self.token_renewals.inc();
        if failed {
            self.token_renewal_failures.inc();
        }
    }

    /// Counts one read of the OpenID provider's signing keys, and whether it failed.
    pub fn key_read(&self, failed: bool) {
        self.key_reads.inc();
        if failed {
            self.key_read_failures.inc();
        }
    }

    /// Reads the figures of the store and writes every metric in the text format.
    pub async fn render(&self) -> Result<String, AppError> {
        if let Some(store) = self.store.get() {
            self.read_store(store).await;
        }
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .map_err(|_| AppError::new(StatusCode::INTERNAL_SERVER_ERROR, "the metrics could not be written"))?;
        Ok(text)
    }

    async fn read_store(&self, store: &Store) {
        // A figure that cannot be read now is left out rather than failing the whole scrape.
        if let Ok(spaces) = store.backend.search_spaces().await {
            self.documents.clear();
            for space in spaces {
                self.documents.get_or_create(&SpaceLabels { search_space: space.id }).set(space.documents);
            }
        }
        if let Ok(list) = store.backend.list_configurations().await {
            self.configurations.clear();
            for config in list.configurations {
                self.configurations.get_or_create(&SpaceLabels { search_space: config.config.search_space }).inc();
            }
        }
        if let Some(files) = store.files.clone() {
            let read = tokio::task::spawn_blocking(move || (files.sizes(), files.newest_backup_age())).await;
            if let Ok((sizes, age)) = read {
                self.file_bytes.clear();
                for (file, bytes) in sizes {
                    self.file_bytes.get_or_create(&FileLabels { file }).set(i64::try_from(bytes).unwrap_or(i64::MAX));
                }
                self.backup_age.set(age.map_or(f64::NAN, |age| age.as_secs_f64()));
            }
        }
    }
}

/// Who may read `/metrics`: loopback, and the networks allowed.
#[derive(Clone, Debug, Default)]
pub struct MetricsAccess {
    allowed: Vec<ipnet::IpNet>,
    /// On an address of its own: answered to whoever reaches it.
    anyone: bool,
}

/// A network of `--metrics-allow` that is not one.
#[derive(Debug, thiserror::Error)]
#[error(
    "--metrics-allow {given}: not a network; give one as an address and a prefix length, e.g. 10.0.0.0/8 or fd00::/8"
)]
pub struct BadNetwork {
    given: String,
}

impl MetricsAccess {
    /// Loopback and the networks `allowed` (CIDR; a bare address is a network of one).
    pub fn allowing(allowed: &[String]) -> Result<MetricsAccess, BadNetwork> {
        let allowed = allowed
            .iter()
            .map(|given| {
                let given = given.trim();
                given
                    .parse::<ipnet::IpNet>()
                    .or_else(|_| given.parse::<IpAddr>().map(ipnet::IpNet::from))
                    .map_err(|_| BadNetwork { given: given.to_owned() })
            })
            .collect::<Result<_, _>>()?;
        Ok(MetricsAccess { allowed, anyone: false })
    }

    /// Whoever reaches the address: for a listener of its own.
    pub fn anyone() -> MetricsAccess {
        MetricsAccess { allowed: Vec::new(), anyone: true }
    }

    fn allows(&self, peer: Option<IpAddr>) -> bool {
        if self.anyone {
            return true;
        }
        let Some(peer) = peer.map(|ip| ip.to_canonical()) else { return false };
        peer.is_loopback() || self.allowed.iter().any(|net| net.contains(&peer))
    }
}

/// Who may read `/metrics` now: replaced when the settings are read again (SIGHUP), while the server runs.
#[derive(Clone, Debug, Default)]
pub struct SharedAccess(Arc<RwLock<MetricsAccess>>);

impl SharedAccess {
    pub fn new(access: MetricsAccess) -> SharedAccess {
        SharedAccess(Arc::new(RwLock::new(access)))
    }

    /// From now on, `access` decides.
    pub fn replace(&self, access: MetricsAccess) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = access;
    }

    fn allows(&self, peer: Option<IpAddr>) -> bool {
        self.0.read().unwrap_or_else(PoisonError::into_inner).allows(peer)
    }
}

/// What `/metrics` needs.
#[derive(Clone)]
pub struct MetricsRoute {
    pub metrics: Arc<Metrics>,
    pub access: SharedAccess,
}

/// `GET /metrics`.
pub async fn metrics(State(route): State<MetricsRoute>, request: Request) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
    if !route.access.allows(peer) {
        let message =
            "/metrics is answered to loopback only; allow other networks with --metrics-allow CIDR, or serve \
                       it on an address of its own with --metrics-listen";
        return AppError::forbidden(message).into_response();
    }
    match route.metrics.render().await {
        Ok(text) => ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response(),
        Err(e) => e.into_response(),
    }
}

//! `studio serve`: the API over the local store (or, with `--upstream`, over another server), run as a
//! service: its settings from flags, environment and a configuration file ([`args`]), the service
//! manager's readiness protocol ([`notify`]), probes and metrics from the first moment, the API once the
//! store is open, the configuration and auth files read again at SIGHUP ([`reload`]).

pub mod args;
mod counted;
mod logs;
mod notify;
mod reload;
mod settings;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use studio_local::backup::Backups;
use studio_local::{os_caller, LocalBackend, Store};
use studio_model::Backend;
use studio_remote::{RemoteBackend, RemoteOptions, SignIn, TokenKeeper};
use studio_server::auth::{ProviderSettings, ProviderTokens};
use studio_server::metrics::{Metrics, MetricsAccess, SharedAccess, StoreFiles};
use studio_server::probes::Readiness;
use studio_server::service::ApiSlot;
use studio_server::{listen, Auth};
use tokio::sync::watch;

pub use args::ServeArgs;
use logs::Logs;
use notify::Notifier;

use crate::error::CliError;
use crate::global_args::GlobalArgs;
use crate::runtime::runtime;
use crate::signin::{self, CredentialFiles, CredentialVars};

/// A positive number of seconds given for `flag`.
fn seconds(flag: &str, value: f64) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| CliError::Input(format!("{flag} {value}: give a positive number of seconds")))
}

/// Where the built web UI is, when `--ui-dir` does not say.
fn find_ui_dir() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("ui/dist")];
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).take(4).map(|dir| dir.join("ui/dist")));
    }
    candidates.into_iter().find(|dir| dir.join("index.html").is_file())
}

/// The web UI's client id, when one is given; a blank one is refused.
fn ui_client_id(args: &ServeArgs) -> Result<Option<String>, CliError> {
    match args.oidc_ui_client_id.as_deref().map(str::trim) {
        Some("") => Err(CliError::Input(
            "--oidc-ui-client-id: give the id of the provider's public client for the web UI".into(),
        )),
        id => Ok(id.map(str::to_owned)),
    }
}

/// Where the upstream's credentials come from.
const UPSTREAM_VARS: CredentialVars = CredentialVars { prefix: "STUDIO_UPSTREAM", issuer_flag: "--upstream-issuer" };

/// A backend over the upstream server. A missing token is allowed (the upstream may not need one) but
/// warned about, since a server of the API answers 401 without one.
fn upstream_backend(
    url: &str,
    args: &ServeArgs,
    username: Option<String>,
    metrics: Arc<Metrics>,
) -> Result<RemoteBackend, CliError> {
    let timeout = seconds("--upstream-timeout", args.upstream_timeout)?;
    let files = CredentialFiles {
        username,
        token: args.upstream_token_file.clone(),
        password: args.upstream_password_file.clone(),
        client_secret: args.upstream_client_secret_file.clone(),
    };
    let sign_in = UPSTREAM_VARS.sign_in_with(args.upstream_issuer.as_deref(), &args.upstream_client_id, &files)?;
    if matches!(sign_in, SignIn::Anonymous) {
        tracing::warn!(
            "neither STUDIO_UPSTREAM_TOKEN nor --upstream-token-file is set: requests to the upstream {url} carry no \
             access token"
        );
    }
    let options = RemoteOptions::default().request_timeout(timeout);
    let renewals: Arc<dyn TokenKeeper> = Arc::new(counted::CountedRenewals(metrics));
    let backend = RemoteBackend::signed_in(url, sign_in, options, Some(renewals))
        .map_err(|e| CliError::Input(format!("--upstream: {e}")))?;
    tracing::info!(upstream = backend.base_url(), "serving in front of an upstream server");
    Ok(backend)
}

/// The auth file's callers, or one random user whose token is returned to print.
fn read_auth(args: &ServeArgs) -> Result<(Auth, Option<String>), CliError> {
    match &args.auth {
        Some(path) => Ok((Auth::from_file(path)?, None)),
        None => {
            let (auth, token) = Auth::single_random_user(&os_caller().user);
            Ok((auth, Some(token)))
        }
    }
}

/// Adds the provider's tokens to `auth` when `--oidc-issuer` is given.
async fn with_provider(mut auth: Auth, args: &ServeArgs, metrics: Arc<Metrics>) -> Result<Auth, CliError> {
    let Some(issuer) = &args.oidc_issuer else { return Ok(auth) };
    let settings = ProviderSettings {
        audience: args.oidc_audience.clone(),
        groups_claim: args.oidc_groups_claim.clone(),
        ui_client_id: ui_client_id(args)?,
        ..ProviderSettings::new(issuer)
    };
    let provider =
        ProviderTokens::start_counted(settings, Some(metrics)).await.map_err(|e| CliError::Server(e.to_string()))?;
    tracing::info!(issuer = provider.issuer(), "also accepting the access tokens of an OpenID Connect provider");
    if args.oidc_audience.is_none() {
        tracing::warn!("no --oidc-audience: tokens the provider issued for any of its clients are accepted");
    }
    auth = auth.with_provider_tokens(provider);
    if let Some(web) = auth.web_sign_in() {
        tracing::info!(client_id = %web.client_id, "the web UI signs in through the provider");
    }
    Ok(auth)
}

async fn bind(addr: SocketAddr, what: &str) -> Result<tokio::net::TcpListener, CliError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| CliError::Server(format!("cannot listen {what}on {addr}: {e}")))
}

/// The store's files and backups, for the metrics.
struct DataDirFiles(PathBuf);

impl StoreFiles for DataDirFiles {
    fn sizes(&self) -> Vec<(String, u64)> {
        let Ok(entries) = std::fs::read_dir(&self.0) else { return Vec::new() };
        entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                // The store's files and their logs; not the shared-memory indexes, nor backups.
                let is_store = name.starts_with("studio") && (name.ends_with(".db") || name.ends_with(".db-wal"));
                let meta = entry.metadata().ok().filter(|m| m.is_file())?;
                is_store.then_some((name, meta.len()))
            })
            .collect()
    }

    fn newest_backup_age(&self) -> Option<Duration> {
        let newest = studio_local::backup::newest(&self.0)?;
        (chrono::Utc::now() - newest.taken).to_std().ok()
    }
}

/// The local store, opened while the probes already answer, and its automatic backups.
async fn open_store(
    data_dir: PathBuf,
    notifier: &Notifier,
    readiness: &Readiness,
    metrics: Arc<Metrics>,
) -> Result<(LocalBackend, Store, Backups), CliError> {
    let what = "opening the store: checking its files and bringing its schema up to date";
    readiness.set_starting(what);
    notifier.status(what);
    let opened = tokio::task::spawn_blocking(move || {
        let store = Store::open_dir(&data_dir)?;
        warn_of_lost_writes(&data_dir);
        let backups = counted::start_backups(&store, studio_local::backup::INTERVAL, metrics);
        Ok::<_, CliError>((store, backups))
    })
    .await
    .map_err(|e| CliError::Server(format!("opening the store stopped: {e}")))?;
    let (store, backups) = opened?;
    Ok((LocalBackend::new(store.clone()), store, backups))
}

pub fn run(global: &GlobalArgs, args: &ServeArgs, matches: &clap::ArgMatches) -> Result<(), CliError> {
    let given = args.clone();
    let mut args = args.clone();
    let file_only = args.apply_config_file(matches)?;
    let logs = Logs::init(args.log_format, args.log_level.as_deref())?;
    let access = match args.metrics_listen {
        Some(_) => None,
        None => Some(SharedAccess::new(
            MetricsAccess::allowing(&args.metrics_allow).map_err(|e| CliError::Input(e.to_string()))?,
        )),
    };
    let limits = listen::Limits {
        header_timeout: seconds("--header-timeout", args.header_timeout)?,
        request_timeout: seconds("--request-timeout", args.request_timeout)?,
        ..listen::Limits::default()
    };
    // Checked before the address is bound, so that a wrong value is told as such, never hidden behind
    // an address in use.
    if args.upstream.is_some() {
        seconds("--upstream-timeout", args.upstream_timeout)?;
    }
    let data_dir = match (&args.upstream, global.data_dir.clone().or(file_only.data_dir)) {
        (Some(_), _) => None,
        (None, Some(dir)) => Some(dir),
        (None, None) => Some(studio_local::default_data_dir().ok_or(CliError::NoDataDir)?),
    };
    let (auth, token) = read_auth(&args)?;
    let rt = runtime()?;
    let notifier = Arc::new(Notifier::from_env());
    let readiness = Readiness::starting("starting", data_dir.clone());
    let metrics = Arc::new(Metrics::new());
    let api = ApiSlot::default();
    let (stop, stopped) = watch::channel(false);
    let store = rt.block_on(async {
        // Watched before anything else, so that a SIGHUP during the start does not end the process.
        let hangups = reload::hangups();
        let listener = bind(args.listen, "").await?;
        let metrics_listener = match args.metrics_listen {
            Some(addr) => Some(bind(addr, "for /metrics ").await?),
            None => None,
        };
        let addr = listener.local_addr().map_err(|e| CliError::Server(e.to_string()))?;
        tokio::spawn(stop_on_signal(stop.clone(), notifier.clone()));
        if let Some(interval) = Notifier::watchdog_interval() {
            tokio::spawn(watchdog(notifier.clone(), interval));
        }
        let service = studio_server::service::service(readiness.clone(), metrics.clone(), access.clone(), api.clone());
        let server = tokio::spawn(listen::serve(listener, service, limits, stopped_future(stopped.clone())));
        let metrics_server = metrics_listener.map(|listener| {
            let app = studio_server::service::metrics_service(metrics.clone());
            tokio::spawn(listen::serve(listener, app, limits, stopped_future(stopped.clone())))
        });
        let started = start(&args, data_dir, file_only.upstream_username, &notifier, &readiness, auth, &metrics).await;
        let (backend, store, auth) = match started {
            Ok(started) => started,
            Err(e) => {
                let _ = stop.send(true);
                let _ = server.await;
                return Err(e);
            }
        };
        metrics.watch_store(
            backend.clone(),
            store.as_ref().map(|(s, _)| {
                Arc::new(DataDirFiles(s.path().parent().map(Path::to_owned).unwrap_or_default())) as Arc<dyn StoreFiles>
            }),
        );
        let ui_dir = args.ui_dir.clone().or_else(find_ui_dir);
        api.open(studio_server::router(backend, auth.clone(), ui_dir));
        readiness.set_open();
        let reloadable = reload::Reloadable {
            given,
            matches: matches.clone(),
            logs,
            metrics_access: access,
            metrics_allow: args.metrics_allow.clone(),
            auth,
            auth_path: args.auth.clone(),
        };
        tokio::spawn(reload::reload_on_hangup(hangups, reloadable));
        if let Some(token) = token {
            println!("token: {token}");
        }
        println!("listening on http://{addr}");
        tracing::info!(%addr, "serving the Search Studio API");
        notifier.status(&format!("serving on {addr}"));
        notifier.send("READY=1");
        let _ = server.await;
        if let Some(metrics_server) = metrics_server {
            let _ = metrics_server.await;
        }
        Ok::<_, CliError>(store)
    })?;
    // Every request has been answered and the router is gone: close the store, so that nothing but its
    // files remains.
    drop(rt);
    if let Some((store, backups)) = store {
        notifier.status("taking the exit backup and closing the store");
        match backups.finish() {
            Ok(Some(path)) => tracing::info!(backup = %path.display(), "took the exit backup"),
            Ok(None) => {}
            Err(e) => tracing::error!("could not take the exit backup: {e}"),
        }
        store.close()?;
        tracing::info!("the store is closed");
    }
    Ok(())
}

/// What serves the API once the start is done: the backend, the local store (none in front of an upstream)
/// and the callers.
type Started = (Arc<dyn Backend>, Option<(Store, Backups)>, Arc<Auth>);

/// Opens the store (or signs in to the upstream) and the provider, while the probes answer.
async fn start(
    args: &ServeArgs,
    data_dir: Option<PathBuf>,
    upstream_username: Option<String>,
    notifier: &Notifier,
    readiness: &Readiness,
    auth: Auth,
    metrics: &Arc<Metrics>,
) -> Result<Started, CliError> {
    let (backend, store): (Arc<dyn Backend>, _) = match (&args.upstream, data_dir) {
        (Some(url), _) => {
            let what = "signing in to the upstream server";
            readiness.set_starting(what);
            notifier.status(what);
            let upstream = upstream_backend(url, args, upstream_username, metrics.clone())?;
            signin::sign_in_now(&upstream).await?;
            (Arc::new(upstream), None)
        }
        (None, Some(dir)) => {
            let (local, store, backups) = open_store(dir, notifier, readiness, metrics.clone()).await?;
            (Arc::new(local), Some((store, backups)))
        }
        (None, None) => return Err(CliError::NoDataDir),
    };
    let auth = with_provider(auth, args, metrics.clone()).await?;
    Ok((backend, store, Arc::new(auth)))
}

/// Says at start when the newest backup holds newer versions of configurations than the store: the store
/// lost its last writes (a damaged log, a copy put back), and `studio recover` brings them back.
fn warn_of_lost_writes(data_dir: &Path) {
    match studio_local::check::compare_with_backup(data_dir) {
        Ok(newer) if !newer.is_empty() => {
            let named: Vec<String> = newer.iter().map(|n| format!("{} \"{}\"", n.id, n.title)).collect();
            tracing::warn!(
                "the newest backup holds newer versions of configurations {} than the store: it lost its last \
                 writes; stop the server and run `studio recover` to bring them back",
                named.join(", ")
            );
        }
        Ok(_) => {}
        Err(e) => tracing::warn!("could not compare the store with its newest backup: {e}"),
    }
}

/// Resolves once a stop was asked for.
async fn stopped_future(mut stopped: watch::Receiver<bool>) {
    let _ = stopped.wait_for(|stop| *stop).await;
}

/// Tells the service manager the server is alive, every `interval`, from the server's own runtime: a server
/// whose runtime hangs stops telling it, and is restarted.
async fn watchdog(notifier: Arc<Notifier>, interval: Duration) {
    let mut ticks = tokio::time::interval(interval);
    loop {
        ticks.tick().await;
        notifier.send("WATCHDOG=1");
    }
}

/// At SIGINT (Ctrl-C) or SIGTERM (what a service manager or `kill` sends) tells the service manager the
/// server is stopping and asks the server to stop: the requests in flight are answered first.
async fn stop_on_signal(stop: watch::Sender<bool>, notifier: Arc<Notifier>) {
    stop_signal().await;
    notifier.send("STOPPING=1");
    notifier.status("stopping: finishing the requests in flight");
    let _ = stop.send(true);
}

/// Resolves at SIGINT or SIGTERM. Where a signal cannot be watched, only the other one ends the server.
async fn stop_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("interrupted: finishing the requests in flight"),
        () = terminate => tracing::info!("asked to stop: finishing the requests in flight"),
    }
}

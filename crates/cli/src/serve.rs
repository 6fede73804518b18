//! `studio serve`: the API over the local store (or, with `--upstream`, over another server).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use studio_local::backup::Backups;
use studio_local::os_caller;
use studio_model::Backend;
use studio_remote::{RemoteBackend, RemoteOptions, SignIn};
use studio_server::auth::{ProviderSettings, ProviderTokens};
use studio_server::{listen, Auth};

use super::signin::{self, CredentialVars};
use super::{runtime, Cli, CliError};

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    listen: SocketAddr,
    /// Auth file with users, token digests and groups [default: one random token, printed once]
    #[arg(long, value_name = "FILE")]
    auth: Option<PathBuf>,
    /// Serve in front of another server of the API instead of the local store (token in STUDIO_UPSTREAM_TOKEN,
    /// or signed in through --upstream-issuer)
    #[arg(long, value_name = "URL")]
    upstream: Option<String>,
    /// Issuer URL of the OpenID Connect provider the upstream server takes tokens from; signs in with the
    /// password grant as STUDIO_UPSTREAM_USERNAME / STUDIO_UPSTREAM_PASSWORD (and the client secret in
    /// STUDIO_UPSTREAM_CLIENT_SECRET), renewing tokens as they expire
    #[arg(long, value_name = "ISSUER", requires = "upstream")]
    upstream_issuer: Option<String>,
    /// Client id at the upstream's provider
    #[arg(long, value_name = "ID", default_value = signin::DEFAULT_CLIENT_ID, requires = "upstream_issuer")]
    upstream_client_id: String,
    /// Also accept JWT access tokens of this OpenID Connect provider (signed with a key of its JWKS); their
    /// groups claim names groups of the --auth file
    #[arg(long, value_name = "ISSUER", requires = "auth")]
    oidc_issuer: Option<String>,
    /// The audience the provider's tokens must name in `aud` [default: any]
    #[arg(long, value_name = "AUD", requires = "oidc_issuer")]
    oidc_audience: Option<String>,
    /// The claim of the provider's tokens that lists the user's groups (a leading / is ignored)
    #[arg(long, value_name = "NAME", default_value = "groups", requires = "oidc_issuer")]
    oidc_groups_claim: String,
    /// The provider's public client the web UI signs in with (authorization code with PKCE, redirect URI
    /// ORIGIN/signed-in); /api-docs names it and the page may then send requests to the issuer
    #[arg(long, value_name = "ID", requires = "oidc_issuer")]
    oidc_ui_client_id: Option<String>,
    /// Longest wait for one answer of the upstream server, in seconds; slower answers become 504
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, requires = "upstream")]
    upstream_timeout: f64,
    /// The built web UI to serve at / [default: ui/dist next to the working directory or the binary]
    #[arg(long, env = "SEARCH_STUDIO_UI_DIR", value_name = "DIR")]
    ui_dir: Option<PathBuf>,
    /// Longest wait for a request's headers, in seconds; a slower client's connection is closed
    #[arg(long, value_name = "SECONDS", default_value_t = listen::HEADER_TIMEOUT.as_secs_f64())]
    header_timeout: f64,
    /// Longest time one request may take, reading its body included, in seconds; it is then answered 408
    #[arg(long, value_name = "SECONDS", default_value_t = listen::REQUEST_TIMEOUT.as_secs_f64())]
    request_timeout: f64,
}

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
fn upstream_backend(url: &str, args: &ServeArgs) -> Result<RemoteBackend, CliError> {
    let timeout = seconds("--upstream-timeout", args.upstream_timeout)?;
    let sign_in = UPSTREAM_VARS.sign_in(args.upstream_issuer.as_deref(), &args.upstream_client_id)?;
    if matches!(sign_in, SignIn::Anonymous) {
        tracing::warn!("STUDIO_UPSTREAM_TOKEN is not set: requests to the upstream {url} carry no access token");
    }
    let options = RemoteOptions::default().request_timeout(timeout);
    let backend = RemoteBackend::signed_in(url, sign_in, options, None)
        .map_err(|e| CliError::Input(format!("--upstream: {e}")))?;
    tracing::info!(upstream = backend.client().base_url(), "serving in front of an upstream server");
    Ok(backend)
}

pub fn run(cli: &Cli, args: &ServeArgs) -> Result<(), CliError> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let rt = runtime()?;
    // The local store and its automatic backups, ended at the end (None in front of an upstream server).
    let mut store = None;
    let backend: Arc<dyn Backend> = match &args.upstream {
        Some(url) => {
            let upstream = upstream_backend(url, args)?;
            rt.block_on(signin::sign_in_now(&upstream))?;
            Arc::new(upstream)
        }
        None => {
            let local = cli.local_backend()?;
            warn_of_lost_writes(&cli.data_dir()?);
            store = Some((local.store().clone(), Backups::start(local.store())));
            Arc::new(local)
        }
    };
    let mut auth = match &args.auth {
        Some(path) => Auth::from_file(path)?,
        None => {
            let (auth, token) = Auth::single_random_user(&os_caller().user);
            println!("token: {token}");
            auth
        }
    };
    if let Some(issuer) = &args.oidc_issuer {
        let settings = ProviderSettings {
            audience: args.oidc_audience.clone(),
            groups_claim: args.oidc_groups_claim.clone(),
            ui_client_id: ui_client_id(args)?,
            ..ProviderSettings::new(issuer)
        };
        let provider = rt.block_on(ProviderTokens::start(settings)).map_err(|e| CliError::Server(e.to_string()))?;
        tracing::info!(issuer = provider.issuer(), "also accepting the access tokens of an OpenID Connect provider");
        if args.oidc_audience.is_none() {
            tracing::warn!("no --oidc-audience: tokens the provider issued for any of its clients are accepted");
        }
        auth = auth.with_provider_tokens(provider);
        if let Some(web) = auth.web_sign_in() {
            tracing::info!(client_id = %web.client_id, "the web UI signs in through the provider");
        }
    }
    let limits = listen::Limits {
        header_timeout: seconds("--header-timeout", args.header_timeout)?,
        request_timeout: seconds("--request-timeout", args.request_timeout)?,
        ..listen::Limits::default()
    };
    let ui_dir = args.ui_dir.clone().or_else(find_ui_dir);
    let app = studio_server::router(backend, Arc::new(auth), ui_dir);
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|e| CliError::Server(format!("cannot listen on {}: {e}", args.listen)))?;
        let addr = listener.local_addr().map_err(|e| CliError::Server(e.to_string()))?;
        println!("listening on http://{addr}");
        tracing::info!(%addr, "serving the Search Studio API");
        listen::serve(listener, app, limits, stop_signal()).await;
        Ok::<(), CliError>(())
    })?;
    // Every request has been answered and the router is gone: close the store, so that nothing but its
    // files remains.
    drop(rt);
    if let Some((store, backups)) = store {
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

/// Says at start when the newest backup holds newer versions of configurations than the store: the store
/// lost its last writes (a damaged log, a copy put back), and `studio recover` brings them back.
fn warn_of_lost_writes(data_dir: &std::path::Path) {
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

/// Resolves at SIGINT (Ctrl-C) or SIGTERM (what a service manager or `kill` sends): both end the server
/// cleanly. Where a signal cannot be watched, only the other one ends it.
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

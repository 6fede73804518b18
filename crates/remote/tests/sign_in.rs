//! Signing in through a real OpenID Connect provider (the Keycloak-shaped test provider on loopback, with
//! access tokens of two seconds) and keeping the session alive: tokens renewed before they expire, a
//! refused token renewed once and the request sent again, the password grant repeated when the provider's
//! session ends, and "sign in again" when there is no password to repeat it with. A pipeline's sign-in as a
//! client is sign_in_client.rs's.
//!
//! The server here accepts a bearer token only while its `exp` has not passed and its issuer is the
//! provider, as a server of the API that checks the provider's tokens would.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use serde_json::{json, Value};
use studio_model::{Backend, BackendError, Caller};
use studio_remote::oidc::browser::BrowserSignIn;
use studio_remote::oidc::{ClientCredentials, Provider, Tokens};
use studio_remote::{Grant, PasswordCredentials, ProviderSignIn, RemoteBackend, RemoteOptions, SignIn, TokenKeeper};
use studio_testkit::http::{json as reply_json, response, FakeServer, Seen};
use studio_testkit::{browser_sign_in, OidcProvider, ProviderOptions};

pub(crate) const ACCESS_TTL: Duration = Duration::from_secs(2);

pub(crate) fn provider() -> OidcProvider {
    OidcProvider::start(ProviderOptions {
        access_ttl: ACCESS_TTL,
        refresh_ttl: Duration::from_secs(120),
        audience: None,
    })
    .expect("the test provider starts (npm ci --prefix crates/testkit/servers)")
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap()
}

/// The claims of a JWT, unverified.
pub(crate) fn claims(token: &str) -> Option<Value> {
    let payload = token.split('.').nth(1)?;
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).ok()?).ok()
}

/// What the server saw: every bearer token, and how many requests it refused.
#[derive(Default)]
pub(crate) struct Seen401 {
    pub(crate) tokens: Vec<String>,
    pub(crate) refused: usize,
}

/// A server of the API that answers only requests whose token is unexpired and from `issuer`; the first
/// `refuse_first` requests are refused whatever they carry (a token revoked on the server's side).
pub(crate) async fn checking_server(issuer: String, refuse_first: usize) -> (FakeServer, Arc<Mutex<Seen401>>) {
    let log = Arc::new(Mutex::new(Seen401::default()));
    let seen_log = log.clone();
    let server = FakeServer::start(move |n, seen: &Seen| {
        let token = seen.header("authorization").and_then(|h| h.strip_prefix("Bearer ").map(str::to_owned)).unwrap_or_default();
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64();
        let valid = claims(&token).is_some_and(|c| c["iss"] == issuer.as_str() && c["exp"].as_f64().is_some_and(|exp| exp > now));
        let mut log = seen_log.lock().unwrap();
        log.tokens.push(token);
        if !valid || n < refuse_first {
            log.refused += 1;
            return reply_json(401, json!({"status": 401, "error": "Unauthorized", "message": "the token is not valid"}));
        }
        let body = if seen.line.starts_with("POST /api/configurations ") {
            json!({"message": "created", "config": {"id": 7, "user": "ana", "created": null, "config": {"title": "t", "searchSpace": "s"}}, "errors": []})
        } else {
            json!({"configurations": [], "activeId": null, "message": "ok"})
        };
        response(200, "application/json", &body.to_string(), &[])
    })
    .await;
    (server, log)
}

fn password_sign_in(issuer: &str, password: &str) -> SignIn {
    SignIn::Provider(ProviderSignIn {
        issuer: issuer.to_owned(),
        client: ClientCredentials::new("ppt", Some("ppt-secret")),
        grant: Some(Grant::Password(PasswordCredentials { username: "ana".into(), password: password.into() })),
        tokens: None,
    })
}

/// A backend over `base` signed in as ana with the password grant at `issuer`.
fn ana_backend(base: &str, issuer: &str) -> RemoteBackend {
    RemoteBackend::signed_in(base, password_sign_in(issuer, "ana-password"), RemoteOptions::default(), None).unwrap()
}

#[test]
fn a_session_of_several_token_lifetimes_never_fails_and_renews_before_expiry() {
    let provider = provider();
    runtime().block_on(async {
        let (server, log) = checking_server(provider.issuer().to_owned(), 0).await;
        let backend = ana_backend(&server.base, provider.issuer());
        let until = std::time::Instant::now() + ACCESS_TTL * 4;
        let mut calls = 0;
        while std::time::Instant::now() < until {
            backend.list_configurations().await.expect("every request of the session succeeds");
            calls += 1;
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        let log = log.lock().unwrap();
        let distinct: std::collections::HashSet<&String> = log.tokens.iter().collect();
        assert!(
            distinct.len() >= 4,
            "tokens were renewed as they expired: {} distinct in {calls} calls",
            distinct.len()
        );
        assert_eq!(log.refused, 0, "renewed before expiry, so the server never had to refuse one");
    });
}

#[test]
fn a_refused_token_is_renewed_once_and_the_request_sent_again_even_a_create() {
    let provider = provider();
    runtime().block_on(async {
        let (server, log) = checking_server(provider.issuer().to_owned(), 1).await;
        let backend = ana_backend(&server.base, provider.issuer());
        let created = backend
            .create_configuration(&Caller { user: "ana".into() }, json!({"config": {"title": "t", "searchSpace": "s"}}))
            .await
            .unwrap();
        assert_eq!(created.config.id, Some(7));
        let log = log.lock().unwrap();
        assert_eq!((log.tokens.len(), log.refused), (2, 1), "sent once more after the 401");
        assert_ne!(log.tokens[0], log.tokens[1], "with a renewed token");
    });
}

#[test]
fn when_the_providers_session_ends_the_password_signs_in_again_unnoticed() {
    let provider = provider();
    let rt = runtime();
    let (server, log) = rt.block_on(checking_server(provider.issuer().to_owned(), 0));
    let backend = ana_backend(&server.base, provider.issuer());
    rt.block_on(backend.list_configurations()).unwrap();
    provider.revoke_sessions();
    std::thread::sleep(ACCESS_TTL);
    rt.block_on(backend.list_configurations()).expect("signed in again with the password");
    assert_eq!(log.lock().unwrap().refused, 0);
}

#[test]
fn a_wrong_password_is_refused_with_the_providers_reason() {
    let provider = provider();
    runtime().block_on(async {
        let (server, log) = checking_server(provider.issuer().to_owned(), 0).await;
        let backend = RemoteBackend::signed_in(
            &server.base,
            password_sign_in(provider.issuer(), "wrong"),
            RemoteOptions::default(),
            None,
        )
        .unwrap();
        let err = backend.list_configurations().await.unwrap_err();
        assert!(matches!(err, BackendError::SignInNeeded(_)), "{err:?}");
        assert!(err.to_string().contains("refused the password of ana (Invalid user credentials"), "{err}");
        assert!(log.lock().unwrap().tokens.is_empty(), "nothing was sent to the server without a token");
    });
}

#[test]
fn a_wrong_issuer_says_what_to_fix() {
    runtime().block_on(async {
        let server = FakeServer::start(|_, _| response(404, "text/html", "<html>no</html>", &[])).await;
        let err = Provider::discover(&format!("{}/realms/nowhere", server.base)).await.unwrap_err();
        assert!(err.to_string().contains("check the issuer URL"), "{err}");
        let err = Provider::discover("sso.example.org/realms/x").await.unwrap_err();
        assert!(err.to_string().contains("is not an issuer URL"), "{err}");
    });
}

/// Keeps every set of tokens the session is given, and counts the ends of its sign-in.
#[derive(Default)]
struct Kept(Mutex<Vec<Tokens>>, std::sync::atomic::AtomicUsize);

impl TokenKeeper for Kept {
    fn keep(&self, tokens: &Tokens) {
        self.0.lock().unwrap().push(tokens.clone());
    }

    fn ended(&self) {
        self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Signs in through the browser stand-in: authorization code with PKCE and a loopback redirect.
fn browser_tokens(rt: &tokio::runtime::Runtime, issuer: &str) -> Tokens {
    rt.block_on(async {
        let provider = Provider::discover(issuer).await.unwrap();
        let sign_in = BrowserSignIn::start(provider, ClientCredentials::new("studio-desktop", None)).await.unwrap();
        assert!(sign_in.redirect_uri().starts_with("http://127.0.0.1:"));
        let url = sign_in.authorize_url().to_owned();
        assert!(url.contains("code_challenge_method=S256"), "{url}");
        // A request to the loopback listener that does not carry this sign-in's state cannot end it: it is
        // answered while the sign-in goes on waiting for the browser.
        let forged = tokio::spawn(reqwest::get(format!("{}?error=access_denied", sign_in.redirect_uri())));
        let browser = tokio::task::spawn_blocking(move || browser_sign_in(&url, "ana", "ana-password"));
        let tokens = sign_in.finish(Duration::from_secs(30)).await.expect("the code is exchanged for tokens");
        browser.await.unwrap().expect("the browser stand-in reached the redirect");
        assert_eq!(forged.await.unwrap().unwrap().status().as_u16(), 404);
        tokens
    })
}

#[test]
fn without_a_password_an_ended_session_asks_to_sign_in_again_and_new_tokens_resume_it() {
    let provider = provider();
    let rt = runtime();
    let tokens = browser_tokens(&rt, provider.issuer());
    assert!(tokens.refresh_token.is_some());
    let (server, _log) = rt.block_on(checking_server(provider.issuer().to_owned(), 0));
    let kept = Arc::new(Kept::default());
    let sign_in = SignIn::Provider(ProviderSignIn {
        issuer: provider.issuer().to_owned(),
        client: ClientCredentials::new("studio-desktop", None),
        grant: None,
        tokens: Some(tokens),
    });
    let backend =
        RemoteBackend::signed_in(&server.base, sign_in, RemoteOptions::default(), Some(kept.clone())).unwrap();
    rt.block_on(backend.list_configurations()).unwrap();
    std::thread::sleep(ACCESS_TTL);
    rt.block_on(backend.list_configurations()).expect("refreshed with the browser sign-in's refresh token");
    assert!(!kept.0.lock().unwrap().is_empty(), "the refreshed tokens were handed to the keeper");

    provider.revoke_sessions();
    std::thread::sleep(ACCESS_TTL);
    let err = rt.block_on(backend.list_configurations()).unwrap_err();
    assert!(matches!(err, BackendError::SignInNeeded(_)), "{err:?}");
    assert!(err.to_string().starts_with(&format!("sign in to {} again", server.base)), "{err}");

    let fresh = browser_tokens(&rt, provider.issuer());
    rt.block_on(backend.session().unwrap().sign_in_with_tokens(fresh));
    rt.block_on(backend.list_configurations()).expect("the session goes on with the new sign-in");
}

#[test]
fn a_kept_refresh_token_alone_resumes_a_session() {
    let provider = provider();
    let rt = runtime();
    let tokens = browser_tokens(&rt, provider.issuer());
    let (server, log) = rt.block_on(checking_server(provider.issuer().to_owned(), 0));
    let kept = Tokens::from_refresh_token(tokens.refresh_token.clone().unwrap(), tokens.refresh_expires_at);
    let sign_in = SignIn::Provider(ProviderSignIn {
        issuer: provider.issuer().to_owned(),
        client: ClientCredentials::new("studio-desktop", None),
        grant: None,
        tokens: Some(kept),
    });
    let backend = RemoteBackend::signed_in(&server.base, sign_in, RemoteOptions::default(), None).unwrap();
    rt.block_on(backend.list_configurations())
        .expect("the refresh token gave a new access token before the first request");
    assert_eq!(log.lock().unwrap().refused, 0);
}

/// The renewal rule, pinned by the case file the web UI's tests read too.
#[test]
fn tokens_are_renewed_as_the_shared_cases_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/cases/token-renewal.json");
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let now = SystemTime::now();
    let at = |ms: i64| {
        if ms >= 0 {
            now + Duration::from_millis(ms as u64)
        } else {
            now - Duration::from_millis(ms.unsigned_abs())
        }
    };
    for case in cases["cases"].as_array().unwrap() {
        let tokens = Tokens {
            access_token: if case["missing"] == true { String::new() } else { "token".into() },
            expires_at: case["left"].as_i64().map(at),
            lifetime: case["lifetime"].as_u64().map(Duration::from_millis),
            refresh_token: None,
            refresh_expires_at: None,
        };
        assert_eq!(tokens.needs_renewal(now), case["renew"].as_bool().unwrap(), "case: {}", case["name"]);
    }
}

#[test]
fn requests_that_find_the_token_expired_share_one_renewal() {
    let provider = provider();
    let rt = runtime();
    let (server, log) = rt.block_on(checking_server(provider.issuer().to_owned(), 0));
    let backend = ana_backend(&server.base, provider.issuer());
    rt.block_on(backend.list_configurations()).unwrap();
    std::thread::sleep(ACCESS_TTL);
    rt.block_on(async {
        let calls: Vec<_> = (0..10)
            .map(|_| {
                let backend = backend.clone();
                tokio::spawn(async move { backend.list_configurations().await })
            })
            .collect();
        for call in calls {
            call.await.unwrap().expect("every concurrent request succeeds");
        }
    });
    let log = log.lock().unwrap();
    let distinct: std::collections::HashSet<&String> = log.tokens.iter().collect();
    assert_eq!(log.tokens.len(), 11);
    assert_eq!(distinct.len(), 2, "the ten requests waited for one renewal and carried its token");
}

#[test]
fn a_password_the_provider_refuses_is_forgotten_not_tried_on_every_request() {
    let provider = provider();
    let rt = runtime();
    let tokens = browser_tokens(&rt, provider.issuer());
    let (server, _log) = rt.block_on(checking_server(provider.issuer().to_owned(), 0));
    let kept = Arc::new(Kept::default());
    let sign_in = SignIn::Provider(ProviderSignIn {
        issuer: provider.issuer().to_owned(),
        client: ClientCredentials::new("studio-desktop", None),
        grant: Some(Grant::Password(PasswordCredentials { username: "ana".into(), password: "changed-since".into() })),
        tokens: Some(tokens),
    });
    let backend =
        RemoteBackend::signed_in(&server.base, sign_in, RemoteOptions::default(), Some(kept.clone())).unwrap();
    rt.block_on(backend.list_configurations()).unwrap();
    provider.revoke_sessions();
    std::thread::sleep(ACCESS_TTL);
    let first = rt.block_on(backend.list_configurations()).unwrap_err();
    assert!(first.to_string().contains("refused the password of ana (Invalid user credentials"), "{first}");
    assert_eq!(kept.1.load(std::sync::atomic::Ordering::SeqCst), 1, "the keeper is told to forget the sign-in");
    let second = rt.block_on(backend.list_configurations()).unwrap_err();
    assert!(
        second.to_string().contains("there is no valid sign-in"),
        "the refused password is not tried again: {second}"
    );
}

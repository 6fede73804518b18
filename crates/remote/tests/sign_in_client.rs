//! A pipeline's sign-in as a client (the client credentials grant) through the real OpenID Connect provider on
//! loopback: renewed by the same grant as its tokens expire, since it has no refresh token, and a refused secret
//! named by where it came from, never shown.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use studio_model::Backend;
use studio_remote::oidc::{ClientCredentials, Tokens};
use studio_remote::{Grant, ProviderSignIn, RemoteBackend, RemoteOptions, SignIn, TokenKeeper};

use crate::sign_in::{checking_server, claims, provider, runtime, ACCESS_TTL};

/// Counts the renewals the session reports.
#[derive(Default)]
struct Renewals(AtomicUsize);

impl TokenKeeper for Renewals {
    fn keep(&self, tokens: &Tokens) {
        assert!(tokens.refresh_token.is_none(), "a client credentials token comes without a refresh token");
    }

    fn renewed(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn pipeline_sign_in(issuer: &str, secret: &str) -> SignIn {
    SignIn::Provider(ProviderSignIn {
        issuer: issuer.to_owned(),
        client: ClientCredentials::new("studio-pipeline", Some(secret))
            .with_secret_source("the file /run/pipeline-secret"),
        grant: Some(Grant::ClientCredentials),
        tokens: None,
    })
}

#[test]
fn a_client_signed_in_as_itself_renews_its_token_by_the_same_grant_across_expiry() {
    let provider = provider();
    runtime().block_on(async {
        let (server, log) = checking_server(provider.issuer().to_owned(), 0).await;
        let renewals = Arc::new(Renewals::default());
        let sign_in = pipeline_sign_in(provider.issuer(), "studio-pipeline-secret");
        let backend =
            RemoteBackend::signed_in(&server.base, sign_in, RemoteOptions::default(), Some(renewals.clone())).unwrap();
        let until = Instant::now() + ACCESS_TTL * 4;
        while Instant::now() < until {
            backend.list_configurations().await.expect("every request of the session succeeds");
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        let log = log.lock().unwrap();
        let distinct: std::collections::HashSet<&String> = log.tokens.iter().collect();
        assert!(distinct.len() >= 4, "renewed as they expired: {} distinct tokens", distinct.len());
        assert_eq!(renewals.0.load(Ordering::SeqCst), distinct.len(), "one grant per token");
        assert_eq!(log.refused, 0, "renewed before expiry, so the server never had to refuse one");
        let claims = claims(&log.tokens[0]).unwrap();
        assert_eq!(claims["preferred_username"], "service-account-studio-pipeline");
    });
}

#[test]
fn a_refused_client_secret_names_where_it_came_from_and_nothing_is_sent() {
    let provider = provider();
    runtime().block_on(async {
        let (server, log) = checking_server(provider.issuer().to_owned(), 0).await;
        let sign_in = pipeline_sign_in(provider.issuer(), "not-the-secret");
        let backend = RemoteBackend::signed_in(&server.base, sign_in, RemoteOptions::default(), None).unwrap();
        let err = backend.session().unwrap().bearer().await.unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("it refused client `studio-pipeline` with the secret from the file /run/pipeline-secret"),
            "{message}"
        );
        assert!(message.contains("put the client's current secret there"), "{message}");
        assert!(!format!("{message} {err:?}").contains("not-the-secret"), "the secret is never shown: {message}");
        let err = backend.list_configurations().await.unwrap_err();
        assert!(err.to_string().contains("/run/pipeline-secret"), "{err}");
        assert!(log.lock().unwrap().tokens.is_empty(), "nothing was sent to the server without a token");
    });
}

//! The conformance suite: one set of scenarios, written once, run against `LocalBackend`, against
//! `RemoteBackend → studio serve (real TCP) → LocalBackend`, and against `RemoteBackend → studio serve
//! --upstream → studio serve → LocalBackend`. Each scenario checks the API's rules on every backend, and
//! the remote runs must answer every step exactly as the local run does (creation times and `took N ms`
//! durations aside).

mod configurations;
mod fixtures;
mod search;
mod transcript;

use fixtures::Fixture;

/// For each scenario: a test per backend, the remote ones compared step by step with a local run.
macro_rules! conformance {
    ($($scenario:path => $name:ident),* $(,)?) => {
        mod local {
            $(#[tokio::test]
            async fn $name() {
                $scenario(super::Fixture::local()).await;
            })*
        }
        mod remote {
            $(#[tokio::test]
            async fn $name() {
                let local = $scenario(super::Fixture::local()).await;
                let remote = $scenario(super::Fixture::remote()).await;
                local.assert_same_as(&remote, "RemoteBackend → studio serve");
            })*
        }
        mod proxy {
            $(#[tokio::test]
            async fn $name() {
                let local = $scenario(super::Fixture::local()).await;
                let proxied = $scenario(super::Fixture::proxy()).await;
                local.assert_same_as(&proxied, "RemoteBackend → studio serve --upstream → studio serve");
            })*
        }
    };
}

conformance! {
    crate::conformance::configurations::create_read_update => create_read_update,
    crate::conformance::configurations::extensions => extensions,
    crate::conformance::configurations::unknown_fields_round_trip => unknown_fields_round_trip,
    crate::conformance::search::search => search,
    crate::conformance::search::similar_and_recommendations => similar_and_recommendations,
    crate::conformance::search::search_spaces => search_spaces,
}

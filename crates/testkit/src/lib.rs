//! Real servers for tests, started on loopback: an OpenID Connect provider shaped like a Keycloak realm
//! (the certified `oidc-provider` package), a stand-in for the system browser that signs in through it,
//! and a double of a team's production server of the API that offers only the API's nine operations.
//!
//! Sign-in and "what does a server offer" cannot be tested against this project's own server alone:
//! the production server signs users in through Keycloak and answers like a Spring application. The
//! servers are Node scripts in `servers/` (see [`servers_dir`]); this crate starts them, reads the one
//! line each prints to say where it listens, and stops them when dropped. It is only ever a
//! dev-dependency and never part of a shipped program.

mod api_only;
mod error;
mod oidc;
mod process;

use std::path::PathBuf;

pub use api_only::{ApiOnlyOptions, ApiOnlyServer};
pub use error::TestkitError;
pub use oidc::{browser_sign_in, OidcProvider, ProviderOptions};

/// The absolute path of `crates/testkit/servers`, for tests that start the scripts themselves.
pub fn servers_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("servers")
}

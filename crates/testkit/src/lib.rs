//! What the tests of every crate share, so that each fixture is written once: real servers started on
//! loopback and the small readers tests use on their answers. It is a dev-dependency of the crates, and a
//! dependency of the benchmark for its readers of process memory ([`io`]); never part of a shipped program.
//!
//! - The Node servers of `servers/` (see [`servers_dir`]): an OpenID Connect provider shaped like a Keycloak
//!   realm (the certified `oidc-provider` package) with a stand-in for the system browser that signs in
//!   through it ([`oidc`]), and a double of a team's production server of the API that offers only the
//!   API's nine operations ([`api_only`]). Sign-in and "what does a server offer" cannot be tested against
//!   this project's own server alone: the production server signs users in through Keycloak and answers
//!   like a Spring application. The `process` module starts them, reads the one line each prints to say
//!   where it listens, and stops them when dropped.
//! - [`http`]: a misbehaving HTTP server on loopback that answers what the test says, byte for byte, and
//!   readers of what a real server answered.
//! - [`io`]: the resident memory of a process, for tests that bound it.
//! - [`disk`]: a small disk that fills up, for the tests of a full disk.
//! - `studio` (feature `studio`): this project's own router over a real store, on loopback.

pub mod api_only;
pub mod bindings;
pub mod disk;
mod error;
pub mod http;
pub mod io;
pub mod oidc;
mod process;
#[cfg(feature = "studio")]
pub mod studio;
pub mod sync_trace;

pub use api_only::{ApiOnlyOptions, ApiOnlyServer};
pub use error::TestkitError;
pub use oidc::{browser_sign_in, designers_auth_file, provider, OidcProvider, ProviderOptions};
pub use process::servers_dir;

//! Signing in to an OpenID Connect provider (a Keycloak realm, or any other): OpenID discovery from the
//! issuer URL, and the token endpoint's grants — password (Keycloak's "direct access grant"), refresh
//! token, and the authorization code with PKCE that [`browser`] obtains through the system browser.
//!
//! Nothing here keeps state between calls; [`crate::session::Session`] decides when to call what. Secrets
//! (passwords, client secrets, tokens) are never logged and never part of an error message.

pub mod browser;
mod grant;
mod provider;

pub use grant::Tokens;
pub use provider::{normalise_issuer, ClientCredentials, Provider, DEFAULT_CLIENT_ID, PROVIDER_TIMEOUT};

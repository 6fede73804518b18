//! The test servers do what other crates' tests rely on: the provider looks and answers like a Keycloak
//! realm (discovery, password grant, JWT claims, refresh, ended sessions, key rotation, the browser
//! sign-in with PKCE), and the API-only double forwards the API's operations and answers everything else
//! as a Spring application would.

#[path = "servers/api_only.rs"]
mod api_only;
#[path = "servers/io.rs"]
mod io;
#[path = "servers/oidc.rs"]
mod oidc;
#[path = "servers/support.rs"]
mod support;

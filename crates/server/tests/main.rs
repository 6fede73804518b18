//! The router's tests (in-process through `oneshot`, and provider tokens against a provider on loopback),
//! gathered in one test binary: each file of this directory is a module here, so that a change links one
//! test program instead of one per file.

mod common;

mod api_configurations;
mod auth;
mod bad_input;
mod oidc_tokens;
mod operations;
mod web_sign_in;

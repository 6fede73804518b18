//! Search Studio's client of a remote server of the API (docs/api.md, with its extensions):
//! a team's production search application, or another `studio serve`. [`RemoteBackend`] answers every
//! operation of the `Backend` trait over HTTP, so the editor, the preview and `studio serve --upstream`
//! work the same against a remote server as against the local store.
//!
//! It reads tolerantly (optional fields may be missing, unknown fields are kept and written back), and it
//! never panics on what a server sends: every failure is a [`RemoteError`] that says what to do about it.
//! This crate holds no state between requests beyond a connection pool, and never touches the local store.
//!
//! Facet groups are read as the server sends them: in a document's `facetList`, the
//! `dyn_uri_all_concepts` group carries the concept URI in `label` and its name in `value` (docs/api.md, Documents);
//! that reversal is kept, not "corrected", so a document read here equals the one the server holds.

mod answer;
mod client;
mod decode;
mod error;
mod offers;
pub mod oidc;
mod options;
pub mod session;
mod transport;
mod wire;

pub use answer::SNIPPET_BYTES;
pub use client::RemoteBackend;
pub use decode::{decode_answer, read_error_answer, AnswerKind};
pub use error::RemoteError;
pub use options::RemoteOptions;
pub use session::{Grant, PasswordCredentials, ProviderSignIn, Session, SignIn, TokenKeeper};
pub use transport::check_base_url;

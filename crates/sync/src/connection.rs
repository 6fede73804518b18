//! Whether the backend in use answers, as the connection badge shows it. A server that answers, even to refuse
//! the sign-in, is online: only one that cannot be reached (or not in time) is not. The browser build decides
//! the same way over its own requests (ui/src/lib/backend/webworkspace.ts); the cases of
//! crates/sync/cases/connection.json hold both to one behaviour.

use serde::{Deserialize, Serialize};
use studio_model::{Backend, ErrorCode};
use ts_rs::TS;

use crate::types::LOCAL_KEY;

/// Which backend is in use and whether it answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionState {
    /// `local`, or the remote server's base URL.
    pub backend: String,
    pub online: bool,
    /// Why it is offline.
    pub message: Option<String>,
}

impl ConnectionState {
    /// The state of `backend` after a request that answered, or failed with `failure` (its code and message).
    pub fn after(backend: &str, failure: Option<(ErrorCode, String)>) -> Self {
        let online = failure.as_ref().is_none_or(|(code, _)| !code.is_unreachable());
        ConnectionState { backend: backend.to_owned(), online, message: failure.map(|(_, message)| message) }
    }
}

/// Asks `backend` (key `key`) for its default configuration, the one request every server of the API answers;
/// the local store is always there.
pub async fn check_connection(backend: &dyn Backend, key: &str) -> ConnectionState {
    let answer = if key == LOCAL_KEY { Ok(()) } else { backend.default_configuration().await.map(|_| ()) };
    ConnectionState::after(key, answer.err().map(|e| (e.code(), e.to_string())))
}

//! What finishes a pull that failed, sorted once for the CLI and the desktop app, which each say it in their own
//! words.

use studio_model::BackendError;

use crate::error::SyncError;

/// How a pull that failed can still be finished. The bookmark keeps every document already on disk, so a run after
/// the cause has gone resumes where this one stopped; what a user does to start it is the front end's to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// Running the pull again resumes it, once what the message names has passed or been done: the server failed,
    /// could not be reached or was too slow, the connection broke, the store was busy or its disk full, the sign-in
    /// with the server's provider ended (the message says to sign in again).
    RunAgain,
    /// The server refused the access token: with a valid one, running the pull again resumes it.
    SignInFirst,
}

impl Resume {
    /// How a pull that failed with `error` can be finished; `None` where running it again would most likely fail
    /// the same way (no such configuration, no rights, a request the server refuses, a damaged store, whose message
    /// says to recover it). A cancel is its own case.
    pub fn after(error: &SyncError) -> Option<Resume> {
        match error {
            SyncError::Backend(
                BackendError::BadGateway(_)
                | BackendError::Timeout(_)
                | BackendError::SignInNeeded(_)
                | BackendError::InsufficientStorage(_)
                | BackendError::Upstream { status: 408 | 429, .. },
            ) => Some(Resume::RunAgain),
            SyncError::Store(e) if e.is_passing() => Some(Resume::RunAgain),
            SyncError::Backend(BackendError::Unauthorized(_)) => Some(Resume::SignInFirst),
            _ => None,
        }
    }

    /// What is said after a failed pull's message: `again` is how the front end starts the pull again ("run the same
    /// command again"), `sign_in` how it signs in anew.
    pub fn advice(self, again: &str, sign_in: &str) -> String {
        match self {
            Resume::RunAgain => format!("what was pulled is kept: {again} to resume"),
            Resume::SignInFirst => format!("what was pulled is kept: {sign_in}, then {again} to resume"),
        }
    }
}

#[cfg(test)]
mod tests {
    use studio_local::StoreError;
    use studio_remote::RemoteError;

    use super::*;

    /// What a failed pull says it takes to finish it, for the failures a pull meets, each made as the remote client and
    /// the store make it.
    #[test]
    fn a_failure_that_passes_is_run_again_a_refused_token_signs_in_first_and_the_rest_says_nothing_more() {
        let server = || "http://studio.example".to_owned();
        let remote = |e: RemoteError| Resume::after(&SyncError::Backend(e.into()));
        let store = |e: StoreError| Resume::after(&SyncError::Store(e));
        let cases = [
            (remote(RemoteError::Unreachable { server: server(), reason: "refused".into() }), Some(Resume::RunAgain)),
            (
                remote(RemoteError::ServerFailed { server: server(), status: 500, message: "".into() }),
                Some(Resume::RunAgain),
            ),
            (remote(RemoteError::ConnectionLost { server: server(), reason: "reset".into() }), Some(Resume::RunAgain)),
            (
                remote(RemoteError::TimedOut { server: server(), after: std::time::Duration::from_secs(30) }),
                Some(Resume::RunAgain),
            ),
            (
                remote(RemoteError::Refused { server: server(), status: 429, message: "".into() }),
                Some(Resume::RunAgain),
            ),
            (remote(RemoteError::SignInNeeded { server: server(), reason: "expired".into() }), Some(Resume::RunAgain)),
            (remote(RemoteError::TokenRejected { server: server(), message: "".into() }), Some(Resume::SignInFirst)),
            (remote(RemoteError::NotFound { message: "configuration 9 does not exist".into() }), None),
            (remote(RemoteError::NotAllowed { server: server(), message: "".into() }), None),
            (remote(RemoteError::Refused { server: server(), status: 413, message: "".into() }), None),
            (store(StoreError::DiskFull { path: None }), Some(Resume::RunAgain)),
            (store(rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(5), None).into()), Some(Resume::RunAgain)),
            (store(StoreError::Damaged { path: None, detail: "page 3".into() }), None),
            (store(StoreError::IdsExhausted), None),
            (Resume::after(&SyncError::Cancelled), None),
        ];
        for (i, (got, want)) in cases.into_iter().enumerate() {
            assert_eq!(got, want, "case {i}");
        }
    }
}

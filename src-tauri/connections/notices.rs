//! The sentences Settings shows when something went wrong with the connections or their secrets outside
//! any one command (at start, or in a background write): what happened, what the app did about it, and
//! what the designer can do. They name connections, never secrets.

use super::model::StoredConnection;
use crate::secrets::SecretsNotice;

/// The current connection could not be set up at start, so the local store is in use.
pub fn not_restored(name: &str, why: &str) -> String {
    format!(
        "{name} could not be set up when Search Studio started ({why}), so the local store is in use. \
         Edit the connection below to fix it, then use it again."
    )
}

/// The names of connections `ids` (an id whose connection is gone stands for itself).
fn names(ids: &[String], stored: &[StoredConnection]) -> String {
    let named: Vec<&str> =
        ids.iter().map(|id| stored.iter().find(|c| &c.id == id).map_or(id.as_str(), |c| c.name.as_str())).collect();
    named.join(", ")
}

/// `notice` as a sentence, with connection names from `stored`.
pub fn secrets(notice: &SecretsNotice, stored: &[StoredConnection]) -> String {
    match notice {
        SecretsNotice::KeyringUnread { ids } => format!(
            "The system keyring did not answer when Search Studio started. The secrets it keeps for {} are \
             not used now, and what changes for them (a sign-in, a new secret) lasts only until Search Studio \
             closes. Restart Search Studio once the keyring answers.",
            names(ids, stored)
        ),
        SecretsNotice::KeyringStopped => "The system keyring stopped answering. Secrets are kept in an owner-only \
             file in the data folder for the rest of this session."
            .to_owned(),
        SecretsNotice::DamagedFile { path, kept_as, line, column } => {
            let kept = match kept_as {
                Some(aside) => format!("It was kept as {}.", aside.display()),
                None => format!("It could not be moved aside: move {} away yourself.", path.display()),
            };
            format!(
                "The secrets file {} was damaged (at line {line}, column {column}), so Search Studio started \
                 without the secrets in it: sign in again where asked. {kept}",
                path.display()
            )
        }
        SecretsNotice::UnreadableFile { reason } => {
            format!("Search Studio started without the secrets of its secrets file: {reason}.")
        }
    }
}

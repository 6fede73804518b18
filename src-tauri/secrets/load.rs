//! Reading every connection's secrets at start, from the keyring and the secrets file, and choosing which
//! copy is in use: the newest by revision. Reading never stops the app from starting: a secrets file that
//! cannot be read is set aside (and kept), and a keyring that does not answer leaves the secrets it may
//! hold out of use for this run instead of being taken for "no secrets".

use std::collections::HashMap;
use std::path::Path;

use super::file::{self, FileEntry};
use super::keyring::{KeyringAccess, Reply};
use super::types::{keyring_user, ConnectionSecrets, Held, SecretStorage, SecretsError, SecretsNotice};

/// What the keyring answered for one connection; `None` when no keyring is used.
type KeyringAnswer = Option<Reply<Option<ConnectionSecrets>>>;

/// Which copy of one connection's secrets is in use.
#[derive(Debug, PartialEq, Eq)]
enum Choice {
    Nothing,
    Keyring(ConnectionSecrets),
    File(ConnectionSecrets),
    /// The keyring may hold newer secrets than anything that could be read: none are used, and changes
    /// this run makes are held in memory only, so that nothing partial is saved in their place.
    Unread,
}

fn choose(keyring: KeyringAnswer, file: Option<FileEntry>) -> Choice {
    let in_file = |f: FileEntry| if f.secrets.is_empty() { Choice::Nothing } else { Choice::File(f.secrets) };
    match (keyring, file) {
        (Some(Reply::Done(kept)), Some(f)) if f.in_keyring => kept.map_or(Choice::Nothing, Choice::Keyring),
        (Some(Reply::Done(Some(kept))), Some(f)) if kept.revision > f.secrets.revision => Choice::Keyring(kept),
        (Some(Reply::Done(Some(kept))), None) => Choice::Keyring(kept),
        (_, Some(f)) if f.in_keyring => Choice::Unread,
        (_, Some(f)) => in_file(f),
        (Some(Reply::NoAnswer), None) => Choice::Unread,
        (_, None) => Choice::Nothing,
    }
}

/// Every connection's secrets as read at start.
pub(super) struct Loaded {
    pub held: HashMap<String, Held>,
    /// Every keyring call answered: writes may go there.
    pub keyring_answers: bool,
    pub notices: Vec<SecretsNotice>,
}

/// The file's entries; a file that cannot be read is set aside and counts as empty.
fn read_file(data_dir: &Path, notices: &mut Vec<SecretsNotice>) -> file::Saved {
    let path = file::path(data_dir);
    match file::read_all(&path) {
        Ok(saved) => saved,
        Err(SecretsError::Corrupt { path, line, column }) => {
            let kept_as = studio_sync::whole_file::set_aside(&path)
                .inspect_err(|e| {
                    tracing::warn!("the damaged secrets file {} could not be moved aside: {e}", path.display())
                })
                .ok();
            tracing::warn!(
                "the secrets file {} is damaged (line {line}, column {column}); starting without it",
                path.display()
            );
            notices.push(SecretsNotice::DamagedFile { path, kept_as, line, column });
            file::Saved::new()
        }
        Err(e) => {
            tracing::warn!("{e}; starting without the secrets it holds");
            notices.push(SecretsNotice::UnreadableFile { reason: e.to_string() });
            file::Saved::new()
        }
    }
}

/// Reads the secrets of connections `ids`.
pub(super) async fn load(data_dir: &Path, keyring: Option<&KeyringAccess>, ids: &[String]) -> Loaded {
    let mut notices = Vec::new();
    let mut in_file = read_file(data_dir, &mut notices);
    let mut asked = tokio::task::JoinSet::new();
    if let Some(keyring) = keyring {
        for id in ids {
            let (keyring, id) = (keyring.clone(), id.clone());
            asked.spawn(async move { (keyring.get(&keyring_user(&id)).await, id) });
        }
    }
    let mut answers: HashMap<String, Reply<Option<String>>> = HashMap::new();
    while let Some(joined) = asked.join_next().await {
        if let Ok((reply, id)) = joined {
            answers.insert(id, reply);
        }
    }
    let keyring_answers = keyring.is_some() && answers.values().all(|r| matches!(r, Reply::Done(_)));
    let (mut held, mut unread) = (HashMap::new(), Vec::new());
    for id in ids {
        let answer = keyring.map(|_| match answers.remove(id) {
            Some(Reply::Done(text)) => Reply::Done(text.and_then(|t| {
                serde_json::from_str::<ConnectionSecrets>(&t)
                    .inspect_err(|_| tracing::warn!(connection = %id, "its keyring entry is not readable; ignored"))
                    .ok()
            })),
            Some(Reply::Absent) => Reply::Absent,
            Some(Reply::NoAnswer) | None => Reply::NoAnswer,
        });
        let kept = match choose(answer, in_file.remove(id)) {
            Choice::Nothing => continue,
            Choice::Keyring(saved) => Held { saved, storage: Some(SecretStorage::Keyring), ..Held::default() },
            Choice::File(saved) => Held { saved, storage: Some(SecretStorage::File), ..Held::default() },
            Choice::Unread => {
                unread.push(id.clone());
                Held { unread: true, ..Held::default() }
            }
        };
        held.insert(id.clone(), kept);
    }
    if !unread.is_empty() {
        tracing::warn!(
            "the keyring did not answer at start; the secrets it keeps for {unread:?} are not used in this run"
        );
        notices.push(SecretsNotice::KeyringUnread { ids: unread });
    }
    Loaded { held, keyring_answers, notices }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(token: &str, revision: u64) -> ConnectionSecrets {
        ConnectionSecrets { token: Some(token.into()), revision, ..ConnectionSecrets::default() }
    }

    fn in_file(token: Option<&str>, revision: u64) -> Option<FileEntry> {
        let mut secrets = ConnectionSecrets { revision, ..ConnectionSecrets::default() };
        secrets.token = token.map(str::to_owned);
        Some(FileEntry { in_keyring: false, secrets })
    }

    fn pointer(revision: u64) -> Option<FileEntry> {
        Some(FileEntry { in_keyring: true, secrets: ConnectionSecrets { revision, ..ConnectionSecrets::default() } })
    }

    #[test]
    fn the_newest_copy_wins_and_an_unanswered_keyring_is_never_taken_for_no_secrets() {
        let done = |s: Option<ConnectionSecrets>| Some(Reply::Done(s));
        // A late keyring write of older secrets does not beat the file's newer ones, nor an emptied entry.
        assert_eq!(choose(done(Some(secrets("old", 1))), in_file(Some("new"), 2)), Choice::File(secrets("new", 2)));
        assert_eq!(choose(done(Some(secrets("old", 1))), in_file(None, 2)), Choice::Nothing);
        assert_eq!(choose(done(Some(secrets("new", 3))), in_file(Some("old"), 2)), Choice::Keyring(secrets("new", 3)));
        assert_eq!(choose(done(Some(secrets("kept", 3))), pointer(3)), Choice::Keyring(secrets("kept", 3)));
        assert_eq!(choose(done(Some(secrets("from before", 0))), None), Choice::Keyring(secrets("from before", 0)));
        // The keyring holds them, by the file's word, but does not answer: unknown, not empty.
        assert_eq!(choose(Some(Reply::NoAnswer), pointer(3)), Choice::Unread);
        assert_eq!(choose(Some(Reply::Absent), pointer(3)), Choice::Unread);
        assert_eq!(choose(Some(Reply::NoAnswer), None), Choice::Unread);
        // No keyring on this machine, and none named in the file: there is nothing.
        assert_eq!(choose(Some(Reply::Absent), None), Choice::Nothing);
        assert_eq!(choose(None, in_file(Some("file"), 1)), Choice::File(secrets("file", 1)));
    }
}

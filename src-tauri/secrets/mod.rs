//! The secrets of the desktop's connections: pasted tokens, a provider's refresh token (with its expiry),
//! remembered passwords and client secrets. Each connection's secrets are kept in the OS keyring when one
//! answers, else in one owner-only file in the data directory ([`file`]); [`SecretStorage`] says which.
//!
//! Every write carries a revision, and the newest copy wins when the keyring and the file both hold one, so
//! a keyring write given up on that lands later never brings back older secrets. A keyring that does not
//! answer is never taken for one without secrets: what it may hold is left alone ([`load`]).
//!
//! Secrets never go into the settings file, never to the UI, and never into a log or an error message.
//! They are held in memory too, with what is never saved at all: the provider's current access token and a
//! pasted token the designer chose not to remember.

mod file;
mod keyring;
mod load;
mod types;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use studio_remote::oidc::Tokens;

pub(crate) use file::write_owner_only;
use file::FileEntry;
pub use file::SECRETS_FILE;
pub use keyring::{Keyring, KeyringAccess, KeyringError, Reply, SystemKeyring, PATIENCE, SERVICE};
use types::keyring_user;
pub use types::{ConnectionSecrets, Held, SecretStorage, SecretsError, SecretsNotice};

/// A revision above `previous`: now, in milliseconds since 1970, or one more when the clock is behind.
fn next_revision(previous: u64) -> u64 {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    now.max(previous + 1)
}

/// The secrets of every connection of one data directory.
pub struct Secrets {
    data_dir: PathBuf,
    keyring: Option<KeyringAccess>,
    /// Writes go to the keyring: it answered at start and has not failed since.
    keyring_in_use: AtomicBool,
    held: Mutex<HashMap<String, Held>>,
    /// One write at a time, each writing the newest secrets of its connection.
    writing: tokio::sync::Mutex<()>,
    /// How many writes are scheduled and not yet done (see [`Secrets::flush`]).
    pending: tokio::sync::watch::Sender<usize>,
    notices: Mutex<Vec<SecretsNotice>>,
}

impl Secrets {
    /// Reads the secrets of connections `ids` from `keyring` (when there is one) and the secrets file. Never
    /// fails: what cannot be read is left out and said in [`Secrets::notices`].
    pub async fn open(data_dir: &Path, keyring: Option<KeyringAccess>, ids: &[String]) -> Secrets {
        let loaded = load::load(data_dir, keyring.as_ref(), ids).await;
        Secrets {
            data_dir: data_dir.to_owned(),
            keyring_in_use: AtomicBool::new(loaded.keyring_answers),
            keyring,
            held: Mutex::new(loaded.held),
            writing: tokio::sync::Mutex::new(()),
            pending: tokio::sync::watch::channel(0).0,
            notices: Mutex::new(loaded.notices),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Held>> {
        self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn notes(&self) -> MutexGuard<'_, Vec<SecretsNotice>> {
        self.notices.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// What the designer should know about the secrets (a keyring that did not answer, a damaged file).
    pub fn notices(&self) -> Vec<SecretsNotice> {
        self.notes().clone()
    }

    /// What is known of connection `id`'s secrets.
    pub fn get(&self, id: &str) -> Held {
        self.lock().get(id).cloned().unwrap_or_default()
    }

    /// Changes connection `id`'s secrets with `edit` and saves them before answering.
    pub async fn change(&self, id: &str, edit: impl FnOnce(&mut Held)) -> Result<(), SecretsError> {
        let changed = {
            let mut all = self.lock();
            let held = all.entry(id.to_owned()).or_default();
            let before = held.saved.clone();
            edit(held);
            held.saved != before
        };
        if changed {
            self.save(id).await?;
        }
        Ok(())
    }

    /// Takes a provider's new `tokens` for connection `id` (a session renewed them).
    pub fn keep_tokens(self: &Arc<Self>, id: &str, tokens: &Tokens) {
        self.change_in_background(id, |held| {
            held.saved.keep_refresh(tokens);
            held.tokens = Some(tokens.clone());
        });
    }

    /// The provider ended connection `id`'s sign-in and refused what was kept: its tokens and remembered
    /// password are forgotten, so that they are not offered again (at the next start neither).
    pub fn end_sign_in(self: &Arc<Self>, id: &str) {
        self.change_in_background(id, |held| {
            (held.tokens, held.saved.refresh_token, held.saved.refresh_expires_at) = (None, None, None);
            held.saved.password = None;
        });
    }

    /// Changes connection `id`'s secrets with `edit` (when it has any) and leaves the write to a task: a
    /// session calls this while holding its lock, which must not wait for the keyring.
    fn change_in_background(self: &Arc<Self>, id: &str, edit: impl FnOnce(&mut Held)) {
        let changed = {
            let mut all = self.lock();
            let Some(held) = all.get_mut(id) else { return };
            let before = held.saved.clone();
            edit(held);
            held.saved != before
        };
        if changed {
            self.pending.send_modify(|n| *n += 1);
            let (me, id) = (Arc::clone(self), id.to_owned());
            tauri::async_runtime::spawn(async move {
                if let Err(e) = me.save(&id).await {
                    tracing::warn!(connection = %id, "the connection's secrets could not be saved: {e}");
                }
                me.pending.send_modify(|n| *n -= 1);
            });
        }
    }

    /// Forgets every secret of connection `id`, in memory, in the keyring and in the file.
    pub async fn forget(&self, id: &str) -> Result<(), SecretsError> {
        self.lock().remove(id);
        self.save(id).await
    }

    /// Waits until every scheduled write is done (before the app exits).
    pub async fn flush(&self) {
        let mut pending = self.pending.subscribe();
        let _ = pending.wait_for(|n| *n == 0).await;
    }

    /// The keyring, while writes go there.
    fn keyring_in_use(&self) -> Option<&KeyringAccess> {
        self.keyring.as_ref().filter(|_| self.keyring_in_use.load(Ordering::SeqCst))
    }

    /// The keyring failed a write: the file takes every write for the rest of the run (a keyring that
    /// did not answer once is not waited for again).
    fn stop_using_keyring(&self, reply: &Reply<()>) {
        if self.keyring_in_use.swap(false, Ordering::SeqCst) && *reply == Reply::NoAnswer {
            tracing::warn!("the keyring stopped answering; secrets are saved in the secrets file from now on");
            self.notes().push(SecretsNotice::KeyringStopped);
        }
    }

    /// Writes the newest saved secrets of `id` where they belong, and notes where that is. Secrets held
    /// in memory only (unread at start) are not written; forgotten ones are removed everywhere.
    async fn save(&self, id: &str) -> Result<(), SecretsError> {
        let _one_at_a_time = self.writing.lock().await;
        let newest = {
            let mut all = self.lock();
            match all.get_mut(id) {
                Some(held) if held.unread => return Ok(()),
                Some(held) => {
                    held.saved.revision = next_revision(held.saved.revision);
                    Some(held.saved.clone())
                }
                None => None,
            }
        };
        let storage = match newest {
            None => self.remove_everywhere(id).await?,
            Some(saved) if saved.is_empty() => self.write_empty(id, saved.revision).await?,
            Some(saved) => Some(self.write(id, saved).await?),
        };
        if let Some(held) = self.lock().get_mut(id) {
            held.storage = storage;
        }
        Ok(())
    }

    /// Keeps `saved` in the keyring (with a note in the file that it is there), else in the file.
    async fn write(&self, id: &str, saved: ConnectionSecrets) -> Result<SecretStorage, SecretsError> {
        if let (Some(keyring), Ok(text)) = (self.keyring_in_use(), serde_json::to_string(&saved)) {
            let reply = keyring.set(&keyring_user(id), &text).await;
            if reply == Reply::Done(()) {
                let note = FileEntry {
                    in_keyring: true,
                    secrets: ConnectionSecrets { revision: saved.revision, ..Default::default() },
                };
                file::store(&self.data_dir, id, Some(&note))?;
                return Ok(SecretStorage::Keyring);
            }
            // Not deleted from the keyring: a delete could be overtaken by this very write landing late.
            // The file's copy is newer by revision, so it wins at the next start whatever lands there.
            self.stop_using_keyring(&reply);
        }
        file::store(&self.data_dir, id, Some(&FileEntry { in_keyring: false, secrets: saved }))?;
        Ok(SecretStorage::File)
    }

    /// A connection that keeps no secret now: its keyring entry goes; where that cannot be known to have
    /// happened, an empty entry in the file outranks whatever the keyring still holds.
    async fn write_empty(&self, id: &str, revision: u64) -> Result<Option<SecretStorage>, SecretsError> {
        let gone = match self.keyring_in_use() {
            Some(keyring) => {
                let reply = keyring.delete(&keyring_user(id)).await;
                let done = reply == Reply::Done(());
                if !done {
                    self.stop_using_keyring(&reply);
                }
                done
            }
            None => self.keyring.is_none(),
        };
        let empty = FileEntry { in_keyring: false, secrets: ConnectionSecrets { revision, ..Default::default() } };
        file::store(&self.data_dir, id, if gone { None } else { Some(&empty) })?;
        Ok(None)
    }

    /// A removed connection: its entries go from the keyring (when it answers) and the file. Its id is
    /// never listed again, so nothing left in a keyring that did not answer is ever read.
    async fn remove_everywhere(&self, id: &str) -> Result<Option<SecretStorage>, SecretsError> {
        if let Some(keyring) = self.keyring_in_use() {
            let reply = keyring.delete(&keyring_user(id)).await;
            if reply != Reply::Done(()) {
                self.stop_using_keyring(&reply);
            }
        }
        file::store(&self.data_dir, id, None)?;
        Ok(None)
    }
}

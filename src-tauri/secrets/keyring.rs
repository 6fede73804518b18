//! The OS keyring (Secret Service, Keychain, Credential Manager), asked off the async threads and given up
//! on after a few seconds: a keyring daemon that does not answer must not hang the app. Every call says
//! only whether it worked; the caller falls back to the secrets file when it did not.

use std::time::Duration;

/// The keyring service all of this app's entries are filed under.
pub const SERVICE: &str = "search-studio";

/// How long one keyring call may take.
const PATIENCE: Duration = Duration::from_secs(3);

/// Runs `work` on the entry `user` of this app's service, on the blocking pool; `None` when the keyring
/// cannot be used, failed or did not answer in time.
async fn with_entry<T: Send + 'static>(
    user: &str,
    work: impl FnOnce(keyring::Entry) -> Option<T> + Send + 'static,
) -> Option<T> {
    let user = user.to_owned();
    let call = tauri::async_runtime::spawn_blocking(move || keyring::Entry::new(SERVICE, &user).ok().and_then(work));
    match tokio::time::timeout(PATIENCE, call).await {
        Ok(Ok(found)) => found,
        _ => None,
    }
}

/// The secret kept under `user`, if the keyring answers and has one.
pub async fn get(user: &str) -> Option<String> {
    with_entry(user, |entry| entry.get_password().ok()).await
}

/// Keeps `secret` under `user`; true once the keyring has it (read back to be sure: some keyrings accept a
/// write they do not keep).
pub async fn set(user: &str, secret: &str) -> bool {
    let secret = secret.to_owned();
    with_entry(user, move |entry| {
        (entry.set_password(&secret).is_ok() && entry.get_password().ok() == Some(secret)).then_some(())
    })
    .await
    .is_some()
}

/// Removes the entry `user`; true when it is gone (or never was there).
pub async fn delete(user: &str) -> bool {
    with_entry(user, |entry| match entry.delete_credential() {
        Ok(()) | Err(keyring::Error::NoEntry) => Some(()),
        Err(_) => None,
    })
    .await
    .is_some()
}

//! Choosing the backend: the local store, or a remote server reached with a URL and a saved token.
//! Used at start-up (from the preferences) and when the user switches in the settings.

use std::sync::Arc;

use studio_model::{Backend, ErrorCode};
use studio_remote::RemoteBackend;

use crate::error::IpcError;
use crate::prefs::{token, Mode};
use crate::state::BackendSlot;

/// Checks a remote URL the user typed: http(s), with a host.
pub fn check_url(url: &str) -> Result<String, IpcError> {
    let trimmed = url.trim().trim_end_matches('/');
    let rest = trimmed.strip_prefix("https://").or_else(|| trimmed.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => Ok(trimmed.to_owned()),
        _ => Err(IpcError::new(ErrorCode::Settings, format!("`{url}` is not a server address; write it as http://host:port or https://host"))),
    }
}

/// Builds the client of a remote server with the token saved for it.
pub async fn remote(slot: &BackendSlot, url: &str) -> Result<Arc<dyn Backend>, IpcError> {
    let saved = token::load(slot.data_dir(), url).await.map(|(t, _)| t);
    let backend = RemoteBackend::new(url, saved.as_deref())
        .map_err(|e| IpcError::new(ErrorCode::Settings, format!("cannot set up a client for {url}: {e}")))?;
    Ok(Arc::new(backend))
}

/// Switches to `mode`. For a remote server, saves `new_token` when given, then checks that the server
/// answers and accepts the token before switching; on failure the current backend stays.
pub async fn switch(slot: &BackendSlot, mode: Mode, url: Option<&str>, new_token: Option<&str>) -> Result<Option<String>, IpcError> {
    match mode {
        Mode::Local => {
            slot.use_local();
            Ok(url.map(str::to_owned))
        }
        Mode::Remote => {
            let url = check_url(url.ok_or_else(|| IpcError::new(ErrorCode::Settings, "a remote server needs its address"))?)?;
            if let Some(new_token) = new_token.filter(|t| !t.trim().is_empty()) {
                token::save(slot.data_dir(), &url, new_token.trim()).await?;
            }
            let backend = remote(slot, &url).await?;
            backend.list_configurations().await.map_err(IpcError::from)?;
            slot.set_remote(&url, backend);
            Ok(Some(url))
        }
    }
}

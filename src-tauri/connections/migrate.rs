//! The first start with connections: the old preferences named one remote server (`mode`, `remoteUrl`) and
//! kept its token in the keyring (under the server's URL) or in the `remote-token` file. That server
//! becomes a connection with its token, current when it was in use, so an existing user finds their
//! server. The old entries go once the token is kept anew; the migration runs once.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};

use super::model::{check_server_url, new_id, SignInMethod, StoredConnection, LOCAL_ID};
use super::store::{CURRENT_KEY, LIST_KEY};
use crate::error::IpcError;
use crate::prefs::Prefs;
use crate::secrets::{write_owner_only, KeyringAccess, Reply, Secrets};

/// The old token file in the data directory: a JSON object of base URL to token.
const OLD_TOKEN_FILE: &str = "remote-token";
/// The old preferences keys.
const OLD_MODE_KEY: &str = "mode";
const OLD_URL_KEY: &str = "remoteUrl";

/// The token the old preferences kept for `url`: the keyring's first, else the file's.
async fn old_token(data_dir: &Path, url: &str, keyring: Option<&KeyringAccess>) -> Option<String> {
    if let Some(keyring) = keyring {
        if let Reply::Done(Some(token)) = keyring.get(url).await {
            return Some(token);
        }
    }
    let text = std::fs::read_to_string(data_dir.join(OLD_TOKEN_FILE)).ok()?;
    let saved: Value = serde_json::from_str(&text).ok()?;
    saved.get(url)?.as_str().map(str::to_owned)
}

/// Removes the old token of `url` from the keyring and the file (the file goes when nothing else is in it).
async fn forget_old_token(data_dir: &Path, url: &str, keyring: Option<&KeyringAccess>) {
    if let Some(keyring) = keyring {
        keyring.delete(url).await;
    }
    let path = data_dir.join(OLD_TOKEN_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else { return };
    let mut saved: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap_or_default();
    saved.remove(url);
    let done = if saved.is_empty() {
        std::fs::remove_file(&path)
    } else {
        write_owner_only(&path, Value::Object(saved).to_string().as_bytes())
    };
    if let Err(e) = done {
        tracing::warn!("the old token file {} could not be cleaned up: {e}", path.display());
    }
}

/// A connection's name made from its URL: the host (and port).
fn name_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    rest.split('/').next().unwrap_or(rest).to_owned()
}

/// Opens the secrets of every connection, making the connection list from the old preferences first when
/// the preferences have none yet.
pub async fn run(prefs: &Prefs, keyring: Option<KeyringAccess>) -> Result<Arc<Secrets>, IpcError> {
    let data_dir = prefs.data_dir().to_owned();
    if prefs.has(LIST_KEY) {
        let ids: Vec<String> =
            prefs.read::<Vec<StoredConnection>>(LIST_KEY).unwrap_or_default().into_iter().map(|c| c.id).collect();
        return Ok(Arc::new(Secrets::open(&data_dir, keyring, &ids).await));
    }
    let secrets = Arc::new(Secrets::open(&data_dir, keyring.clone(), &[]).await);
    let old_url = prefs.read::<String>(OLD_URL_KEY).and_then(|url| check_server_url(&url).ok());
    let Some(url) = old_url else {
        prefs.write_all(&[(LIST_KEY, json!([])), (CURRENT_KEY, json!(LOCAL_ID))], &[OLD_MODE_KEY, OLD_URL_KEY])?;
        return Ok(secrets);
    };
    let id = new_id();
    let token = old_token(&data_dir, &url, keyring.as_ref()).await;
    let connection = StoredConnection {
        id: id.clone(),
        name: name_of(&url),
        url: url.clone(),
        sign_in: if token.is_some() { SignInMethod::Token } else { SignInMethod::None },
        issuer: None,
        client_id: None,
        username: None,
        remember_password: false,
    };
    if let Some(token) = token {
        secrets.change(&id, |h| h.saved.token = Some(token)).await?;
    }
    let was_remote = prefs.read::<String>(OLD_MODE_KEY).as_deref() == Some("remote");
    let current = if was_remote { id.as_str() } else { LOCAL_ID };
    prefs.write_all(&[(LIST_KEY, json!([connection])), (CURRENT_KEY, json!(current))], &[OLD_MODE_KEY, OLD_URL_KEY])?;
    forget_old_token(&data_dir, &url, keyring.as_ref()).await;
    tracing::info!("the remote server {url} is now the connection {}", connection.name);
    Ok(secrets)
}

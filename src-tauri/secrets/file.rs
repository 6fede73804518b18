//! The secrets file in the data directory: one JSON object with an entry per connection, readable and
//! writable by its owner only (0600), replaced atomically (a new file written, synced, then renamed over
//! the old one) so that a crash never leaves half a file.
//!
//! An entry holds a connection's secrets when no keyring keeps them, or only says that the keyring keeps
//! them (`inKeyring`), with the revision written there: so a keyring that cannot be read at the next start
//! is known to hold something, and the newest copy wins when two places hold one. A file that cannot be
//! read is never written over (that would lose every other connection's secrets): at start it is set aside
//! under a "damaged" name and kept.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::types::{ConnectionSecrets, SecretsError};

/// The file's name in the data directory.
pub const SECRETS_FILE: &str = "desktop-secrets.json";

/// What the file keeps for one connection.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FileEntry {
    /// The secrets are in the keyring; this entry holds only their revision.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_keyring: bool,
    #[serde(flatten)]
    pub secrets: ConnectionSecrets,
}

/// Every connection's entry, by connection id.
pub type Saved = BTreeMap<String, FileEntry>;

pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(SECRETS_FILE)
}

/// What the file holds; an absent file holds nothing. The error of a file that is not what this program
/// writes says where it went wrong and never what is there (that could be a secret).
pub fn read_all(path: &Path) -> Result<Saved, SecretsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Saved::new()),
        Err(source) => return Err(SecretsError::File { path: path.to_owned(), source }),
    };
    serde_json::from_str(&text).map_err(|e| SecretsError::Corrupt {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
    })
}

/// Keeps `entry` for connection `id` (`None` removes it; the file goes when it holds nothing).
pub fn store(data_dir: &Path, id: &str, entry: Option<&FileEntry>) -> Result<(), SecretsError> {
    let path = path(data_dir);
    let mut saved = read_all(&path)?;
    let before = saved.get(id).cloned();
    match entry {
        Some(e) => saved.insert(id.to_owned(), e.clone()),
        None => saved.remove(id),
    };
    if saved.get(id) == before.as_ref() {
        return Ok(());
    }
    let fail = |source| SecretsError::File { path: path.clone(), source };
    if saved.is_empty() {
        return std::fs::remove_file(&path)
            .or_else(|e| if e.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(e) })
            .map_err(fail);
    }
    let text = serde_json::to_vec(&saved).map_err(|e| fail(std::io::Error::other(e)))?;
    write_owner_only(&path, &text).map_err(fail)
}

/// Writes `bytes` to `path` through a 0600 temporary file that is synced and renamed over it, then syncs
/// the directory so that the rename itself survives a power cut.
pub fn write_owner_only(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&tmp)?;
    #[cfg(unix)]
    {
        // A temporary file left by an earlier crash keeps its old mode through `open`: set it again.
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)?;
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

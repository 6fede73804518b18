//! The auth file (docs/api.md, The auth file): users with token digests and groups, and what each group grants.
//!
//! Tokens exist here only as SHA-256 digests; a presented token is hashed and compared with every known
//! digest in constant time.

use std::collections::HashMap;
use std::path::Path;

use rand::RngCore;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::principal::{Grant, Operation, Principal};

/// Why an auth file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum AuthFileError {
    #[error("cannot read the auth file {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("the auth file {path} is not valid: {source}")]
    Parse { path: String, source: serde_json::Error },
    #[error("user `{user}` in the auth file has a tokenSha256 that is not 64 hexadecimal digits")]
    BadDigest { user: String },
    #[error("user `{user}` in the auth file names group `{group}`, which the file does not define")]
    UnknownGroup { user: String, group: String },
    #[error("two users in the auth file are both named `{0}`")]
    DuplicateUser(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AuthFile {
    users: Vec<UserEntry>,
    #[serde(default)]
    groups: Vec<GroupEntry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UserEntry {
    name: String,
    token_sha256: String,
    #[serde(default)]
    groups: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GroupEntry {
    name: String,
    #[serde(default)]
    operations: Vec<Operation>,
    #[serde(default)]
    search_spaces: Vec<String>,
}

/// A user of the auth file: the digest of their token and who they are.
pub(super) struct FileUser {
    digest: [u8; 32],
    principal: Principal,
}

/// SHA-256 of a token, as hex, the form the auth file stores.
pub fn token_digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// What one reading of the auth file holds.
pub(super) struct FileCallers {
    pub(super) users: Vec<FileUser>,
    pub(super) groups: HashMap<String, Grant>,
}

impl FileCallers {
    /// Reads an auth file (docs/api.md, The auth file).
    pub(super) fn read(path: &Path) -> Result<FileCallers, AuthFileError> {
        let shown = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|source| AuthFileError::Read { path: shown.clone(), source })?;
        let file: AuthFile =
            serde_json::from_str(&text).map_err(|source| AuthFileError::Parse { path: shown, source })?;
        let groups: HashMap<String, Grant> = file
            .groups
            .into_iter()
            .map(|g| (g.name, Grant { operations: g.operations, search_spaces: g.search_spaces }))
            .collect();
        let mut users: Vec<FileUser> = Vec::new();
        for entry in &file.users {
            if users.iter().any(|u| u.principal.name == entry.name) {
                return Err(AuthFileError::DuplicateUser(entry.name.clone()));
            }
            let digest = hex::decode(entry.token_sha256.trim())
                .ok()
                .and_then(|d| <[u8; 32]>::try_from(d).ok())
                .ok_or_else(|| AuthFileError::BadDigest { user: entry.name.clone() })?;
            let mut grants = Vec::new();
            for name in &entry.groups {
                let grant = groups
                    .get(name)
                    .ok_or_else(|| AuthFileError::UnknownGroup { user: entry.name.clone(), group: name.clone() })?;
                grants.push(grant);
            }
            users.push(FileUser { digest, principal: Principal::with_grants(entry.name.clone(), grants) });
        }
        Ok(FileCallers { users, groups })
    }

    /// One user, `name`, with a fresh random token granting everything. Returns the token to show once.
    pub(super) fn single_random_user(name: &str) -> (FileCallers, String) {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        let token = hex::encode(bytes);
        let digest = Sha256::digest(token.as_bytes()).into();
        let everything = Grant {
            operations: vec![Operation::Read, Operation::Write, Operation::Search],
            search_spaces: vec!["*".to_owned()],
        };
        let principal = Principal::with_grants(name.to_owned(), [&everything]);
        (FileCallers { users: vec![FileUser { digest, principal }], groups: HashMap::new() }, token)
    }

    /// The principal an auth-file token belongs to. Every digest is compared, in constant time.
    pub(super) fn principal_of(&self, token: &str) -> Option<Principal> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let mut found = None;
        for user in &self.users {
            if bool::from(user.digest.ct_eq(&digest)) {
                found = Some(user.principal.clone());
            }
        }
        found
    }
}

//! Bearer-token authentication and per-group authorisation (decisions.md §5).
//!
//! Tokens exist here only as SHA-256 digests; a presented token is hashed and compared with every known
//! digest in constant time. Neither a token nor its digest is ever logged.

use std::collections::HashMap;
use std::path::Path;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;
use rand::RngCore;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::error::AppError;

/// A class of operations a group may be granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// Operations 1–4 of api.md, visible, logs, search spaces.
    Read,
    /// Operations 5–6 and the extensions that change data.
    Write,
    /// Operations 7–9.
    Search,
}

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

/// Who a request comes from and what they may do.
#[derive(Debug, Clone)]
pub struct Principal {
    pub name: String,
    operations: Vec<Operation>,
    /// `None` grants every search space (`"*"`).
    search_spaces: Option<Vec<String>>,
}

impl Principal {
    /// Answers 403 unless the principal's groups grant `op`.
    pub fn require(&self, op: Operation) -> Result<(), AppError> {
        if self.operations.contains(&op) {
            Ok(())
        } else {
            Err(AppError::forbidden(format!(
                "user `{}` is not allowed to {} (no group grants it)",
                self.name,
                match op {
                    Operation::Read => "read configurations",
                    Operation::Write => "change configurations",
                    Operation::Search => "search",
                }
            )))
        }
    }

    /// Whether every search space is granted, so no per-configuration check is needed.
    pub fn has_all_spaces(&self) -> bool {
        self.search_spaces.is_none()
    }

    pub fn may_use_space(&self, space: &str) -> bool {
        self.search_spaces.as_ref().is_none_or(|spaces| spaces.iter().any(|s| s == space))
    }

    /// Answers 403 unless the principal may use `space`.
    pub fn require_space(&self, space: &str) -> Result<(), AppError> {
        if self.may_use_space(space) {
            Ok(())
        } else {
            Err(AppError::forbidden(format!("user `{}` is not allowed to use search space `{space}`", self.name)))
        }
    }
}

struct User {
    digest: [u8; 32],
    principal: Principal,
}

/// The users the server knows.
pub struct Auth {
    users: Vec<User>,
}

/// SHA-256 of a token, as hex, the form the auth file stores.
pub fn token_digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

impl Auth {
    /// Reads an auth file of decisions.md §5.
    pub fn from_file(path: &Path) -> Result<Auth, AuthFileError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| AuthFileError::Read { path: shown.clone(), source })?;
        let file: AuthFile = serde_json::from_str(&text).map_err(|source| AuthFileError::Parse { path: shown, source })?;
        let groups: HashMap<&str, &GroupEntry> = file.groups.iter().map(|g| (g.name.as_str(), g)).collect();
        let mut users: Vec<User> = Vec::new();
        for entry in &file.users {
            if users.iter().any(|u| u.principal.name == entry.name) {
                return Err(AuthFileError::DuplicateUser(entry.name.clone()));
            }
            let digest = hex::decode(entry.token_sha256.trim())
                .ok()
                .and_then(|d| <[u8; 32]>::try_from(d).ok())
                .ok_or_else(|| AuthFileError::BadDigest { user: entry.name.clone() })?;
            let mut operations = Vec::new();
            let mut spaces: Option<Vec<String>> = Some(Vec::new());
            for name in &entry.groups {
                let group = groups
                    .get(name.as_str())
                    .ok_or_else(|| AuthFileError::UnknownGroup { user: entry.name.clone(), group: name.clone() })?;
                operations.extend(group.operations.iter().copied());
                if group.search_spaces.iter().any(|s| s == "*") {
                    spaces = None;
                } else if let Some(list) = spaces.as_mut() {
                    list.extend(group.search_spaces.iter().cloned());
                }
            }
            users.push(User { digest, principal: Principal { name: entry.name.clone(), operations, search_spaces: spaces } });
        }
        Ok(Auth { users })
    }

    /// One user, `name`, with a fresh random token granting everything. Returns the token to show once.
    pub fn single_random_user(name: &str) -> (Auth, String) {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        let token = hex::encode(bytes);
        let digest = Sha256::digest(token.as_bytes()).into();
        let principal = Principal {
            name: name.to_owned(),
            operations: vec![Operation::Read, Operation::Write, Operation::Search],
            search_spaces: None,
        };
        (Auth { users: vec![User { digest, principal }] }, token)
    }

    /// The principal a token belongs to. Every digest is compared, in constant time.
    fn principal_for(&self, token: &str) -> Option<&Principal> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let mut found = None;
        for user in &self.users {
            if bool::from(user.digest.ct_eq(&digest)) {
                found = Some(&user.principal);
            }
        }
        found
    }

    /// Resolves the `Authorization` header of a request.
    pub fn authenticate(&self, header: Option<&str>) -> Result<Principal, AppError> {
        let header = header.ok_or_else(|| {
            AppError::unauthorized("this request needs the header `Authorization: Bearer <token>`")
        })?;
        let token = header
            .split_once(' ')
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .filter(|token| !token.is_empty())
            .ok_or_else(|| AppError::unauthorized("the Authorization header must be `Bearer <token>`"))?;
        self.principal_for(token).cloned().ok_or_else(|| AppError::unauthorized("the bearer token is not known to this server"))
    }
}

/// Middleware: resolves the caller and puts their [`Principal`] into the request, or answers 401.
pub async fn require_token(State(auth): State<std::sync::Arc<Auth>>, mut request: Request, next: Next) -> Result<Response, AppError> {
    let header = request.headers().get(AUTHORIZATION).map(|v| v.to_str().unwrap_or(""));
    let principal = auth.authenticate(header)?;
    request.extensions_mut().insert(principal);
    Ok(next.run(request).await)
}

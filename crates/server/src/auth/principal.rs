//! Who a request comes from and what they may do: the operations and search spaces a group grants, and the
//! [`Principal`] a caller becomes, whichever kind of token named them. It knows nothing of tokens or of the
//! auth file, so that both kinds of caller (the auth file's users, a provider's tokens) are built on it.

use serde::Deserialize;

use crate::error::AppError;

/// A class of operations a group may be granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// Operations 1–4 (docs/api.md, Operations), visible, logs, search spaces.
    Read,
    /// Operations 5–6 and the extensions that change data.
    Write,
    /// Operations 7–9.
    Search,
}

/// What one group of the auth file grants.
#[derive(Debug, Clone, Default)]
pub(super) struct Grant {
    pub(super) operations: Vec<Operation>,
    /// The search spaces named, `"*"` among them for every one.
    pub(super) search_spaces: Vec<String>,
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
    /// `name` with the union of what `grants` give: no grant at all is a known caller with no rights.
    pub(super) fn with_grants<'a>(name: String, grants: impl IntoIterator<Item = &'a Grant>) -> Principal {
        let mut operations = Vec::new();
        let mut spaces: Option<Vec<String>> = Some(Vec::new());
        for grant in grants {
            operations.extend(grant.operations.iter().copied());
            if grant.search_spaces.iter().any(|s| s == "*") {
                spaces = None;
            } else if let Some(list) = spaces.as_mut() {
                list.extend(grant.search_spaces.iter().cloned());
            }
        }
        Principal { name, operations, search_spaces: spaces }
    }

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

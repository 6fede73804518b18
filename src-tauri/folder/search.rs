//! Where a folder's searches go: the search backend's configuration of the same search space (its active one
//! when that is of the space, else its first), remembered per search space until the backend changes or no
//! longer has it.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use studio_model::BackendError;

use super::model::SearchTarget;

/// The search backend's configuration id for each search space asked for.
#[derive(Default)]
pub struct Matches(Mutex<HashMap<String, i32>>);

impl Matches {
    fn held(&self) -> MutexGuard<'_, HashMap<String, i32>> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Forgets every match (the search backend changed).
    pub fn clear(&self) {
        self.held().clear();
    }

    /// Forgets the match of `space` (its configuration was not found there any more).
    pub fn forget(&self, space: &str) {
        self.held().remove(space);
    }

    /// The id of `target`'s configuration of search space `space`; `NotFound` that says so when it has none.
    pub async fn id(&self, target: &SearchTarget, space: &str) -> Result<i32, BackendError> {
        if let Some(id) = self.held().get(space) {
            return Ok(*id);
        }
        let list = target.backend.list_configurations().await?;
        let of_space = |id: &Option<i32>| {
            list.configurations.iter().find(|c| c.id == *id && c.config.search_space == space).and_then(|c| c.id)
        };
        let found = of_space(&list.active_id)
            .or_else(|| list.configurations.iter().find(|c| c.config.search_space == space).and_then(|c| c.id));
        let id = found.ok_or_else(|| no_such_space(&target.name, space))?;
        self.held().insert(space.to_owned(), id);
        Ok(id)
    }
}

/// The answer when the search backend has no configuration of the file's search space.
pub fn no_such_space(target: &str, space: &str) -> BackendError {
    BackendError::NotFound(format!(
        "{target} has no configuration of search space `{space}` to search with: choose another backend for the \
         preview, or bring the search space to {target} first"
    ))
}

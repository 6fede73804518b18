//! What the resources' handlers share: the state they are handed, and the small helpers that word their
//! answers. It sits below every resource module, which imports it, so that imports run one way.

use std::sync::Arc;

use studio_model::{Backend, Caller};

use crate::auth::{Auth, Operation, Principal};
use crate::error::AppError;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub backend: Arc<dyn Backend>,
    pub auth: Arc<Auth>,
}

impl AppState {
    /// Checks that `principal` may do `op` on configuration `id`, reading its search space only when the
    /// principal is limited to some search spaces.
    pub async fn authorize(&self, principal: &Principal, op: Operation, id: i32) -> Result<(), AppError> {
        principal.require(op)?;
        if !principal.has_all_spaces() {
            let config = self.backend.get_configuration(id).await?;
            principal.require_space(&config.config.search_space)?;
        }
        Ok(())
    }
}

pub fn caller(principal: &Principal) -> Caller {
    Caller { user: principal.name.clone() }
}

/// `1 configuration`, `3 configurations`: a count with its noun.
pub fn counted(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// `took N ms` for a duration, as search answers report it.
pub fn took(start: std::time::Instant) -> String {
    format!("took {} ms", start.elapsed().as_millis())
}

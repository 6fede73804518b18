//! One module per resource; each handler extracts, checks the caller's rights, calls the backend once and
//! wraps the answer. No logic of the API lives here beyond that. A handler's `#[utoipa::path]` is its one
//! declaration: its module's `routes()` lists it with `routes!`, which gives both its route and its entry
//! in the OpenAPI document, so the two cannot disagree.

pub mod configurations;
pub mod search;
pub mod searchspaces;

use std::sync::Arc;

use studio_model::{Backend, Caller};
use utoipa_axum::router::OpenApiRouter;

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

/// Every operation of the API, with paths relative to `/api`.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().merge(configurations::routes()).merge(search::routes()).merge(searchspaces::routes())
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

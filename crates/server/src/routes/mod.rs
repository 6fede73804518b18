//! One module per resource; each handler extracts, checks the caller's rights, calls the backend once and
//! wraps the answer. No logic of the API lives here beyond that. A handler's `#[utoipa::path]` is its one
//! declaration: its module's `routes()` lists it with `routes!`, which gives both its route and its entry
//! in the OpenAPI document, so the two cannot disagree.

pub mod configurations;
pub mod search;
pub mod searchspaces;
mod shared;

use utoipa_axum::router::OpenApiRouter;

pub use shared::AppState;

/// Every operation of the API, with paths relative to `/api`.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().merge(configurations::routes()).merge(search::routes()).merge(searchspaces::routes())
}

//! `GET /api/searchspaces` (docs/api.md, Search spaces): the search spaces the backend can search, with their facet
//! fields, so an editor can offer them.

use axum::extract::State;
use axum::{Extension, Json};
use serde::Serialize;
use studio_model::SearchSpace;
use utoipa::ToSchema;

use super::{counted, AppState};
use crate::auth::{Operation, Principal};
use crate::error::{AppError, ErrorBody};

/// The search spaces the caller may use.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchSpacesResponse {
    pub search_spaces: Vec<SearchSpace>,
    pub message: String,
}

#[utoipa::path(get, path = "/api/searchspaces", tag = "extensions",
    responses((status = 200, body = SearchSpacesResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
) -> Result<Json<SearchSpacesResponse>, AppError> {
    p.require(Operation::Read)?;
    let search_spaces: Vec<_> =
        s.backend.search_spaces().await?.into_iter().filter(|sp| p.may_use_space(&sp.id)).collect();
    let message = counted(search_spaces.len(), "search space", "search spaces");
    Ok(Json(SearchSpacesResponse { search_spaces, message }))
}

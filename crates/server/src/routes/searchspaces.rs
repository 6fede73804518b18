//! `GET /api/searchspaces` (docs/api.md, Search spaces): the search spaces the backend can search, with their facet
//! fields, so an editor can offer them; and `GET /api/searchspaces/{searchSpaceId}/facethealth` (Facet health):
//! how well each of those fields serves as a facet.

use axum::extract::{Path, State};
use axum::{Extension, Json};
use serde::Serialize;
use studio_model::{BackendError, FacetHealth, SearchSpace};
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::shared::{counted, AppState};
use crate::auth::{Operation, Principal};
use crate::error::{AppError, ErrorBody};

/// The search-space operations, each routed and documented by its `#[utoipa::path]`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(facet_health))
}

/// The search spaces the caller may use.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchSpacesResponse {
    pub search_spaces: Vec<SearchSpace>,
    pub message: String,
}

#[utoipa::path(get, path = "/searchspaces", tag = "extensions",
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

/// The facet health of a search space's fields.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FacetHealthResponse {
    #[serde(flatten)]
    pub health: FacetHealth,
    pub message: String,
}

#[utoipa::path(get, path = "/searchspaces/{searchSpaceId}/facethealth", tag = "extensions",
    params(("searchSpaceId" = String, Path, description = "The search space")),
    responses((status = 200, body = FacetHealthResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn facet_health(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    Path(space): Path<String>,
) -> Result<Json<FacetHealthResponse>, AppError> {
    p.require(Operation::Read)?;
    // A search space the caller may not use is answered as one that does not exist.
    if !p.may_use_space(&space) {
        return Err(BackendError::NotFound(format!("search space {space} does not exist")).into());
    }
    let health = s.backend.facet_health(&space).await?;
    let message = counted(health.fields.len(), "field", "fields");
    Ok(Json(FacetHealthResponse { health, message }))
}

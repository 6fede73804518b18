//! Operations 7–9 (docs/api.md, Operations): similar documents, recommendations and search through a configuration.

use std::time::Instant;

use axum::extract::State;
use axum::{Extension, Json};
use serde::Serialize;
use studio_model::{
    Document, RecommendQuery, Recommendations, SearchPage, SearchRequest, SearchResponse, SimilarQuery,
};
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::shared::{took, AppState};
use crate::auth::{Operation, Principal};
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiQuery, ConfigId, JsonBody};

/// The search operations, each routed and documented by its `#[utoipa::path]`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(similar)).routes(routes!(recommendations)).routes(routes!(search))
}

/// Documents similar to one document.
#[derive(Serialize, ToSchema)]
pub struct SimilarResponse {
    /// `took N ms`.
    pub message: String,
    pub result: Vec<Document>,
}

#[utoipa::path(get, path = "/configurations/{configId}/getSimilar", tag = "search",
    params(("configId" = i32, Path, description = "Configuration used for the suggestion", example = 1), SimilarQuery),
    responses((status = 200, body = SimilarResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn similar(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    ConfigId(id): ConfigId,
    ApiQuery(query): ApiQuery<SimilarQuery>,
) -> Result<Json<SimilarResponse>, AppError> {
    s.authorize(&p, Operation::Search, id).await?;
    let start = Instant::now();
    let result = s.backend.similar_documents(id, query).await?;
    Ok(Json(SimilarResponse { message: took(start), result }))
}

#[utoipa::path(get, path = "/configurations/{configId}/getRecommendations", tag = "search",
    params(("configId" = i32, Path, description = "Configuration used for recommending", example = 1), RecommendQuery),
    responses((status = 200, body = Recommendations), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn recommendations(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    ConfigId(id): ConfigId,
    ApiQuery(query): ApiQuery<RecommendQuery>,
) -> Result<Json<Recommendations>, AppError> {
    s.authorize(&p, Operation::Search, id).await?;
    let start = Instant::now();
    let mut answer = s.backend.recommendations(id, query).await?;
    answer.message = Some(took(start));
    Ok(Json(answer))
}

#[utoipa::path(post, path = "/configurations/{configId}/search", tag = "search",
    params(("configId" = i32, Path, description = "Configuration used for the search", example = 1)),
    request_body(content = SearchRequest),
    responses((status = 200, body = SearchResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody)))]
pub async fn search(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    ConfigId(id): ConfigId,
    body: JsonBody,
) -> Result<Json<SearchPage>, AppError> {
    s.authorize(&p, Operation::Search, id).await?;
    let request: SearchRequest = body.typed()?;
    // The preview's settings may name another search space: the caller must be allowed to use that one too.
    if let Some(space) = request.config.as_ref().and_then(|c| c.get("searchSpace")).and_then(|v| v.as_str()) {
        if !space.trim().is_empty() {
            p.require_space(space)?;
        }
    }
    if let Some(start) = request.start.filter(|s| *s < 0) {
        return Err(AppError::bad_request(format!("field `start` must be 0 or more (it was {start})")));
    }
    let start = Instant::now();
    // Written as a `SearchResponse` is, its documents in this API's shape as the backend writes them (the local
    // engine straight from the store).
    let mut answer = s.backend.search_written(id, request).await?;
    answer.message = took(start);
    Ok(Json(answer))
}

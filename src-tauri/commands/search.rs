//! Operations 7–9 (docs/api.md, Operations) and the search-space listing, over the current backend.

use studio_model::{
    Document, FacetHealth, RecommendQuery, Recommendations, SearchRequest, SearchResponse, SearchSpace, SimilarQuery,
};
use tauri::State;

use crate::error::Answer;
use crate::state::BackendSlot;

#[tauri::command]
pub async fn similar_documents(slot: State<'_, BackendSlot>, id: i32, query: SimilarQuery) -> Answer<Vec<Document>> {
    Ok(slot.get().similar_documents(id, query).await?)
}

#[tauri::command]
pub async fn recommendations(slot: State<'_, BackendSlot>, id: i32, query: RecommendQuery) -> Answer<Recommendations> {
    Ok(slot.get().recommendations(id, query).await?)
}

#[tauri::command]
pub async fn search(slot: State<'_, BackendSlot>, id: i32, request: SearchRequest) -> Answer<SearchResponse> {
    Ok(slot.get().search(id, request).await?)
}

#[tauri::command]
pub async fn search_spaces(slot: State<'_, BackendSlot>) -> Answer<Vec<SearchSpace>> {
    Ok(slot.get().search_spaces().await?)
}

#[tauri::command]
pub async fn facet_health(slot: State<'_, BackendSlot>, space: String) -> Answer<FacetHealth> {
    Ok(slot.get().facet_health(&space).await?)
}

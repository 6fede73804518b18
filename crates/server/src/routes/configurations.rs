//! Operations 1–6 and the configuration extensions (docs/api.md, Operations).

use axum::extract::State;
use axum::{Extension, Json};
use serde::Serialize;
use serde_json::Value;
use studio_model::{Configuration, FieldError, LogEntry};
use utoipa::ToSchema;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::shared::{caller, counted, AppState};
use crate::auth::{Operation, Principal};
use crate::error::{AppError, ErrorBody};
use crate::extract::{ConfigId, JsonBody};

/// One configuration.
#[derive(Serialize, ToSchema)]
pub struct ConfigurationResponse {
    pub configuration: Configuration,
    pub message: String,
}

/// Every configuration the caller may see, and the active id.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigurationListResponse {
    pub configurations: Vec<Configuration>,
    pub active_id: Option<i32>,
    pub message: String,
}

/// The visible configurations.
#[derive(Serialize, ToSchema)]
pub struct VisibleResponse {
    pub configurations: Vec<Configuration>,
    pub message: String,
}

/// The answer of create and update: the stored configuration and each key that could not be stored.
#[derive(Serialize, ToSchema)]
pub struct WriteResponse {
    pub message: String,
    pub config: Configuration,
    pub errors: Vec<FieldError>,
}

/// History of one configuration, newest first.
#[derive(Serialize, ToSchema)]
pub struct LogsResponse {
    pub logs: Vec<LogEntry>,
    pub message: String,
}

/// A plain confirmation.
#[derive(Serialize, ToSchema)]
pub struct MessageResponse {
    pub message: String,
}

/// The configuration operations, each routed and documented by its `#[utoipa::path]`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(default_settings))
        .routes(routes!(active))
        .routes(routes!(visible))
        .routes(routes!(get, update, delete))
        .routes(routes!(set_active))
        .routes(routes!(logs))
}

fn one(configuration: Configuration, message: String) -> Json<ConfigurationResponse> {
    Json(ConfigurationResponse { configuration, message })
}

#[utoipa::path(get, path = "/configurations/default", tag = "configurations",
    responses((status = 200, body = ConfigurationResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn default_settings(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
) -> Result<Json<ConfigurationResponse>, AppError> {
    p.require(Operation::Read)?;
    Ok(one(s.backend.default_configuration().await?, "default settings".into()))
}

#[utoipa::path(get, path = "/configurations", tag = "configurations",
    responses((status = 200, body = ConfigurationListResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
) -> Result<Json<ConfigurationListResponse>, AppError> {
    p.require(Operation::Read)?;
    let list = s.backend.list_configurations().await?;
    let configurations: Vec<_> =
        list.configurations.into_iter().filter(|c| p.may_use_space(&c.config.search_space)).collect();
    let message = counted(configurations.len(), "configuration", "configurations");
    Ok(Json(ConfigurationListResponse { configurations, active_id: list.active_id, message }))
}

#[utoipa::path(get, path = "/configurations/active", tag = "configurations",
    responses((status = 200, body = ConfigurationResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn active(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
) -> Result<Json<ConfigurationResponse>, AppError> {
    p.require(Operation::Read)?;
    let config = s.backend.active_configuration().await?;
    p.require_space(&config.config.search_space)?;
    let message = format!("configuration {} is active", config.id.unwrap_or_default());
    Ok(one(config, message))
}

#[utoipa::path(get, path = "/configurations/visible", tag = "configurations",
    responses((status = 200, body = VisibleResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn visible(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
) -> Result<Json<VisibleResponse>, AppError> {
    p.require(Operation::Read)?;
    let configurations: Vec<_> = s
        .backend
        .visible_configurations()
        .await?
        .into_iter()
        .filter(|c| p.may_use_space(&c.config.search_space))
        .collect();
    let message = counted(configurations.len(), "visible configuration", "visible configurations");
    Ok(Json(VisibleResponse { configurations, message }))
}

#[utoipa::path(get, path = "/configurations/{configId}", tag = "configurations",
    params(("configId" = i32, Path, description = "Configuration id", example = 1)),
    responses((status = 200, body = ConfigurationResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    ConfigId(id): ConfigId,
) -> Result<Json<ConfigurationResponse>, AppError> {
    p.require(Operation::Read)?;
    let config = s.backend.get_configuration(id).await?;
    p.require_space(&config.config.search_space)?;
    Ok(one(config, format!("configuration {id}")))
}

/// The search space a write body names, if it names one as a string.
fn body_space(body: &Option<Value>) -> Option<&str> {
    body.as_ref()?.get("config")?.get("searchSpace")?.as_str()
}

fn write_message(verb: &str, id: Option<i32>, errors: &[FieldError]) -> String {
    let id = id.unwrap_or_default();
    match errors.len() {
        0 => format!("{verb} configuration {id}"),
        n => format!(
            "{verb} configuration {id}; {} not stored (see errors)",
            counted(n, "invalid key was", "invalid keys were")
        ),
    }
}

#[utoipa::path(post, path = "/configurations", tag = "configurations",
    request_body(content = Configuration, description = "A configuration envelope; the default template is a good start"),
    responses((status = 200, body = WriteResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody), (status = 507, body = ErrorBody)))]
pub async fn create(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    body: JsonBody,
) -> Result<Json<WriteResponse>, AppError> {
    p.require(Operation::Write)?;
    if let Some(space) = body_space(&body.0) {
        p.require_space(space)?;
    }
    let outcome = s.backend.create_configuration(&caller(&p), body.0.unwrap_or(Value::Null)).await?;
    let message = write_message("created", outcome.config.id, &outcome.errors);
    Ok(Json(WriteResponse { message, config: outcome.config, errors: outcome.errors }))
}

#[utoipa::path(put, path = "/configurations/{configId}", tag = "configurations",
    params(("configId" = i32, Path, description = "Configuration id", example = 1)),
    request_body(content = Configuration, description = "Keys absent from the body keep their values"),
    responses((status = 200, body = WriteResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody), (status = 507, body = ErrorBody)))]
pub async fn update(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    ConfigId(id): ConfigId,
    body: JsonBody,
) -> Result<Json<WriteResponse>, AppError> {
    s.authorize(&p, Operation::Write, id).await?;
    if let Some(space) = body_space(&body.0) {
        p.require_space(space)?;
    }
    let outcome = s.backend.update_configuration(&caller(&p), id, body.0.unwrap_or(Value::Null)).await?;
    let message = write_message("updated", outcome.config.id, &outcome.errors);
    Ok(Json(WriteResponse { message, config: outcome.config, errors: outcome.errors }))
}

#[utoipa::path(post, path = "/configurations/{configId}/set", tag = "extensions",
    params(("configId" = i32, Path, description = "Configuration id", example = 1)),
    responses((status = 200, body = ConfigurationResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 507, body = ErrorBody)))]
pub async fn set_active(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    ConfigId(id): ConfigId,
) -> Result<Json<ConfigurationResponse>, AppError> {
    s.authorize(&p, Operation::Write, id).await?;
    Ok(one(s.backend.set_active(&caller(&p), id).await?, format!("configuration {id} is now active")))
}

#[utoipa::path(delete, path = "/configurations/{configId}", tag = "extensions",
    params(("configId" = i32, Path, description = "Configuration id", example = 1)),
    responses((status = 200, body = MessageResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 507, body = ErrorBody)))]
pub async fn delete(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    ConfigId(id): ConfigId,
) -> Result<Json<MessageResponse>, AppError> {
    s.authorize(&p, Operation::Write, id).await?;
    s.backend.delete_configuration(&caller(&p), id).await?;
    Ok(Json(MessageResponse { message: format!("deleted configuration {id}") }))
}

#[utoipa::path(get, path = "/configurations/{configId}/logs", tag = "extensions",
    params(("configId" = i32, Path, description = "Configuration id", example = 1)),
    responses((status = 200, body = LogsResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn logs(
    State(s): State<AppState>,
    Extension(p): Extension<Principal>,
    ConfigId(id): ConfigId,
) -> Result<Json<LogsResponse>, AppError> {
    p.require(Operation::Read)?;
    let logs = s.backend.configuration_logs(id).await?;
    if let Some(entry) = logs.first() {
        p.require_space(&entry.config.config.search_space)?;
    }
    let message = format!("{} of configuration {id}", counted(logs.len(), "change", "changes"));
    Ok(Json(LogsResponse { logs, message }))
}

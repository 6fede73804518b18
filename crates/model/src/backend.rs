//! The one interface over every way of reaching configurations and search: the local store, a remote
//! server, and anything put in front of them. One method per operation of the API and per extension
//! (docs/api.md, Operations); transports adapt it and add nothing of their own.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::config::Configuration;
use crate::document::{
    Document, FacetHealth, RecommendQuery, Recommendations, SearchPage, SearchRequest, SearchResponse, SearchSpace,
    SimilarQuery,
};
use crate::error::{BackendError, FieldError};
use crate::offers::Offers;

/// Who asks for a change; their name becomes `user` of what they create and of history rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub user: String,
}

/// Every configuration and which one is active.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConfigurationList {
    pub configurations: Vec<Configuration>,
    pub active_id: Option<i32>,
}

/// The result of a create or update: what was stored, and each key that could not be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct WriteOutcome {
    pub config: Configuration,
    pub errors: Vec<FieldError>,
}

/// What a history row records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "kebab-case")]
pub enum LogAction {
    Create,
    Update,
    Delete,
    SetActive,
    /// An action another server records that this project does not know.
    #[serde(other)]
    Other,
}

impl LogAction {
    pub fn as_str(self) -> &'static str {
        match self {
            LogAction::Create => "create",
            LogAction::Update => "update",
            LogAction::Delete => "delete",
            LogAction::SetActive => "set-active",
            LogAction::Other => "other",
        }
    }
}

/// One change of a configuration, with the configuration as it stood after it (before it, for a delete).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct LogEntry {
    /// UTC, ISO 8601 with milliseconds.
    pub at: String,
    pub user: String,
    pub action: LogAction,
    pub config: Configuration,
}

/// Configurations and search over them. Every method is one operation of docs/api.md, Operations.
#[async_trait]
pub trait Backend: Send + Sync {
    /// Operation 1: the default template.
    async fn default_configuration(&self) -> Result<Configuration, BackendError>;
    /// Operation 2: every configuration, oldest first, and the active id.
    async fn list_configurations(&self) -> Result<ConfigurationList, BackendError>;
    /// Operation 3: the active configuration; `NotFound` when there is none.
    async fn active_configuration(&self) -> Result<Configuration, BackendError>;
    /// Operation 4.
    async fn get_configuration(&self, id: i32) -> Result<Configuration, BackendError>;
    /// Operation 5, with the semantics of docs/api.md, Create and update.
    async fn create_configuration(&self, caller: &Caller, body: Value) -> Result<WriteOutcome, BackendError>;
    /// Operation 6: keys absent from the body keep their values.
    async fn update_configuration(&self, caller: &Caller, id: i32, body: Value) -> Result<WriteOutcome, BackendError>;
    /// Operation 7: documents similar to one document, never the document itself.
    async fn similar_documents(&self, id: i32, query: SimilarQuery) -> Result<Vec<Document>, BackendError>;
    /// Operation 8.
    async fn recommendations(&self, id: i32, query: RecommendQuery) -> Result<Recommendations, BackendError>;
    /// Operation 9.
    async fn search(&self, id: i32, request: SearchRequest) -> Result<SearchResponse, BackendError>;
    /// Operation 9 with each document of the page as the backend wrote it, for a pull's copy. By default the
    /// documents of [`Backend::search`] written anew; a remote server's answer is read without reading them.
    async fn search_page(&self, id: i32, request: SearchRequest) -> Result<SearchPage, BackendError> {
        written(self.search(id, request).await?)
    }
    /// Operation 9 as a server of this API sends it: the documents in this API's shape (another server's read as
    /// [`Backend::search`] reads them, its missing fields given their defaults), written by the backend as it
    /// likes. By default the answer of [`Backend::search`] written; the local store writes its documents straight
    /// from their rows.
    async fn search_written(&self, id: i32, request: SearchRequest) -> Result<SearchPage, BackendError> {
        written(self.search(id, request).await?)
    }
    /// Makes a configuration the active one.
    async fn set_active(&self, caller: &Caller, id: i32) -> Result<Configuration, BackendError>;
    /// The configurations whose `visible` is true.
    async fn visible_configurations(&self) -> Result<Vec<Configuration>, BackendError>;
    /// History of one configuration, newest first.
    async fn configuration_logs(&self, id: i32) -> Result<Vec<LogEntry>, BackendError>;
    /// Deletes a configuration; `Conflict` for the active one.
    async fn delete_configuration(&self, caller: &Caller, id: i32) -> Result<(), BackendError>;
    /// The search spaces this backend can search, with their facet fields.
    async fn search_spaces(&self) -> Result<Vec<SearchSpace>, BackendError>;
    /// How well each facet field of search space `space` serves as a facet; `NotFound` for an unknown space.
    async fn facet_health(&self, space: &str) -> Result<FacetHealth, BackendError>;
    /// Which extensions this backend offers, as far as it knows now. Never fails: what cannot be known
    /// yet counts as offered.
    async fn offers(&self) -> Offers {
        Offers::all()
    }
}

/// A typed search answer with its documents written.
fn written(answer: SearchResponse) -> Result<SearchPage, BackendError> {
    SearchPage::written(answer).map_err(|e| BackendError::Internal(format!("cannot write a document: {e}")))
}

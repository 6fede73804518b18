//! [`RemoteBackend`]: the `Backend` trait over a [`RemoteClient`]. Each method delegates and maps the
//! client's [`RemoteError`](crate::RemoteError) into a `BackendError` (the one mapping lives in
//! `error.rs`); nothing else happens here.

use async_trait::async_trait;
use serde_json::Value;
use std::sync::Arc;

use studio_model::{
    Backend, BackendError, Caller, Configuration, ConfigurationList, Document, FacetHealth, LogEntry, Offers,
    RecommendQuery, Recommendations, SearchRequest, SearchResponse, SearchSpace, SimilarQuery, WriteOutcome,
};

use crate::client::RemoteClient;
use crate::error::RemoteError;
use crate::options::RemoteOptions;
use crate::session::{SignIn, TokenKeeper};

/// Configurations and search on a remote server of the API.
///
/// The remote server attributes changes to the user of the access token, so the [`Caller`] passed to the
/// writing methods is not sent. The server keeps no state in this value: when the server comes back after
/// an outage, the next request simply succeeds.
#[derive(Clone)]
pub struct RemoteBackend {
    client: RemoteClient,
}

impl RemoteBackend {
    /// A backend over the server at `base_url` with the default timeouts and retries.
    pub fn new(base_url: &str, token: Option<&str>) -> Result<Self, RemoteError> {
        Self::with_options(base_url, token, RemoteOptions::default())
    }

    /// A backend over the server at `base_url` with the given timeouts and retries.
    pub fn with_options(base_url: &str, token: Option<&str>, options: RemoteOptions) -> Result<Self, RemoteError> {
        Ok(RemoteBackend { client: RemoteClient::new(base_url, token, options)? })
    }

    /// A backend over the server at `base_url` that signs in as `sign_in` says; `keeper` is told about
    /// every new set of a provider's tokens.
    pub fn signed_in(
        base_url: &str,
        sign_in: SignIn,
        options: RemoteOptions,
        keeper: Option<Arc<dyn TokenKeeper>>,
    ) -> Result<Self, RemoteError> {
        Ok(RemoteBackend { client: RemoteClient::signed_in(base_url, sign_in, options, keeper)? })
    }

    /// The client underneath, whose methods answer with [`RemoteError`] instead of `BackendError`.
    pub fn client(&self) -> &RemoteClient {
        &self.client
    }
}

#[async_trait]
impl Backend for RemoteBackend {
    async fn default_configuration(&self) -> Result<Configuration, BackendError> {
        Ok(self.client.default_configuration().await?)
    }

    async fn list_configurations(&self) -> Result<ConfigurationList, BackendError> {
        Ok(self.client.list_configurations().await?)
    }

    async fn active_configuration(&self) -> Result<Configuration, BackendError> {
        Ok(self.client.active_configuration().await?)
    }

    async fn get_configuration(&self, id: i32) -> Result<Configuration, BackendError> {
        Ok(self.client.get_configuration(id).await?)
    }

    async fn create_configuration(&self, _caller: &Caller, body: Value) -> Result<WriteOutcome, BackendError> {
        Ok(self.client.create_configuration(body).await?)
    }

    async fn update_configuration(&self, _caller: &Caller, id: i32, body: Value) -> Result<WriteOutcome, BackendError> {
        Ok(self.client.update_configuration(id, body).await?)
    }

    async fn similar_documents(&self, id: i32, query: SimilarQuery) -> Result<Vec<Document>, BackendError> {
        Ok(self.client.similar_documents(id, &query).await?)
    }

    async fn recommendations(&self, id: i32, query: RecommendQuery) -> Result<Recommendations, BackendError> {
        Ok(self.client.recommendations(id, &query).await?)
    }

    async fn search(&self, id: i32, request: SearchRequest) -> Result<SearchResponse, BackendError> {
        Ok(self.client.search(id, &request).await?)
    }

    async fn set_active(&self, _caller: &Caller, id: i32) -> Result<Configuration, BackendError> {
        Ok(self.client.set_active(id).await?)
    }

    async fn visible_configurations(&self) -> Result<Vec<Configuration>, BackendError> {
        Ok(self.client.visible_configurations().await?)
    }

    async fn configuration_logs(&self, id: i32) -> Result<Vec<LogEntry>, BackendError> {
        Ok(self.client.configuration_logs(id).await?)
    }

    async fn delete_configuration(&self, _caller: &Caller, id: i32) -> Result<(), BackendError> {
        Ok(self.client.delete_configuration(id).await?)
    }

    async fn search_spaces(&self) -> Result<Vec<SearchSpace>, BackendError> {
        Ok(self.client.search_spaces().await?)
    }

    async fn facet_health(&self, space: &str) -> Result<FacetHealth, BackendError> {
        Ok(self.client.facet_health(space).await?)
    }

    async fn offers(&self) -> Offers {
        self.client.offers().await
    }
}

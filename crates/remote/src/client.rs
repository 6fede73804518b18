//! [`RemoteClient`]: every operation of api.md and decisions.md §5 as one HTTP request to a remote server,
//! answering with [`RemoteError`]s that keep what the server meant. Each method only names its request and
//! unwraps its answer; sending, retrying and reading live in the transport.

use reqwest::Method;
use serde_json::Value;
use studio_model::{
    Configuration, ConfigurationList, Document, LogEntry, RecommendQuery, Recommendations, SearchRequest,
    SearchResponse, SearchSpace, SimilarQuery, WriteOutcome,
};

use crate::error::RemoteError;
use crate::options::RemoteOptions;
use crate::transport::{Call, Repeat, Transport};
use crate::wire;

/// A client of one remote server of the API. Cheap to clone; clones share one connection pool.
///
/// Changes are attributed by the server to the user of the access token, so no caller is passed here.
#[derive(Clone)]
pub struct RemoteClient {
    transport: Transport,
}

fn config_path(id: i32, rest: &str) -> String {
    format!("/api/configurations/{id}{rest}")
}

impl RemoteClient {
    /// A client of the server at `base_url` (`http(s)://host[:port]`, the part before `/api`). `token` is
    /// sent as `Authorization: Bearer <token>`; with `None` no Authorization header is sent.
    pub fn new(base_url: &str, token: Option<&str>, options: RemoteOptions) -> Result<Self, RemoteError> {
        Ok(RemoteClient { transport: Transport::new(base_url, token, options)? })
    }

    /// The server's base URL, without a trailing slash.
    pub fn base_url(&self) -> &str {
        self.transport.base()
    }

    /// Operation 1: the default template.
    pub async fn default_configuration(&self) -> Result<Configuration, RemoteError> {
        let answer: wire::OneConfiguration = self.transport.send(Call::get("/api/configurations/default".into())).await?;
        Ok(answer.configuration)
    }

    /// Operation 2.
    pub async fn list_configurations(&self) -> Result<ConfigurationList, RemoteError> {
        let answer: wire::ConfigurationList = self.transport.send(Call::get("/api/configurations".into())).await?;
        Ok(ConfigurationList { configurations: answer.configurations, active_id: answer.active_id })
    }

    /// Operation 3.
    pub async fn active_configuration(&self) -> Result<Configuration, RemoteError> {
        let answer: wire::OneConfiguration = self.transport.send(Call::get("/api/configurations/active".into())).await?;
        Ok(answer.configuration)
    }

    /// Operation 4.
    pub async fn get_configuration(&self, id: i32) -> Result<Configuration, RemoteError> {
        let answer: wire::OneConfiguration = self.transport.send(Call::get(config_path(id, ""))).await?;
        Ok(answer.configuration)
    }

    /// Operation 5. Sent once: a create is retried only when it could not be sent at all.
    pub async fn create_configuration(&self, body: Value) -> Result<WriteOutcome, RemoteError> {
        let call = Call::with_body(Method::POST, "/api/configurations".into(), body, Repeat::Once);
        let answer: wire::Written = self.transport.send(call).await?;
        Ok(WriteOutcome { config: answer.config, errors: answer.errors })
    }

    /// Operation 6.
    pub async fn update_configuration(&self, id: i32, body: Value) -> Result<WriteOutcome, RemoteError> {
        let call = Call::with_body(Method::PUT, config_path(id, ""), body, Repeat::Safe);
        let answer: wire::Written = self.transport.send(call).await?;
        Ok(WriteOutcome { config: answer.config, errors: answer.errors })
    }

    /// Operation 7.
    pub async fn similar_documents(&self, id: i32, query: &SimilarQuery) -> Result<Vec<Document>, RemoteError> {
        let mut call = Call::get(config_path(id, "/getSimilar"));
        call.query.push(("uri", query.uri.clone()));
        if let Some(number) = query.number {
            call.query.push(("number", number.to_string()));
        }
        if let Some(similarity) = &query.similarity {
            call.query.push(("similarity", similarity.clone()));
        }
        let answer: wire::Similar = self.transport.send(call).await?;
        Ok(answer.result)
    }

    /// Operation 8.
    pub async fn recommendations(&self, id: i32, query: &RecommendQuery) -> Result<Recommendations, RemoteError> {
        let mut call = Call::get(config_path(id, "/getRecommendations"));
        call.query.push(("uri", query.uri.clone()));
        call.query.push(("recommender", query.recommender.clone()));
        self.transport.send(call).await
    }

    /// Operation 9. A POST, but it only reads, so it is retried like a GET.
    pub async fn search(&self, id: i32, request: &SearchRequest) -> Result<SearchResponse, RemoteError> {
        let body = serde_json::to_value(request).map_err(|e| RemoteError::Client(format!("search body: {e}")))?;
        self.transport.send(Call::with_body(Method::POST, config_path(id, "/search"), body, Repeat::Safe)).await
    }

    /// Makes a configuration the active one (`POST /api/configurations/{id}/set`). Not repeated after the
    /// server may have seen it: each set-active writes a history row.
    pub async fn set_active(&self, id: i32) -> Result<Configuration, RemoteError> {
        let call = Call { method: Method::POST, path: config_path(id, "/set"), query: Vec::new(), body: None, repeat: Repeat::Once };
        let answer: wire::OneConfiguration = self.transport.send(call).await?;
        Ok(answer.configuration)
    }

    /// `GET /api/configurations/visible`.
    pub async fn visible_configurations(&self) -> Result<Vec<Configuration>, RemoteError> {
        let answer: wire::Visible = self.transport.send(Call::get("/api/configurations/visible".into())).await?;
        Ok(answer.configurations)
    }

    /// `GET /api/configurations/{id}/logs`, newest first.
    pub async fn configuration_logs(&self, id: i32) -> Result<Vec<LogEntry>, RemoteError> {
        let answer: wire::Logs = self.transport.send(Call::get(config_path(id, "/logs"))).await?;
        Ok(answer.logs)
    }

    /// `DELETE /api/configurations/{id}`.
    pub async fn delete_configuration(&self, id: i32) -> Result<(), RemoteError> {
        let call = Call { method: Method::DELETE, path: config_path(id, ""), query: Vec::new(), body: None, repeat: Repeat::Safe };
        let _: wire::Acknowledged = self.transport.send(call).await?;
        Ok(())
    }

    /// `GET /api/searchspaces`.
    pub async fn search_spaces(&self) -> Result<Vec<SearchSpace>, RemoteError> {
        let answer: wire::SearchSpaces = self.transport.send(Call::get("/api/searchspaces".into())).await?;
        Ok(answer.search_spaces)
    }
}

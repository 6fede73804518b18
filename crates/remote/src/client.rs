//! [`RemoteBackend`]: the `Backend` trait over HTTP, every operation of docs/api.md as one request to a
//! remote server. Each operation only names its request and unwraps its answer; sending, retrying and
//! reading live in the transport, which answers with [`RemoteError`]s that keep what the server meant. They
//! become `BackendError`s by `?`, through the one mapping of `error.rs`.

use std::sync::Arc;

use async_trait::async_trait;
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::Value;
use studio_model::{
    Backend, BackendError, Caller, Configuration, ConfigurationList, Document, Extension, FacetHealth, LogEntry,
    Offers, RecommendQuery, Recommendations, SearchPage, SearchRequest, SearchResponse, SearchSpace, SimilarQuery,
    WriteOutcome,
};

use crate::error::RemoteError;
use crate::offers::KnownOffers;
use crate::options::RemoteOptions;
use crate::session::{Session, SignIn, TokenKeeper};
use crate::transport::{Call, Repeat, Transport};
use crate::wire;

/// Configurations and search on one remote server of the API. Cheap to clone; clones share one connection
/// pool and what is known of the server's extensions.
///
/// The remote server attributes changes to the user of the access token, so the [`Caller`] passed to the
/// writing operations is not sent. The server keeps no state in this value: when the server comes back
/// after an outage, the next request simply succeeds.
#[derive(Clone)]
pub struct RemoteBackend {
    transport: Transport,
    offers: Arc<KnownOffers>,
}

fn config_path(id: i32, rest: &str) -> String {
    format!("/api/configurations/{id}{rest}")
}

/// The search operation's request: a POST, but it only reads, so it is retried like a GET.
fn search_call(id: i32, request: &SearchRequest) -> Result<Call, RemoteError> {
    let body = serde_json::to_value(request).map_err(|e| RemoteError::Client(format!("search body: {e}")))?;
    Ok(Call::with_body(Method::POST, config_path(id, "/search"), body, Repeat::Safe))
}

impl RemoteBackend {
    /// A backend over the server at `base_url` (`http(s)://host[:port]`, the part before `/api`) with the
    /// default timeouts and retries. `token` is sent as `Authorization: Bearer <token>`; with `None` no
    /// Authorization header is sent.
    pub fn new(base_url: &str, token: Option<&str>) -> Result<Self, RemoteError> {
        Self::with_options(base_url, token, RemoteOptions::default())
    }

    /// A backend over the server at `base_url` with the given timeouts and retries.
    pub fn with_options(base_url: &str, token: Option<&str>, options: RemoteOptions) -> Result<Self, RemoteError> {
        Self::signed_in(base_url, SignIn::token(token), options, None)
    }

    /// A backend over the server at `base_url` that signs in as `sign_in` says. `keeper` is told about every
    /// new set of a provider's tokens (to keep the refresh token for the next start).
    pub fn signed_in(
        base_url: &str,
        sign_in: SignIn,
        options: RemoteOptions,
        keeper: Option<Arc<dyn TokenKeeper>>,
    ) -> Result<Self, RemoteError> {
        Ok(RemoteBackend { transport: Transport::new(base_url, sign_in, options, keeper)?, offers: Arc::default() })
    }

    /// The server's base URL, without a trailing slash.
    pub fn base_url(&self) -> &str {
        self.transport.base()
    }

    /// Sends a request for an extension, unless the server is known not to offer it; an answer saying it
    /// lacks the extension is remembered.
    async fn extension<T: DeserializeOwned>(&self, extension: Extension, call: Call) -> Result<T, RemoteError> {
        let not_offered = || RemoteError::NotOffered { server: self.base_url().to_owned(), extension };
        if !self.offers.known().offers(extension) {
            return Err(not_offered());
        }
        let result = self.transport.send(call).await;
        if let Err(RemoteError::NotOffered { .. }) = &result {
            self.offers.lacks(extension);
        }
        result
    }

    /// The provider session, when this client signs in through an OpenID Connect provider.
    pub fn session(&self) -> Option<&std::sync::Arc<Session>> {
        self.transport.session()
    }
}

#[async_trait]
impl Backend for RemoteBackend {
    /// Operation 1: the default template.
    async fn default_configuration(&self) -> Result<Configuration, BackendError> {
        let answer: wire::OneConfiguration =
            self.transport.send(Call::get("/api/configurations/default".into())).await?;
        Ok(answer.configuration)
    }

    /// Operation 2.
    async fn list_configurations(&self) -> Result<ConfigurationList, BackendError> {
        let answer: wire::ConfigurationList = self.transport.send(Call::get("/api/configurations".into())).await?;
        Ok(ConfigurationList { configurations: answer.configurations, active_id: answer.active_id })
    }

    /// Operation 3.
    async fn active_configuration(&self) -> Result<Configuration, BackendError> {
        let answer: wire::OneConfiguration =
            self.transport.send(Call::get("/api/configurations/active".into())).await?;
        Ok(answer.configuration)
    }

    /// Operation 4.
    async fn get_configuration(&self, id: i32) -> Result<Configuration, BackendError> {
        let answer: wire::OneConfiguration = self.transport.send(Call::get(config_path(id, ""))).await?;
        Ok(answer.configuration)
    }

    /// Operation 5. Sent once: a create is retried only when it could not be sent at all.
    async fn create_configuration(&self, _caller: &Caller, body: Value) -> Result<WriteOutcome, BackendError> {
        let call = Call::with_body(Method::POST, "/api/configurations".into(), body, Repeat::Once);
        let answer: wire::Written = self.transport.send(call).await?;
        Ok(WriteOutcome { config: answer.config, errors: answer.errors })
    }

    /// Operation 6.
    async fn update_configuration(&self, _caller: &Caller, id: i32, body: Value) -> Result<WriteOutcome, BackendError> {
        let call = Call::with_body(Method::PUT, config_path(id, ""), body, Repeat::Once);
        let answer: wire::Written = self.transport.send(call).await?;
        Ok(WriteOutcome { config: answer.config, errors: answer.errors })
    }

    /// Operation 7.
    async fn similar_documents(&self, id: i32, query: SimilarQuery) -> Result<Vec<Document>, BackendError> {
        let mut call = Call::get(config_path(id, "/getSimilar"));
        call.query.push(("uri", query.uri));
        if let Some(number) = query.number {
            call.query.push(("number", number.to_string()));
        }
        if let Some(similarity) = query.similarity {
            call.query.push(("similarity", similarity));
        }
        if query.explain {
            call.query.push(("explain", "true".to_owned()));
        }
        let answer: wire::Similar = self.transport.send(call).await?;
        Ok(answer.result)
    }

    /// Operation 8.
    async fn recommendations(&self, id: i32, query: RecommendQuery) -> Result<Recommendations, BackendError> {
        let mut call = Call::get(config_path(id, "/getRecommendations"));
        call.query.push(("uri", query.uri));
        call.query.push(("recommender", query.recommender));
        if query.explain {
            call.query.push(("explain", "true".to_owned()));
        }
        Ok(self.transport.send(call).await?)
    }

    /// Operation 9.
    async fn search(&self, id: i32, request: SearchRequest) -> Result<SearchResponse, BackendError> {
        Ok(self.transport.send(search_call(id, &request)?).await?)
    }

    /// Operation 9 as [`RemoteBackend::search`], the page's documents kept as the server wrote them.
    async fn search_page(&self, id: i32, request: SearchRequest) -> Result<SearchPage, BackendError> {
        Ok(self.transport.send(search_call(id, &request)?).await?)
    }

    /// Makes a configuration the active one (`POST /api/configurations/{id}/set`). Not repeated after the
    /// server may have seen it: each set-active writes a history row. Other servers' answers are read
    /// leniently; one that carries no configuration is followed by a read of it.
    async fn set_active(&self, _caller: &Caller, id: i32) -> Result<Configuration, BackendError> {
        let call = Call::without_body(Method::POST, config_path(id, "/set"), Repeat::Once);
        let answer: Value = self.extension(Extension::SetActive, call).await?;
        match wire::set_active_configuration(answer) {
            Some(configuration) => Ok(configuration),
            None => self.get_configuration(id).await,
        }
    }

    /// `GET /api/configurations/visible`, read leniently.
    async fn visible_configurations(&self) -> Result<Vec<Configuration>, BackendError> {
        let answer: Value = self.extension(Extension::Visible, Call::get("/api/configurations/visible".into())).await?;
        Ok(wire::visible_configurations(answer))
    }

    /// `GET /api/configurations/{id}/logs`, newest first, read leniently.
    async fn configuration_logs(&self, id: i32) -> Result<Vec<LogEntry>, BackendError> {
        let answer: Value = self.extension(Extension::Logs, Call::get(config_path(id, "/logs"))).await?;
        Ok(wire::log_entries(answer))
    }

    /// `DELETE /api/configurations/{id}`.
    async fn delete_configuration(&self, _caller: &Caller, id: i32) -> Result<(), BackendError> {
        let call = Call::without_body(Method::DELETE, config_path(id, ""), Repeat::Safe);
        let _: wire::Acknowledged = self.extension(Extension::Delete, call).await?;
        Ok(())
    }

    /// `GET /api/searchspaces`.
    async fn search_spaces(&self) -> Result<Vec<SearchSpace>, BackendError> {
        let answer: wire::SearchSpaces =
            self.extension(Extension::SearchSpaces, Call::get("/api/searchspaces".into())).await?;
        Ok(answer.search_spaces)
    }

    /// `GET /api/searchspaces/{space}/facethealth`.
    async fn facet_health(&self, space: &str) -> Result<FacetHealth, BackendError> {
        let path = format!("/api/searchspaces/{}/facethealth", path_segment(space));
        Ok(self.extension(Extension::FacetHealth, Call::get(path)).await?)
    }

    /// What the server offers: the paths its OpenAPI document at `/api-docs` lists (read once), less every
    /// extension it has answered that it lacks. A server without a readable document offers what it has
    /// not refused.
    async fn offers(&self) -> Offers {
        self.offers.documented(|| self.transport.send::<Value>(Call::public_get("/api-docs".into()))).await;
        self.offers.known()
    }
}

/// `text` as one segment of a URL path: everything but unreserved characters percent-encoded.
fn path_segment(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

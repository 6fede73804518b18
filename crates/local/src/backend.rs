//! [`LocalBackend`]: the `Backend` trait over the local store. SQLite calls block, so each operation runs
//! on tokio's blocking pool with a connection of its own.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use rusqlite::Connection;
use serde_json::Value;
use studio_model::{
    Backend, BackendError, Caller, Configuration, ConfigurationList, Document, FacetHealth, LogEntry, RecommendQuery,
    Recommendations, SearchPage, SearchRequest, SearchResponse, SearchSpace, SimilarQuery, WriteOutcome,
};

use crate::configs;
use crate::error::StoreError;
use crate::store::Store;
use studio_engine::{self as search, SearchEngine};

/// Configurations and search over the local SQLite store. Clones share one cache of search indexes.
#[derive(Clone)]
pub struct LocalBackend {
    store: Store,
    engine: Arc<SearchEngine>,
    searched_with: Arc<configs::LastEffective>,
}

/// The person using this machine, as the `user` of what they create locally.
pub fn os_caller() -> Caller {
    let user = ["USER", "LOGNAME", "USERNAME"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| "local".to_owned());
    Caller { user }
}

impl LocalBackend {
    /// A backend over `store` with an empty index cache.
    pub fn new(store: Store) -> Self {
        LocalBackend { store, engine: Arc::new(SearchEngine::new()), searched_with: Arc::default() }
    }

    /// The store this backend reads and writes.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The search engine, with its cached indexes.
    pub fn engine(&self) -> &Arc<SearchEngine> {
        &self.engine
    }

    /// Runs one unit of store work on the blocking pool.
    async fn run<T, F>(&self, work: F) -> Result<T, BackendError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, BackendError> + Send + 'static,
    {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = store.conn()?;
            // A full disk is reported with the store's file named (SQLite's own error names none).
            work(&mut conn).map_err(|e| match e {
                BackendError::InsufficientStorage(_) => StoreError::DiskFull { path: None }.at(store.path()).into(),
                other => other,
            })
        })
        .await
        .map_err(|e| BackendError::Internal(format!("a store task failed: {e}")))?
    }
}

#[async_trait]
impl Backend for LocalBackend {
    async fn default_configuration(&self) -> Result<Configuration, BackendError> {
        Ok(Configuration::template())
    }

    async fn list_configurations(&self) -> Result<ConfigurationList, BackendError> {
        self.run(|c| configs::list(c)).await
    }

    async fn active_configuration(&self) -> Result<Configuration, BackendError> {
        self.run(|c| configs::active(c)).await
    }

    async fn get_configuration(&self, id: i32) -> Result<Configuration, BackendError> {
        self.run(move |c| configs::get(c, id)).await
    }

    async fn create_configuration(&self, caller: &Caller, body: Value) -> Result<WriteOutcome, BackendError> {
        let caller = caller.clone();
        self.run(move |c| configs::create(c, &caller, &body)).await
    }

    async fn update_configuration(&self, caller: &Caller, id: i32, body: Value) -> Result<WriteOutcome, BackendError> {
        let caller = caller.clone();
        self.run(move |c| configs::update(c, &caller, id, &body)).await
    }

    async fn similar_documents(&self, id: i32, query: SimilarQuery) -> Result<Vec<Document>, BackendError> {
        let engine = self.engine.clone();
        self.run(move |c| {
            let config = configs::get(c, id)?;
            Ok(engine.similar(c, &config.config, &query).map_err(StoreError::from)?)
        })
        .await
    }

    async fn recommendations(&self, id: i32, query: RecommendQuery) -> Result<Recommendations, BackendError> {
        let engine = self.engine.clone();
        self.run(move |c| {
            let started = Instant::now();
            let config = configs::get(c, id)?;
            let mut answer = engine.recommend(c, &config.config, &query).map_err(StoreError::from)?;
            answer.message = Some(took(started));
            Ok(answer)
        })
        .await
    }

    async fn search(&self, id: i32, request: SearchRequest) -> Result<SearchResponse, BackendError> {
        // The written page read back, as the engine's typed search does.
        let page = self.search_written(id, request).await?;
        page.read().map_err(|e| BackendError::Internal(format!("cannot read a written document: {e}")))
    }

    async fn search_written(&self, id: i32, request: SearchRequest) -> Result<SearchPage, BackendError> {
        let (engine, searched_with) = (self.engine.clone(), self.searched_with.clone());
        self.run(move |c| {
            let started = Instant::now();
            let effective = searched_with.of(c, id, request.config.as_ref())?;
            let mut page = engine.search_page(c, &effective.config.config, &request).map_err(StoreError::from)?;
            page.message = took(started);
            Ok(page)
        })
        .await
    }

    async fn set_active(&self, caller: &Caller, id: i32) -> Result<Configuration, BackendError> {
        let caller = caller.clone();
        self.run(move |c| configs::set_active(c, &caller, id)).await
    }

    async fn visible_configurations(&self) -> Result<Vec<Configuration>, BackendError> {
        let all = self.list_configurations().await?;
        Ok(all.configurations.into_iter().filter(|c| c.config.visible).collect())
    }

    async fn configuration_logs(&self, id: i32) -> Result<Vec<LogEntry>, BackendError> {
        self.run(move |c| configs::logs(c, id)).await
    }

    async fn delete_configuration(&self, caller: &Caller, id: i32) -> Result<(), BackendError> {
        let caller = caller.clone();
        self.run(move |c| configs::delete(c, &caller, id)).await
    }

    async fn search_spaces(&self) -> Result<Vec<SearchSpace>, BackendError> {
        self.run(|c| Ok(search::search_spaces(c).map_err(StoreError::from)?)).await
    }

    async fn facet_health(&self, space: &str) -> Result<FacetHealth, BackendError> {
        let (engine, space) = (self.engine.clone(), space.to_owned());
        self.run(move |c| Ok(engine.facet_health(c, &space).map_err(StoreError::from)?)).await
    }
}

/// `took N ms`, the message of a search answer.
fn took(started: Instant) -> String {
    format!("took {} ms", started.elapsed().as_millis())
}

//! The local search engine: search with facets, similar documents and recommendations over the documents
//! of the store, through an in-memory index per search space that is cached and rebuilt whenever the
//! store's generation for that search space (or for the global concept scheme) changes, whoever wrote it.
//!
//! Full text is the engine's own index ([`crate::text_index`], beside the documents file), queried on its own; filters
//! and counts happen in memory on roaring bitmaps. This module never writes documents; it only stores a snapshot
//! of an index it built (a cache, see [`snapshot`]), so that the next process to open the store need not rebuild
//! it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use rusqlite::Connection;
use studio_model::{
    Config, Document, FacetHealth, RecommendQuery, Recommendations, SearchPage, SearchRequest, SearchResponse,
    SimilarQuery, RECOMMENDERS, SIMILARITY_PLUGINS,
};

use crate::error::EngineError;
use crate::generation::{read_generation, Generation};
use crate::index::SpaceIndex;
use crate::stamp::Stamp;
use crate::tuning::{EnginePath, PathsTaken, Tuned, Tuning};
use crate::upkeep::Upkeep;
use crate::{explain, fetch, health, recommend, run, similar, snapshot, text_similar};

/// The `resultType` of getRecommendations.
pub const RECOMMENDATION_TYPE: &str = "application/vnd.searchstudio.recommendation-v2+json";
/// Most documents getSimilar returns, whatever `number` asks.
pub const MAX_SIMILAR: i32 = 100;

/// Cached indexes of the search spaces, shared by every request of a backend.
#[derive(Default)]
pub struct SearchEngine {
    cache: RwLock<HashMap<String, Arc<SpaceIndex>>>,
    building: Mutex<()>,
    /// The thread keeping the store's full-text index merged (and a large store's terms counted), if one was started.
    pub(crate) upkeep: Mutex<Upkeep>,
    /// The threads packing a large space's values ahead of its first search, until [`SearchEngine::settle`].
    packing: Mutex<Vec<std::thread::JoinHandle<()>>>,
    tuning: Tuning,
    taken: PathsTaken,
}

impl SearchEngine {
    /// An engine with no index built yet, with the default thresholds.
    pub fn new() -> Self {
        SearchEngine::default()
    }

    /// An engine with no index built yet, with the thresholds of `tuning` (the benchmark times one counting
    /// thread; the tests make a small store take a large one's paths).
    pub fn with_tuning(tuning: Tuning) -> Self {
        SearchEngine { tuning, ..SearchEngine::default() }
    }

    /// The thresholds this engine uses.
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// How often this engine took each of the paths only a large store takes with the default thresholds.
    pub fn paths_taken(&self) -> &PathsTaken {
        &self.taken
    }

    fn tuned(&self) -> Tuned<'_> {
        Tuned { tuning: &self.tuning, taken: &self.taken }
    }

    /// The index of `space` as the store holds it now, built or rebuilt when the store changed since.
    pub fn index(&self, conn: &mut Connection, space: &str) -> Result<Arc<SpaceIndex>, EngineError> {
        let current = read_generation(conn, space)?;
        if let Some(found) = self.cached(space, current) {
            return Ok(found);
        }
        let _one_builder = self.building.lock().unwrap_or_else(|e| e.into_inner());
        let current = read_generation(conn, space)?;
        if let Some(found) = self.cached(space, current) {
            return Ok(found);
        }
        // The store's upkeep (the full-text merge, the term counts) needs none of this index: started first, it
        // runs on its own thread beside the build, on the second core.
        self.keep_store(conn);
        let built = Arc::new(match snapshot::load(conn, space, current)? {
            Some(loaded) => loaded,
            None => {
                let built = SpaceIndex::build(conn, space, self.tuned())?;
                // The snapshot is a cache: failing to write it (a read-only store, a busy writer) only
                // means the next process builds the index again.
                if let Err(e) = snapshot::save(conn, &built) {
                    tracing::warn!("could not save the index snapshot of {space}: {e}");
                }
                built
            }
        });
        self.cache.write().unwrap_or_else(|e| e.into_inner()).insert(space.to_owned(), built.clone());
        if built.rowids.len() >= self.tuning.pack_ahead {
            self.taken.note(EnginePath::PackedAhead);
            // Every field's values per document, which most searches of words in a large space walk: made
            // now on a thread of its own (0.25 s at 1M documents) rather than in the first such search. A
            // search needing them meanwhile waits for them; without a thread, the first search makes them.
            let index = built.clone();
            let packing = std::thread::Builder::new().name(crate::threads::PACKING.into()).spawn(move || {
                index.packed();
            });
            let mut threads = self.packing.lock().unwrap_or_else(|e| e.into_inner());
            threads.retain(|t| !t.is_finished());
            threads.extend(packing.ok());
        }
        Ok(built)
    }

    /// Starts the upkeep of the store when it changed since it was last kept (upkeep).
    fn keep_store(&self, conn: &Connection) {
        match Stamp::read(conn) {
            Ok((stamp, _)) => self.upkeep.lock().unwrap_or_else(|e| e.into_inner()).start(conn, &stamp),
            Err(e) => tracing::warn!("could not start the upkeep of the store: {e}"),
        }
    }

    /// Waits for the work the engine does on threads of its own after an index is built or loaded (the packing
    /// of a large space's values, the store's upkeep) to end: the benchmark times a settled store, and counts
    /// this work in the time an import takes to be searchable at full speed.
    pub fn settle(&self) {
        let packing = std::mem::take(&mut *self.packing.lock().unwrap_or_else(|e| e.into_inner()));
        for thread in packing {
            let _ = thread.join();
        }
        let jobs = self.upkeep.lock().unwrap_or_else(|e| e.into_inner()).take_jobs();
        for job in jobs {
            let _ = job.join();
        }
    }

    fn cached(&self, space: &str, generation: Generation) -> Option<Arc<SpaceIndex>> {
        let cache = self.cache.read().unwrap_or_else(|e| e.into_inner());
        cache.get(space).filter(|i| i.generation == generation).cloned()
    }

    /// Forgets the full-text matches kept for searches of the same words again, in every search space: the
    /// benchmark calls it to time searches of words not searched before.
    pub fn forget_kept_matches(&self) {
        for index in self.cache.read().unwrap_or_else(|e| e.into_inner()).values() {
            index.kept.clear();
        }
    }

    /// Operation 9: searches the search space of `config`.
    pub fn search(
        &self,
        conn: &mut Connection,
        config: &Config,
        request: &SearchRequest,
    ) -> Result<SearchResponse, EngineError> {
        // The page as written, read back: every operation's documents have the one shaping of `fetch::written`.
        Ok(self.search_page(conn, config, request)?.read()?)
    }

    /// Operation 9 as [`SearchEngine::search`], each document of the page written straight from the store: what a
    /// server sends, without making every document a [`Document`] first.
    pub fn search_page(
        &self,
        conn: &mut Connection,
        config: &Config,
        request: &SearchRequest,
    ) -> Result<SearchPage, EngineError> {
        let index = self.index(conn, &config.search_space)?;
        let found = run::search(conn, &index, config, request, self.tuned())?;
        Ok(SearchPage {
            result: fetch::written(conn, &index, config, &found.page)?.into_iter().flatten().collect(),
            facets: found.facets,
            message: String::new(),
            total: found.total,
        })
    }

    /// The facet health of the facet fields of `space` (docs/api.md, Facet health).
    pub fn facet_health(&self, conn: &mut Connection, space: &str) -> Result<FacetHealth, EngineError> {
        // Listed first: an index is built only for a search space that exists.
        let listed = health::listed(conn, space)?;
        let index = self.index(conn, space)?;
        Ok(health::facet_health(&index, listed))
    }

    /// Operation 7: documents similar to `query.uri` in the search space of `config`.
    pub fn similar(
        &self,
        conn: &mut Connection,
        config: &Config,
        query: &SimilarQuery,
    ) -> Result<Vec<Document>, EngineError> {
        if query.uri.is_empty() {
            return Err(EngineError::BadRequest("the query parameter uri is required".into()));
        }
        let plugin = query.similarity.as_deref().filter(|s| !s.is_empty()).unwrap_or("concepts");
        if !SIMILARITY_PLUGINS.contains(&plugin) {
            return Err(unknown_plugin("similarity plugin", plugin, SIMILARITY_PLUGINS));
        }
        let number = query.number.unwrap_or(config.result.number_of_similar_documents).clamp(0, MAX_SIMILAR) as usize;
        let index = self.index(conn, &config.search_space)?;
        let doc = find(conn, &index, &query.uri)?;
        // The `text` plugin weighs words by the whole store's rows: what it reads depends on the store's stamp.
        let text = match plugin {
            "text" => {
                let (stamp, text) = Stamp::read(conn)?;
                // An import into any search space since the last upkeep left the index to merge.
                self.upkeep.lock().unwrap_or_else(|e| e.into_inner()).start(conn, &stamp);
                Some((stamp, text))
            }
            _ => None,
        };
        let docs = match &text {
            Some((stamp, text)) => text_similar::by_text(conn, &index, stamp, text, doc, number, self.tuned())?,
            None => similar::by_concepts(&index, doc, number),
        };
        if !query.explain {
            return fetch::documents(conn, &index, config, &docs);
        }
        let explained = match &text {
            Some((stamp, text)) => explain::by_text(conn, &index, stamp, text, doc, &docs, self.tuned())?,
            None => explain::by_concepts(&index, doc, &docs),
        };
        explained_documents(conn, &index, config, &docs, explained)
    }

    /// Operation 8: recommendations for `query.uri` in the search space of `config`.
    pub fn recommend(
        &self,
        conn: &mut Connection,
        config: &Config,
        query: &RecommendQuery,
    ) -> Result<Recommendations, EngineError> {
        if query.uri.is_empty() {
            return Err(EngineError::BadRequest("the query parameter uri is required".into()));
        }
        if query.recommender.is_empty() {
            return Err(EngineError::BadRequest("the query parameter recommender is required".into()));
        }
        if !RECOMMENDERS.contains(&query.recommender.as_str()) {
            return Err(unknown_plugin("recommender", &query.recommender, RECOMMENDERS));
        }
        let limit = config.details.number_of_recommendations.clamp(0, MAX_SIMILAR) as usize;
        let index = self.index(conn, &config.search_space)?;
        let doc = find(conn, &index, &query.uri)?;
        let docs = match query.recommender.as_str() {
            "same-author" => recommend::same_author(&index, doc, limit),
            _ => {
                let similar = config.details.number_of_similar.clamp(0, MAX_SIMILAR) as usize;
                recommend::related_concepts(&index, doc, similar, limit)
            }
        };
        let result = if query.explain {
            let explained = match query.recommender.as_str() {
                "same-author" => explain::by_same_author(&index, doc, &docs),
                _ => explain::by_related_concepts(&index, doc, &docs),
            };
            explained_documents(conn, &index, config, &docs, explained)?
        } else {
            fetch::documents(conn, &index, config, &docs)?
        };
        Ok(Recommendations {
            message: Some(String::new()),
            total: Some(result.len() as i32),
            result,
            result_type: Some(RECOMMENDATION_TYPE.to_owned()),
            status: Some(200),
            success: Some(true),
        })
    }
}

/// The documents `docs` (in ranking order) each with its explanation (one per number, in the same order); a
/// document the store no longer holds is left out with its own.
fn explained_documents(
    conn: &Connection,
    index: &SpaceIndex,
    config: &Config,
    docs: &[u32],
    explained: Vec<studio_model::Explanation>,
) -> Result<Vec<Document>, crate::error::EngineError> {
    let found = fetch::each(conn, index, config, docs)?;
    Ok(found
        .into_iter()
        .zip(explained)
        .filter_map(|(doc, e)| doc.map(|d| Document { explanation: Some(e), ..d }))
        .collect())
}

fn find(conn: &Connection, index: &SpaceIndex, uri: &str) -> Result<u32, EngineError> {
    index
        .by_doc_id(conn, uri)?
        .ok_or_else(|| EngineError::NotFound(format!("document {uri} does not exist in search space {}", index.space)))
}

fn unknown_plugin(what: &str, name: &str, available: &[&str]) -> EngineError {
    EngineError::NotFound(format!("{what} {name} does not exist; available: {}", available.join(", ")))
}

//! The `Backend` over a folder of configuration files. Each configuration is a file `<key>.json`, read when it
//! is asked for and written in the stable layout (`format::render`) by an atomic replace that is on disk
//! before the write is acknowledged. A file that does not parse is never written over: saving it is refused
//! with its line and column. Searches, similar documents, recommendations, search spaces and facet health go
//! to the search backend, as its configuration of the file's search space with the file's (or the editor's)
//! settings as the search's `config`.
//!
//! What the folder held when it was last looked at is kept ([`FolderBackend::rescan`] compares the disk with
//! it), and every write of the app updates it under the same lock, so a change is reported only when it was
//! made by something else (a `git pull`, a text editor).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, RwLock};

use async_trait::async_trait;
use serde_json::Value;
use studio_model::{
    merge_create, merge_update, Backend, BackendError, Caller, Configuration, ConfigurationList, Document, Extension,
    FacetHealth, LogEntry, Offers, RecommendQuery, Recommendations, SearchRequest, SearchResponse, SearchSpace,
    SimilarQuery, WriteOutcome,
};
use studio_sync::folder::format::{self, key_for_title, path_for, unique_key, FileBody};
use studio_sync::folder::{read_folder, ListedFile, Listing};

use super::files::{file_name, problems, storage};
use super::ids::Ids;
use super::model::{FileProblem, FolderChange, FolderEntry, FolderError, SearchTarget, KEY_PREFIX};
use super::search::Matches;

/// What the folder held when it was last looked at, and the ids given to its keys.
#[derive(Default)]
struct Known {
    ids: Ids,
    seen: BTreeMap<String, ListedFile>,
    problems: Vec<FileProblem>,
}

/// A folder of configuration files as a backend.
pub struct FolderBackend {
    dir: PathBuf,
    /// The owner of the configurations as the API shows them: the person at this machine.
    user: String,
    known: Mutex<Known>,
    target: RwLock<SearchTarget>,
    matches: Matches,
}

impl FolderBackend {
    /// The folder `dir` as a backend whose searches go to `target`.
    pub fn open(dir: &Path, target: SearchTarget) -> Result<Self, FolderError> {
        let unreadable = |source| FolderError::Unreadable { path: dir.to_owned(), source };
        let dir = std::fs::canonicalize(dir).map_err(unreadable)?;
        if !dir.is_dir() {
            return Err(FolderError::NotAFolder(dir));
        }
        let backend = FolderBackend {
            user: studio_local::os_caller().user,
            known: Mutex::default(),
            target: RwLock::new(target),
            matches: Matches::default(),
            dir,
        };
        backend.rescan()?;
        Ok(backend)
    }

    /// The folder's full path.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder's key for drafts and published versions.
    pub fn key(&self) -> String {
        format!("{KEY_PREFIX}{}", self.dir.display())
    }

    /// Sends the searches to `target` from now on.
    pub fn set_target(&self, target: SearchTarget) {
        match self.target.write() {
            Ok(mut held) => *held = target,
            Err(poisoned) => *poisoned.into_inner() = target,
        }
        self.matches.clear();
    }

    fn target(&self) -> SearchTarget {
        match self.target.read() {
            Ok(held) => held.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    fn known(&self) -> MutexGuard<'_, Known> {
        self.known.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn listing(&self) -> Result<Listing, BackendError> {
        read_folder(&self.dir).map_err(|e| storage(&self.dir, &e))
    }

    /// Looks at the folder again: what changed since it was last looked at, when anything did (files written,
    /// added or removed by something else than this app, or the files that cannot be read).
    pub fn rescan(&self) -> Result<Option<FolderChange>, FolderError> {
        let mut known = self.known();
        let listing =
            read_folder(&self.dir).map_err(|source| FolderError::Unreadable { path: self.dir.clone(), source })?;
        let problems = problems(&mut known.ids, &listing);
        let mut change = self.state(Vec::new());
        for file in &listing.files {
            let before = known.seen.get(&file.key).map(|f| &f.text);
            if before != Some(&file.text) && file.body.is_ok() {
                change.changed.push(FolderEntry { id: known.ids.id(&file.key), key: file.key.clone() });
            }
        }
        let now: BTreeMap<String, ListedFile> = listing.files.into_iter().map(|f| (f.key.clone(), f)).collect();
        let gone: Vec<String> = known.seen.keys().filter(|k| !now.contains_key(*k)).cloned().collect();
        change.removed = gone.into_iter().map(|key| FolderEntry { id: known.ids.id(&key), key }).collect();
        known.seen = now;
        let problems_changed = known.problems != problems;
        known.problems = problems.clone();
        change.problems = problems;
        Ok((!change.is_empty() || problems_changed).then_some(change))
    }

    /// The folder's path with `problems` and no change.
    fn state(&self, problems: Vec<FileProblem>) -> FolderChange {
        FolderChange { path: self.dir.display().to_string(), changed: Vec::new(), removed: Vec::new(), problems }
    }

    /// The folder's path and the files that cannot be read now.
    pub fn status(&self) -> Result<FolderChange, BackendError> {
        let listing = self.listing()?;
        let problems = problems(&mut self.known().ids, &listing);
        Ok(self.state(problems))
    }

    fn envelope(&self, id: i32, body: &FileBody) -> Configuration {
        Configuration {
            id: Some(id),
            config: body.config.clone(),
            user: self.user.clone(),
            ..Configuration::template()
        }
    }

    fn key_of(known: &Known, id: i32) -> Result<String, BackendError> {
        known
            .ids
            .key(id)
            .map(str::to_owned)
            .ok_or_else(|| BackendError::NotFound(format!("configuration {id} not found")))
    }

    /// The file of `key` as it is on disk now; `None` when it is gone.
    fn read(&self, key: &str) -> Result<Option<FileBody>, BackendError> {
        let path = path_for(&self.dir, key);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(storage(&path, &e)),
        };
        format::parse(&text).map(Some).map_err(|p| {
            BackendError::BadRequest(format!(
                "{} cannot be read (line {}, column {}: {}); correct it in a text editor: the app never writes over it",
                file_name(key),
                p.line,
                p.column,
                p.message
            ))
        })
    }

    /// The file of configuration `id`, with its key; `NotFound` when the file is gone.
    fn file(&self, id: i32) -> Result<(String, FileBody), BackendError> {
        let key = Self::key_of(&self.known(), id)?;
        match self.read(&key)? {
            Some(body) => Ok((key, body)),
            None => Err(BackendError::NotFound(format!("{} is no longer in the folder", file_name(&key)))),
        }
    }

    /// Writes `body` as the file of `key`, and remembers it as what the folder holds.
    fn write(&self, known: &mut Known, key: &str, body: &FileBody) -> Result<(), BackendError> {
        let text = format::render(body);
        let path = path_for(&self.dir, key);
        format::write_if_changed(&path, &text).map_err(|e| storage(&path, &e))?;
        known.seen.insert(key.to_owned(), ListedFile { key: key.to_owned(), text: Some(text), body: Ok(body.clone()) });
        Ok(())
    }

    /// The configurations (files that read as one), by key, with the id of the first one marked active.
    fn configurations(&self) -> Result<ConfigurationList, BackendError> {
        let listing = self.listing()?;
        let mut known = self.known();
        let mut list = ConfigurationList { configurations: Vec::new(), active_id: None };
        for file in listing.files {
            let Ok(body) = file.body else { continue };
            let id = known.ids.id(&file.key);
            if body.active && list.active_id.is_none() {
                list.active_id = Some(id);
            }
            list.configurations.push(self.envelope(id, &body));
        }
        Ok(list)
    }

    /// The search backend and its configuration of search space `space`.
    async fn searched(&self, space: &str) -> Result<(SearchTarget, i32), BackendError> {
        let target = self.target();
        let target_id = self.matches.id(&target, space).await?;
        Ok((target, target_id))
    }

    /// `answer`, after forgetting the match of `space` when the search backend no longer has it.
    fn checked<T>(&self, space: &str, answer: Result<T, BackendError>) -> Result<T, BackendError> {
        if let Err(BackendError::NotFound(_)) = answer {
            self.matches.forget(space);
        }
        answer
    }
}

#[async_trait]
impl Backend for FolderBackend {
    async fn default_configuration(&self) -> Result<Configuration, BackendError> {
        Ok(Configuration::template())
    }

    async fn list_configurations(&self) -> Result<ConfigurationList, BackendError> {
        self.configurations()
    }

    async fn active_configuration(&self) -> Result<Configuration, BackendError> {
        let list = self.configurations()?;
        list.configurations
            .into_iter()
            .find(|c| c.id == list.active_id && c.id.is_some())
            .ok_or_else(|| BackendError::NotFound("no file of the folder says \"active\": true".to_owned()))
    }

    async fn get_configuration(&self, id: i32) -> Result<Configuration, BackendError> {
        let (_, body) = self.file(id)?;
        Ok(self.envelope(id, &body))
    }

    async fn create_configuration(&self, _caller: &Caller, body: Value) -> Result<WriteOutcome, BackendError> {
        let (created, errors) = merge_create(&body)?;
        let mut known = self.known();
        let base = key_for_title(&created.config.title);
        let key = unique_key(&base, |k| known.seen.contains_key(k) || path_for(&self.dir, k).exists());
        let file = FileBody::new(created.config, false);
        self.write(&mut known, &key, &file)?;
        let id = known.ids.id(&key);
        Ok(WriteOutcome { config: self.envelope(id, &file), errors })
    }

    /// Writes the file of `id` again even when it was deleted on disk meanwhile (the designer's "save it
    /// again"); a file that does not parse is refused, never written over.
    async fn update_configuration(&self, _caller: &Caller, id: i32, body: Value) -> Result<WriteOutcome, BackendError> {
        let mut known = self.known();
        let key = Self::key_of(&known, id)?;
        let current = self.read(&key)?.unwrap_or_else(|| FileBody::new(Configuration::template().config, false));
        let stored = Configuration { config: current.config.clone(), ..Configuration::template() };
        let (merged, errors) = merge_update(&stored, &body)?;
        let file = FileBody { config: merged.config, ..current };
        self.write(&mut known, &key, &file)?;
        Ok(WriteOutcome { config: self.envelope(id, &file), errors })
    }

    async fn similar_documents(&self, id: i32, query: SimilarQuery) -> Result<Vec<Document>, BackendError> {
        let space = self.file(id)?.1.config.search_space;
        let (target, target_id) = self.searched(&space).await?;
        let answer = target.backend.similar_documents(target_id, query).await;
        self.checked(&space, answer)
    }

    async fn recommendations(&self, id: i32, query: RecommendQuery) -> Result<Recommendations, BackendError> {
        let space = self.file(id)?.1.config.search_space;
        let (target, target_id) = self.searched(&space).await?;
        let answer = target.backend.recommendations(target_id, query).await;
        self.checked(&space, answer)
    }

    /// The search backend's search with the editor's settings when the request carries them (the file need not
    /// be on disk then: an edit of a file deleted meanwhile is still previewed), else with the file's.
    async fn search(&self, id: i32, mut request: SearchRequest) -> Result<SearchResponse, BackendError> {
        let given =
            request.config.as_ref().and_then(|c| c.get("searchSpace")).and_then(Value::as_str).map(str::to_owned);
        let space = match given {
            Some(space) => space,
            None => {
                let (_, body) = self.file(id)?;
                if request.config.is_none() {
                    let settings =
                        serde_json::to_value(&body.config).map_err(|e| BackendError::Internal(e.to_string()))?;
                    request.config = Some(settings);
                }
                body.config.search_space
            }
        };
        let (target, target_id) = self.searched(&space).await?;
        let answer = target.backend.search(target_id, request).await;
        self.checked(&space, answer)
    }

    /// Makes the file of `id` the only one that says `"active": true` (the others are written first, so that
    /// an interruption leaves none active rather than two).
    async fn set_active(&self, _caller: &Caller, id: i32) -> Result<Configuration, BackendError> {
        let listing = self.listing()?;
        let mut known = self.known();
        let key = Self::key_of(&known, id)?;
        let mut chosen = self
            .read(&key)?
            .ok_or_else(|| BackendError::NotFound(format!("{} is no longer in the folder", file_name(&key))))?;
        for file in listing.files {
            if let (Ok(mut body), true) = (file.body, file.key != key) {
                if body.active {
                    body.active = false;
                    self.write(&mut known, &file.key, &body)?;
                }
            }
        }
        chosen.active = true;
        self.write(&mut known, &key, &chosen)?;
        Ok(self.envelope(id, &chosen))
    }

    async fn visible_configurations(&self) -> Result<Vec<Configuration>, BackendError> {
        Ok(self.configurations()?.configurations.into_iter().filter(|c| c.config.visible).collect())
    }

    /// A folder keeps no history of its own (its version control does); the versions saved from this app are
    /// the history the editor shows.
    async fn configuration_logs(&self, _id: i32) -> Result<Vec<LogEntry>, BackendError> {
        Err(Extension::Logs.not_offered("a folder"))
    }

    async fn delete_configuration(&self, _caller: &Caller, id: i32) -> Result<(), BackendError> {
        let (key, body) = self.file(id)?;
        if body.active {
            return Err(BackendError::Conflict(format!(
                "{} is the active configuration; make another one active first",
                file_name(&key)
            )));
        }
        let mut known = self.known();
        let path = path_for(&self.dir, &key);
        std::fs::remove_file(&path).map_err(|e| storage(&path, &e))?;
        std::fs::File::open(&self.dir).and_then(|d| d.sync_all()).map_err(|e| storage(&self.dir, &e))?;
        known.seen.remove(&key);
        Ok(())
    }

    async fn search_spaces(&self) -> Result<Vec<SearchSpace>, BackendError> {
        self.target().backend.search_spaces().await
    }

    async fn facet_health(&self, space: &str) -> Result<FacetHealth, BackendError> {
        self.target().backend.facet_health(space).await
    }

    async fn offers(&self) -> Offers {
        let searched = self.target().backend.offers().await;
        Offers {
            logs: false,
            search_spaces: searched.search_spaces,
            facet_health: searched.facet_health,
            ..Offers::all()
        }
    }
}

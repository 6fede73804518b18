//! Writing a store's or server's configurations into a folder (docs/config-files.md, Pull): a new file for
//! each configuration the folder does not hold yet, the file already holding one updated in place (its
//! name, its own keys and its place kept), nothing else of the folder touched; then the JSON Schema the files
//! name, and the state (key → id and hash) for that target. A configuration is matched to a file by the
//! state, else by title and search space; a new one gets a key made from its title.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};
use studio_model::{Backend, ConfigurationList};
use ts_rs::TS;

use super::error::FolderError;
use super::format::{self, key_for_title, path_for, unique_key, write_if_changed, FileBody, META_DIR, SCHEMA_FILE};
use super::lint::Desired;
use super::listing::read_folder;
use super::schema::schema_text;
use super::state::{StateFile, STATE_FILE};

/// What a pull did with one configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PulledFile {
    pub key: String,
    pub id: i32,
    pub title: String,
    /// Whether its file was written (new, or changed); false when it already held exactly this.
    pub written: bool,
    /// Whether the file is new.
    pub new: bool,
}

/// The state file of the folder `dir`.
pub fn state_path(dir: &Path) -> std::path::PathBuf {
    dir.join(META_DIR).join(STATE_FILE)
}

/// Writes the JSON Schema into `dir`'s [`META_DIR`].
pub fn write_schema(dir: &Path) -> Result<(), FolderError> {
    let meta = dir.join(META_DIR);
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| FolderError::Io { what: "cannot write", path, source }
    };
    std::fs::create_dir_all(&meta).map_err(io(&meta))?;
    let path = meta.join(SCHEMA_FILE);
    write_if_changed(&path, &schema_text()).map(drop).map_err(io(&path))
}

/// Pulls every configuration of `backend` (named `target` in the state) into the folder `dir`, made if missing.
pub async fn pull(dir: &Path, target: &str, backend: &dyn Backend) -> Result<Vec<PulledFile>, FolderError> {
    std::fs::create_dir_all(dir).map_err(|source| FolderError::Io {
        what: "cannot make",
        path: dir.to_owned(),
        source,
    })?;
    let list = backend.list_configurations().await?;
    let folder = read_folder(dir).map_err(|source| FolderError::Io {
        what: "cannot read the folder",
        path: dir.to_owned(),
        source,
    })?;
    let mut state = StateFile::read(&state_path(dir))?;
    let applied = state.target(target);
    // Every name in use, and what each readable file holds.
    let taken_names: BTreeSet<String> = folder.files.iter().map(|f| f.key.clone()).collect();
    let bodies: BTreeMap<String, FileBody> =
        folder.files.iter().filter_map(|f| Some((f.key.clone(), f.body.clone().ok()?))).collect();
    let keys = keys_for(&list, &applied, &bodies, &taken_names);
    write_schema(dir)?;
    let mut pulled = Vec::new();
    for (config, key) in list.configurations.iter().zip(keys) {
        let Some(id) = config.id else { continue };
        let active = list.active_id == Some(id);
        let body = match bodies.get(&key) {
            Some(old) => FileBody { config: config.config.clone(), active, ..old.clone() },
            None => FileBody::new(config.config.clone(), active),
        };
        let path = path_for(dir, &key);
        let written = write_if_changed(&path, &format::render(&body)).map_err(|source| FolderError::Io {
            what: "cannot write",
            path: path.clone(),
            source,
        })?;
        state.record(target, &key, id, &config.config);
        pulled.push(PulledFile {
            new: !taken_names.contains(&key),
            key,
            id,
            title: config.config.title.clone(),
            written,
        });
    }
    state.save()?;
    Ok(pulled)
}

/// The key of each configuration of `list`, in its order: the state's, else a readable file's with the same
/// title and search space, else a new one from its title that no file of the folder has.
fn keys_for(
    list: &ConfigurationList,
    applied: &BTreeMap<String, super::state::Applied>,
    bodies: &BTreeMap<String, FileBody>,
    taken_names: &BTreeSet<String>,
) -> Vec<String> {
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut keys: Vec<Option<String>> = list
        .configurations
        .iter()
        .map(|c| applied.iter().find(|(_, a)| Some(a.id) == c.id).map(|(k, _)| k.clone()))
        .collect();
    used.extend(keys.iter().flatten().cloned());
    for (slot, config) in keys.iter_mut().zip(&list.configurations) {
        if slot.is_none() {
            *slot = bodies
                .iter()
                .find(|(k, b)| {
                    !used.contains(*k)
                        && b.config.title == config.config.title
                        && b.config.search_space == config.config.search_space
                })
                .map(|(k, _)| k.clone());
            used.extend(slot.clone());
        }
    }
    // New keys are given in the order of title, search space and id, not of creation: two configurations whose
    // titles make the same key get the same keys on every target, whatever order they were created in there.
    let mut order: Vec<usize> = (0..keys.len()).filter(|i| keys[*i].is_none()).collect();
    order.sort_by_key(|i| {
        let c = &list.configurations[*i];
        (c.config.title.clone(), c.config.search_space.clone(), c.id)
    });
    for i in order {
        let base = key_for_title(&list.configurations[i].config.title);
        let key = unique_key(&base, |k| used.contains(k) || taken_names.contains(k));
        used.insert(key.clone());
        keys[i] = Some(key);
    }
    keys.into_iter().map(Option::unwrap_or_default).collect()
}

/// A promotion's source as the configurations it asks for: every configuration of `list`, keyed by its id
/// there (which stays when its title changes), the active one marked.
pub fn desired_from(list: &ConfigurationList) -> Vec<Desired> {
    list.configurations
        .iter()
        .filter_map(|c| {
            let id = c.id?;
            Some(Desired { key: id.to_string(), config: c.config.clone(), active: list.active_id == Some(id) })
        })
        .collect()
}

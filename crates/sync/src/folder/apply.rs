//! Making a [`Plan`]'s changes on its target (docs/config-files.md, Apply): creates and updates (and conflicts
//! with a side chosen) in the plan's order, then the active configuration, then the deletes. The state is
//! saved after each write on the target, so that an apply stopped part way (killed, the network lost, a
//! server error) leaves a state from which the next plan is exact: what was written is then unchanged or
//! an update, never written twice. A configuration that changed on the target since the plan was made is
//! not written.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::json;
use studio_model::{Backend, Caller, Configuration, FieldError};
use ts_rs::TS;

use super::error::FolderError;
use super::format::{self, path_for, write_if_changed};
use super::plan::{Action, Choices, Plan, PlanItem};
use super::state::{config_hash, StateFile};
use crate::types::Side;

/// One write an apply made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "done", rename_all = "camelCase")]
pub enum Done {
    /// Created as `id`; `errors` lists the keys the target refused (it kept their defaults).
    Created {
        key: String,
        id: i32,
        errors: Vec<FieldError>,
    },
    /// Updated; `errors` lists the keys the target refused (it kept their values).
    Updated {
        key: String,
        id: i32,
        errors: Vec<FieldError>,
    },
    /// A conflict resolved for the target's version: the folder's file now holds it.
    KeptTheirs {
        key: String,
        id: i32,
    },
    SetActive {
        key: String,
        id: i32,
    },
    Deleted {
        key: Option<String>,
        id: i32,
    },
}

/// Where an apply goes: the target, who writes, and the target's name in the state.
pub struct Target<'a> {
    pub backend: &'a dyn Backend,
    pub name: &'a str,
    pub caller: &'a Caller,
}

/// Makes `plan`'s changes on `target`, conflicts resolved as `choices` say. For a conflict the target wins,
/// the target's version is written into the file of `folder` (a promotion has none: it leaves the target as it
/// is and the state untouched, so the next plan shows the conflict again). `state` is saved after each write,
/// and `on_write` hears of each write before its state is saved.
pub async fn apply(
    target: &Target<'_>,
    plan: &Plan,
    choices: &Choices,
    folder: Option<&Path>,
    state: &mut StateFile,
    on_write: &mut (dyn FnMut(&Done) + Send),
) -> Result<Vec<Done>, FolderError> {
    choices.check(plan)?;
    let mut done = Vec::new();
    // Unchanged: the target holds the file's settings; the state learns the version it holds.
    for item in plan.items.iter().filter(|i| i.action == Action::Unchanged) {
        if let (Some(key), Some(id), Some(seen)) = (&item.key, item.id, &item.seen) {
            state.record_hash(target.name, key, id, seen);
        }
    }
    state.save()?;
    for item in &plan.items {
        let Some(key) = item.key.clone() else { continue };
        let step = match (item.action, choices.side(&key)) {
            (Action::Create, _) => create(target, item, &key, state).await?,
            (Action::Update, _) | (Action::Conflict, Some(Side::Mine)) => update(target, item, &key, state).await?,
            (Action::Conflict, Some(Side::Theirs)) => keep_theirs(target, item, &key, folder, state).await?,
            _ => continue,
        };
        finish(target, state, &step, on_write)?;
        done.push(step);
    }
    if let Some(active) = &plan.set_active {
        let id = active.id.or_else(|| state.target(target.name).get(&active.key).map(|a| a.id));
        if let Some(id) = id {
            // A first configuration becomes active by itself: then there is nothing left to write.
            if target.backend.list_configurations().await?.active_id != Some(id) {
                target.backend.set_active(target.caller, id).await?;
                let step = Done::SetActive { key: active.key.clone(), id };
                finish(target, state, &step, on_write)?;
                done.push(step);
            }
        }
    }
    for item in plan.items.iter().filter(|i| i.action == Action::Delete) {
        let Some(id) = item.id else { continue };
        still_as_planned(target, item, item.key.as_deref().unwrap_or(&item.title)).await?;
        target.backend.delete_configuration(target.caller, id).await?;
        let step = Done::Deleted { key: item.key.clone(), id };
        finish(target, state, &step, on_write)?;
        done.push(step);
    }
    Ok(done)
}

async fn create(target: &Target<'_>, item: &PlanItem, key: &str, state: &mut StateFile) -> Result<Done, FolderError> {
    let outcome = target.backend.create_configuration(target.caller, json!({ "config": item.desired })).await?;
    let id = outcome.config.id.ok_or_else(|| FolderError::CreatedWithoutId { key: key.to_owned() })?;
    // The state keeps the version as stored, which the write's answer carries.
    state.record(target.name, key, id, &outcome.config.config);
    Ok(Done::Created { key: key.to_owned(), id, errors: outcome.errors })
}

async fn update(target: &Target<'_>, item: &PlanItem, key: &str, state: &mut StateFile) -> Result<Done, FolderError> {
    let id = still_as_planned(target, item, key).await?;
    let outcome = target.backend.update_configuration(target.caller, id, json!({ "config": item.desired })).await?;
    state.record(target.name, key, id, &outcome.config.config);
    Ok(Done::Updated { key: key.to_owned(), id, errors: outcome.errors })
}

async fn keep_theirs(
    target: &Target<'_>,
    item: &PlanItem,
    key: &str,
    folder: Option<&Path>,
    state: &mut StateFile,
) -> Result<Done, FolderError> {
    let id = still_as_planned(target, item, key).await?;
    if let Some(dir) = folder {
        let current = target.backend.get_configuration(id).await?;
        write_config_file(dir, key, &current)?;
        state.record(target.name, key, id, &current.config);
    }
    Ok(Done::KeptTheirs { key: key.to_owned(), id })
}

/// Rewrites the file of `key` with `current`'s settings, keeping the rest of the file (its active flag, its
/// own keys).
fn write_config_file(dir: &Path, key: &str, current: &Configuration) -> Result<(), FolderError> {
    let path = path_for(dir, key);
    let read = std::fs::read_to_string(&path).ok().and_then(|text| format::parse(&text).ok());
    let mut body = read.unwrap_or_else(|| format::FileBody::new(current.config.clone(), false));
    body.config = current.config.clone();
    write_if_changed(&path, &format::render(&body)).map(drop).map_err(|source| FolderError::Io {
        what: "cannot write",
        path,
        source,
    })
}

/// The item's id, once the target is seen to still hold the version the plan compared with.
async fn still_as_planned(target: &Target<'_>, item: &PlanItem, key: &str) -> Result<i32, FolderError> {
    let id = item.id.ok_or_else(|| FolderError::ChangedSincePlan { key: key.to_owned(), id: None })?;
    let current = target.backend.get_configuration(id).await?;
    if Some(config_hash(&current.config)) != item.seen {
        return Err(FolderError::ChangedSincePlan { key: key.to_owned(), id: Some(id) });
    }
    Ok(id)
}

/// Records a write in the state, tells the caller, and saves the state.
fn finish(
    target: &Target<'_>,
    state: &mut StateFile,
    step: &Done,
    on_write: &mut (dyn FnMut(&Done) + Send),
) -> Result<(), FolderError> {
    if let Done::Deleted { key: Some(key), .. } = step {
        state.forget(target.name, key);
    }
    on_write(step);
    state.save()
}

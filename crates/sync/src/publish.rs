//! Publishing a draft: create or update on the current backend, after checking that the server still holds
//! the version the draft started from. A change on the server that the user has not seen is never
//! overwritten: it comes back as a [`Conflict`] and nothing is written.
//!
//! The check and the update are two requests (the API has no conditional update), so a change landing
//! between them is not caught; the window is one round trip.

use serde_json::Value;
use studio_model::{Backend, Caller, Configuration};

use crate::diff::three_way;
use crate::drafts::SyncStore;
use crate::error::SyncError;
use crate::types::{Conflict, PublishOutcome};

/// The settings of an envelope, the part that versions are compared on (id, user and created are the server's).
fn settings(envelope: &Value) -> Option<&Value> {
    envelope.get("config")
}

/// The conflict that stops a publish of `mine`, drafted from `base`, when the server now holds `theirs`: none
/// while the server's settings are still those of `base` (the order of keys aside), else every field where the
/// three differ. The browser build decides the same way (`publishConflict` of ui/src/lib/editor/conflict.ts);
/// the cases of crates/sync/cases/publish.json hold both to one behaviour.
pub fn publish_conflict(base: &Value, mine: &Value, theirs: &Value) -> Option<Conflict> {
    if settings(theirs) == settings(base) {
        return None;
    }
    let fields = three_way(base, mine, theirs);
    Some(Conflict { base: base.clone(), mine: mine.clone(), theirs: theirs.clone(), fields })
}

/// What a publish does with the drafts kept for the configuration it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Drafts {
    /// The draft was the thing published: it goes (or stays, based on what was stored, when the server
    /// refused some keys).
    Settle,
    /// What is written did not come from a draft of this backend (a copy from another connection): the
    /// drafts there are someone's unpublished work and stay as they are.
    Keep,
}

/// Publishes `mine` to `backend` (key `key`): creates a configuration when `id` is `None`, else updates `id`
/// provided the server's current version equals `base`. On success the version is recorded for the
/// history and a draft kept for it is dropped, unless the server refused some keys (the draft then stays,
/// now based on what was stored).
pub async fn publish(
    store: &SyncStore,
    backend: &dyn Backend,
    key: &str,
    caller: &Caller,
    id: Option<i32>,
    mine: Value,
    base: Option<Value>,
) -> Result<PublishOutcome, SyncError> {
    write(store, backend, key, caller, id, mine, base, Drafts::Settle).await
}

/// [`publish`], with the drafts of the written configuration treated as `drafts` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn write(
    store: &SyncStore,
    backend: &dyn Backend,
    key: &str,
    caller: &Caller,
    id: Option<i32>,
    mine: Value,
    base: Option<Value>,
    drafts: Drafts,
) -> Result<PublishOutcome, SyncError> {
    let outcome = match id {
        None => backend.create_configuration(caller, mine.clone()).await?,
        Some(id) => {
            let current: Configuration = backend.get_configuration(id).await?;
            let theirs = serde_json::to_value(&current)?;
            if let Some(conflict) = publish_conflict(base.as_ref().unwrap_or(&theirs), &mine, &theirs) {
                return Ok(PublishOutcome::Conflict { conflict: Box::new(conflict) });
            }
            backend.update_configuration(caller, id, mine.clone()).await?
        }
    };
    store.record_published(key, &outcome.config, &caller.user)?;
    if let (Some(stored_id), Drafts::Settle) = (outcome.config.id, drafts) {
        let draft_id = id.unwrap_or(stored_id);
        let stored = serde_json::to_value(&outcome.config)?;
        if outcome.errors.is_empty() {
            store.discard_draft(key, draft_id)?;
        } else if store.draft(key, draft_id)?.is_some() || id.is_none() {
            store.save_draft(key, stored_id, &mine, Some(&stored))?;
        }
    }
    Ok(PublishOutcome::Published { outcome: Box::new(outcome) })
}

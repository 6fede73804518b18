//! Copying ("promoting") a configuration from one backend to another, e.g. from a staging server to
//! production: first a [`CopyPlan`] that says which configuration of the target would change and how, field
//! by field, then the copy itself, which creates the configuration there or updates it under the conflict
//! rules of [`publish`](crate::publish).
//!
//! Only the source's `config` travels, whole: fields this program does not know go as they are. On an
//! update the target merges it into its version (docs/api.md, Update), so a field only the target has
//! stays. A change made on the target after the plan was shown is never overwritten: the copy answers a
//! conflict and writes nothing. A draft of that configuration kept for the target (unpublished work made
//! while connected to it) is left as it is: it was not what the copy wrote, and publishing it later meets
//! the copied version as a change made elsewhere.

use serde_json::{json, Value};
use studio_model::{merge_update, Backend, Caller, Configuration};

use crate::diff::diff_fields;
use crate::drafts::SyncStore;
use crate::error::SyncError;
use crate::publish::{write, Drafts};
use crate::types::{CopyPlan, PublishOutcome};

/// The body a copy sends: the source's settings, nothing of its envelope (the target owns id, user, created).
fn copied_body(source: &Configuration) -> Result<Value, SyncError> {
    Ok(json!({ "config": serde_json::to_value(&source.config)? }))
}

/// `base` as it will be once the source's settings are merged into it by the update rules.
fn after_update(base: &Configuration, source: &Configuration) -> Result<Value, SyncError> {
    let (merged, _refused) = merge_update(base, &copied_body(source)?)?;
    Ok(serde_json::to_value(merged)?)
}

/// The configuration of `candidates` that a copy of `source` should update: the one with the same title and
/// search space, when there is exactly one.
fn same_configuration(source: &Configuration, candidates: &[Configuration]) -> Option<i32> {
    let mut same = candidates
        .iter()
        .filter(|c| c.config.title == source.config.title && c.config.search_space == source.config.search_space);
    match (same.next(), same.next()) {
        (Some(only), None) => only.id,
        _ => None,
    }
}

/// What copying configuration `source_id` of `source` to `target` (named `target_name` in the plan) would
/// do: update `target_id`, or, when it is `None`, the target's configuration with the same title and search
/// space if there is exactly one, else create a new one ("new there").
pub async fn plan(
    source: &dyn Backend,
    target: &dyn Backend,
    target_name: &str,
    source_id: i32,
    target_id: Option<i32>,
) -> Result<CopyPlan, SyncError> {
    let copied = source.get_configuration(source_id).await?;
    let candidates = target.list_configurations().await?.configurations;
    let target_id = target_id.or_else(|| same_configuration(&copied, &candidates));
    let (base, diff) = match target_id {
        Some(id) => {
            let base = target.get_configuration(id).await?;
            let diff = diff_fields(&serde_json::to_value(&base)?, &after_update(&base, &copied)?);
            (Some(base), diff)
        }
        None => (None, diff_fields(&json!({}), &copied_body(&copied)?)),
    };
    Ok(CopyPlan { target: target_name.to_owned(), source_id, target_id, base, diff, candidates })
}

/// Copies configuration `source_id` of `source` to `target` (key `target_key` in `store`): creates it when
/// `target_id` is `None`, else updates `target_id` provided the target still holds `base` (the version the
/// plan showed; `None` takes the target's current version as it is). The version written is recorded in the
/// target's history like a publish; the target's drafts are not touched.
#[allow(clippy::too_many_arguments)]
pub async fn copy(
    store: &SyncStore,
    source: &dyn Backend,
    target: &dyn Backend,
    target_key: &str,
    caller: &Caller,
    source_id: i32,
    target_id: Option<i32>,
    base: Option<Configuration>,
) -> Result<PublishOutcome, SyncError> {
    let copied = source.get_configuration(source_id).await?;
    let Some(id) = target_id else {
        return write(store, target, target_key, caller, None, copied_body(&copied)?, None, Drafts::Keep).await;
    };
    let base = match base {
        Some(base) => base,
        None => target.get_configuration(id).await?,
    };
    let mine = after_update(&base, &copied)?;
    let base = Some(serde_json::to_value(&base)?);
    write(store, target, target_key, caller, Some(id), mine, base, Drafts::Keep).await
}

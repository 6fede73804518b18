//! Copying a configuration of the current connection to another one: the plan (what would change there),
//! then the copy under the conflict rules of publishing.

use studio_local::os_caller;
use studio_model::Configuration;
use studio_sync::copy;
use studio_sync::{CopyPlan, PublishOutcome};
use tauri::State;

use crate::connections::ConnectionStore;
use crate::error::Answer;
use crate::state::BackendSlot;

/// What copying configuration `id` to connection `target` would change; `target_id` null lets the plan
/// find the target's configuration of the same title and search space, or none ("new there").
#[tauri::command]
pub async fn copy_plan(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    target: String,
    id: i32,
    target_id: Option<i32>,
) -> Answer<CopyPlan> {
    let (to, _) = connections.target(&slot, &target)?;
    Ok(copy::plan(slot.get().as_ref(), to.as_ref(), &target, id, target_id).await?)
}

/// Creates configuration `id` on connection `target`, or updates `target_id` there if it is still `base`.
#[tauri::command]
pub async fn copy_configuration(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    target: String,
    id: i32,
    target_id: Option<i32>,
    base: Option<Configuration>,
) -> Answer<PublishOutcome> {
    let (to, key) = connections.target(&slot, &target)?;
    Ok(copy::copy(slot.sync(), slot.get().as_ref(), to.as_ref(), &key, &os_caller(), id, target_id, base).await?)
}

//! Planning and applying the open folder to a connection (docs/config-files.md, From the desktop app): the
//! plan `studio config plan DIR --to TARGET` prints, made by the same library call over the files on disk, and
//! the apply `studio config apply` makes, updating the folder's `.studio/state.json` as it does. The target is
//! the local store or a remote connection, through that connection's client (so a sign-in that ended answers
//! `unauthorized` or `sign_in_needed`, and the UI asks for it as for any call on a connection).
//!
//! The plan the designer saw comes back with the apply, which makes the plan again and writes only when both are
//! the same: what is applied is exactly what was shown.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use studio_local::os_caller;
use studio_model::{Backend, ErrorCode};
use studio_sync::folder::{self, Choices, Desired, Done, Plan, Problem, StateFile, Target};
use studio_sync::LOCAL_KEY;
use ts_rs::TS;

use super::model::LOCAL_ID;
use super::store::ConnectionStore;
use crate::error::IpcError;
use crate::state::BackendSlot;

/// What planning the folder answers: the plan, or the folder's problems when it breaks its rules (no plan is
/// made of a folder with problems).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum FolderPlan {
    Plan {
        plan: Plan,
        /// Whether applying would change anything on the target (a conflict counts: it waits for a side).
        #[serde(rename = "hasChanges")]
        has_changes: bool,
        /// The plan's summary line, in the words `studio config plan` ends with.
        summary: String,
    },
    Problems {
        problems: Vec<Problem>,
    },
}

/// What an apply wrote: each write, and its line in the words `studio config apply` prints.
#[derive(Debug, Clone, Serialize, TS)]
pub struct FolderApplied {
    pub done: Vec<Done>,
    pub lines: Vec<String>,
}

/// A target of a plan: its backend and its name in the state file (`local`, or the server's base URL, as the
/// CLI names it).
struct PlanTarget {
    backend: Arc<dyn Backend>,
    name: String,
}

impl ConnectionStore {
    /// The open folder's path.
    fn folder_dir(&self) -> Result<PathBuf, IpcError> {
        self.stored_folder()
            .map(|f| PathBuf::from(f.path))
            .ok_or_else(|| IpcError::new(ErrorCode::NotFound, "no folder is open; open one in Settings → Connections"))
    }

    /// Connection `id` as the target of a plan.
    fn plan_target(&self, slot: &BackendSlot, id: &str) -> Result<PlanTarget, IpcError> {
        if id == LOCAL_ID {
            return Ok(PlanTarget { backend: Arc::new(slot.local().clone()), name: LOCAL_KEY.to_owned() });
        }
        let connection = self.find(id)?;
        let client = self.client(&connection)?;
        let name = client.base_url().to_owned();
        Ok(PlanTarget { backend: client, name })
    }

    /// The plan of applying the open folder's files to connection `id`; with `prune`, what only the target has
    /// is deleted.
    pub async fn plan_folder(&self, slot: &BackendSlot, id: &str, prune: bool) -> Result<FolderPlan, IpcError> {
        let dir = self.folder_dir()?;
        let target = self.plan_target(slot, id)?;
        let desired = match read_desired(&dir)? {
            Ok(desired) => desired,
            Err(problems) => return Ok(FolderPlan::Problems { problems }),
        };
        let state = StateFile::read(&folder::state_path(&dir))?;
        let plan = folder::plan_for(target.backend.as_ref(), &target.name, &desired, &state, prune).await?;
        Ok(FolderPlan::Plan { has_changes: plan.has_changes(), summary: folder::show::summary(&plan), plan })
    }

    /// Makes the changes of `shown`, the plan the designer saw, on connection `id`, conflicts resolved as
    /// `choices` say. Nothing is written when the plan made now differs from `shown`.
    pub async fn apply_folder(
        &self,
        slot: &BackendSlot,
        id: &str,
        prune: bool,
        shown: &Plan,
        choices: &Choices,
    ) -> Result<FolderApplied, IpcError> {
        let dir = self.folder_dir()?;
        let target = self.plan_target(slot, id)?;
        let desired = read_desired(&dir)?.map_err(|problems| {
            IpcError::new(
                ErrorCode::BadRequest,
                format!(
                    "not applied: {} problem(s) in the folder since the plan was made; plan again to see them",
                    problems.len()
                ),
            )
        })?;
        let mut state = StateFile::read(&folder::state_path(&dir))?;
        let plan = folder::plan_for(target.backend.as_ref(), &target.name, &desired, &state, prune).await?;
        if serde_json::to_value(&plan).ok() != serde_json::to_value(shown).ok() {
            return Err(IpcError::new(
                ErrorCode::Conflict,
                "not applied: the folder or the target changed since the plan was made; nothing was written. Look at the new plan and apply again",
            ));
        }
        let caller = os_caller();
        let to = Target { backend: target.backend.as_ref(), name: &target.name, caller: &caller };
        let done = folder::apply(&to, &plan, choices, Some(&dir), &mut state, &mut |_| {}).await?;
        let lines = done.iter().map(folder::show::done_line).collect();
        Ok(FolderApplied { done, lines })
    }
}

/// The configurations the folder at `dir` asks for, or its problems.
fn read_desired(dir: &std::path::Path) -> Result<Result<Vec<Desired>, Vec<Problem>>, IpcError> {
    let listing = folder::read_folder(dir).map_err(|source| {
        IpcError::new(ErrorCode::Storage, format!("cannot read the folder {}: {source}", dir.display()))
    })?;
    Ok(folder::lint(&listing))
}

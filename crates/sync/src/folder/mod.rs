//! Configurations kept as files in a folder, for git (docs/config-files.md): the file format ([`format`]),
//! reading a whole folder ([`listing`]) and checking it ([`lint`], with positions from [`scan`]), its JSON Schema ([`schema`]),
//! pulling a store's or server's configurations into it ([`pull`]), what it last applied to each target
//! ([`state`]), the plan of applying it ([`plan`]) and the apply itself ([`apply`]). The `studio config`
//! commands and the desktop's folder workspace are thin layers over these.

pub mod apply;
mod error;
pub mod format;
pub mod lint;
pub mod listing;
pub mod plan;
pub mod pull;
pub mod scan;
pub mod schema;
pub mod show;
pub mod state;

pub use apply::{apply, Done, Target};
pub use error::FolderError;
pub use format::{ConfigFile, FileBody, ParseProblem};
pub use lint::{lint, Desired, Problem};
pub use listing::{read_folder, ListedFile, Listing};
pub use plan::{make_plan, Action, ActiveChange, Choices, Plan, PlanItem};
pub use pull::{desired_from, pull, state_path, write_schema, PulledFile};
pub use state::{config_hash, StateFile};

use studio_model::Backend;

/// The plan of applying `desired` to `backend` (named `target` in `state`).
pub async fn plan_for(
    backend: &dyn Backend,
    target: &str,
    desired: &[Desired],
    state: &StateFile,
    prune: bool,
) -> Result<Plan, FolderError> {
    let list = backend.list_configurations().await?;
    make_plan(target, desired, &list, &state.target(target), prune)
}

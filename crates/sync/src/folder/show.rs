//! The words of a plan and of an apply, the same wherever they are shown (`studio config`, the desktop's
//! plan of a folder): a changed field as `path: before -> after`, the plan's summary line, and one line per
//! write an apply made.

use serde_json::Value;

use super::apply::Done;
use super::plan::{Action, Plan};
use crate::types::FieldDiff;

/// `path: before -> after`, each value as JSON, an absent one as `(none)`.
pub fn change_line(change: &FieldDiff) -> String {
    let shown = |v: &Option<Value>| v.as_ref().map_or_else(|| "(none)".to_owned(), Value::to_string);
    format!("{}: {} -> {}", change.path, shown(&change.before), shown(&change.after))
}

/// The plan's summary line: how many configurations of each kind, and which becomes active.
pub fn summary(plan: &Plan) -> String {
    if !plan.has_changes() {
        let kept = plan.count(Action::OnlyOnTarget);
        let kept = if kept > 0 { format!(" ({kept} only on the target, kept)") } else { String::new() };
        return format!("Nothing to do: the target holds every configuration of the source{kept}.");
    }
    let mut parts: Vec<String> = [
        (Action::Create, "to create"),
        (Action::Update, "to update"),
        (Action::Delete, "to delete"),
        (Action::Unchanged, "unchanged"),
        (Action::OnlyOnTarget, "only on the target"),
        (Action::Conflict, "conflict(s)"),
    ]
    .into_iter()
    .map(|(action, words)| format!("{} {words}", plan.count(action)))
    .collect();
    if let Some(active) = &plan.set_active {
        parts.push(format!("then {} becomes active", active.key));
    }
    format!("Plan: {}.", parts.join(", "))
}

/// One line for a write an apply made.
pub fn done_line(done: &Done) -> String {
    let refused = |errors: &[studio_model::FieldError]| {
        errors.iter().map(|e| format!("\n  warning: the target refused {} {}", e.key, e.message)).collect::<String>()
    };
    match done {
        Done::Created { key, id, errors } => format!("created {key} as id {id}{}", refused(errors)),
        Done::Updated { key, id, errors } => format!("updated {key} (id {id}){}", refused(errors)),
        Done::KeptTheirs { key, id } => format!("kept the target's version of {key} (id {id})"),
        Done::SetActive { key, id } => format!("made {key} (id {id}) the active configuration"),
        Done::Deleted { key, id } => {
            format!("deleted id {id}{}", key.as_ref().map(|k| format!(" ({k})")).unwrap_or_default())
        }
    }
}

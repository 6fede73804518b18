//! How `studio config` prints a plan and what an apply did: one line per configuration, each changed field
//! below its line as `path: before -> after`, and a summary line.

use serde_json::Value;
use studio_sync::folder::{Action, Done, Plan, PlanItem};
use studio_sync::FieldDiff;

/// The plan as text, ending with its summary line.
pub fn plan_text(plan: &Plan) -> String {
    let mut out = format!("Plan for {}:\n", plan.target);
    for item in &plan.items {
        out.push_str(&item_line(item));
        for change in &item.changes {
            out.push_str(&format!("      {}\n", change_line(change)));
        }
    }
    if let Some(active) = &plan.set_active {
        let id = active.id.map_or_else(|| "created above".to_owned(), |id| format!("id {id}"));
        let was = active.was.map_or_else(|| "none".to_owned(), |id| format!("id {id}"));
        out.push_str(&format!("  set active  {} ({id}; active now: {was})\n", active.key));
    }
    out.push_str(&summary(plan));
    out.push('\n');
    out
}

fn item_line(item: &PlanItem) -> String {
    let key = item.key.as_deref().unwrap_or("-");
    let id = item.id.map(|id| format!(", id {id}")).unwrap_or_default();
    let note = match item.action {
        Action::Conflict => ": changed on the target since this folder last applied it",
        Action::OnlyOnTarget => " (kept; --prune deletes it)",
        _ => "",
    };
    format!("  {:<11} {key} {:?} ({}){id}{note}\n", item.action.label(), item.title, item.search_space)
}

/// `path: before -> after`, each value as JSON, an absent one as `(none)`.
pub fn change_line(change: &FieldDiff) -> String {
    let shown = |v: &Option<Value>| v.as_ref().map_or_else(|| "(none)".to_owned(), Value::to_string);
    format!("{}: {} -> {}", change.path, shown(&change.before), shown(&change.after))
}

fn summary(plan: &Plan) -> String {
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

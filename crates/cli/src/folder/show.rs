//! How `studio config` prints a plan: one line per configuration, each changed field below its line, and the
//! summary line (the words of a changed field, the summary and the writes are the library's, `folder::show`).

use studio_sync::folder::show::{change_line, summary};
use studio_sync::folder::{Action, Plan, PlanItem};

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

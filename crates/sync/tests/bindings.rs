//! The UI's TypeScript copies of this crate's types, checked in at `ui/src/lib/types/sync.ts`. This test
//! fails when they are stale; run it with `UPDATE_BINDINGS=1` to write a fresh copy.

use std::path::PathBuf;

use studio_sync::files::ImportedConfig;
use studio_sync::folder::{Action, ActiveChange, Choices, Done, Plan, PlanItem, Problem};
use studio_sync::*;
use ts_rs::TS;

fn generated() -> String {
    let cfg = ts_rs::Config::default();
    let mut out = String::from(
        "// Generated from the Rust types of crates/sync by its `bindings` test; do not edit.\n\
         // Regenerate: UPDATE_BINDINGS=1 cargo test -p studio-sync --test main bindings\n\n\
         import type { Configuration, FieldError, JsonValue, SelectedFacet, WriteOutcome } from './generated';\n",
    );
    let decls = [
        DraftRecord::decl(&cfg),
        FieldDiff::decl(&cfg),
        FieldChange::decl(&cfg),
        Conflict::decl(&cfg),
        Side::decl(&cfg),
        PublishOutcome::decl(&cfg),
        HistorySource::decl(&cfg),
        HistoryEntry::decl(&cfg),
        ImportedConfig::decl(&cfg),
        Scenario::decl(&cfg),
        ScenarioWidth::decl(&cfg),
        ScenarioLimits::decl(&cfg),
        Action::decl(&cfg),
        PlanItem::decl(&cfg),
        ActiveChange::decl(&cfg),
        Plan::decl(&cfg),
        Choices::decl(&cfg),
        Done::decl(&cfg),
        Problem::decl(&cfg),
    ];
    for decl in decls {
        studio_testkit::bindings::push_declaration(&mut out, &decl);
    }
    let limits = serde_json::to_string(&SCENARIO_LIMITS).unwrap();
    out.push_str(&format!("\n/** What a list of preview scenarios may hold. */\nexport const SCENARIO_LIMITS: ScenarioLimits = {limits};\n"));
    let messages = serde_json::to_string_pretty(&SCENARIO_MESSAGES).unwrap();
    out.push_str(&format!(
        "\n/** Why a list of preview scenarios is refused; `{{name}}` is filled as `fill` of crates/model/src/rules.rs does. */\n\
         export const SCENARIO_MESSAGES = {messages} as const;\n"
    ));
    let labels: serde_json::Map<String, serde_json::Value> =
        [Action::Create, Action::Update, Action::Unchanged, Action::OnlyOnTarget, Action::Delete, Action::Conflict]
            .into_iter()
            .map(|a| (serde_json::to_value(a).unwrap().as_str().unwrap().to_owned(), a.label().into()))
            .collect();
    let labels = serde_json::to_string_pretty(&labels).unwrap();
    out.push_str(&format!("\n/** Each action of a folder's plan in the plan's words. */\nexport const ACTION_LABELS: Record<Action, string> = {labels};\n"));
    out
}

#[test]
fn checked_in_typescript_types_match_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/types/sync.ts");
    let fresh = generated();
    studio_testkit::bindings::check_or_write(&path, &fresh, "cargo test -p studio-sync --test main bindings");
}

#[test]
fn checked_in_configuration_file_schema_matches_the_model() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema/configuration.schema.json");
    let fresh = studio_sync::folder::schema::schema_text();
    studio_testkit::bindings::check_or_write(&path, &fresh, "cargo test -p studio-sync --test main bindings");
}

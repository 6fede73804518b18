//! The UI's TypeScript copies of the desktop shell's own types (connections, sign-in, copy, settings, task
//! progress, connection state, the folder workspace's changes) and of the sign-in facts the connection form needs (the default client id,
//! which methods go through a provider), checked in at `ui/src/lib/types/desktop.ts`. This test fails when
//! they are stale; run it with `UPDATE_BINDINGS=1` to write a fresh copy.

pub mod commands;

use std::path::PathBuf;

use search_studio::connections::{
    Connection, ConnectionInput, Connections, FolderApplied, FolderPlan, SignInInput, SignInMethod,
};
use search_studio::folder::{FileProblem, FolderChange, FolderEntry};
use search_studio::local_store::{LostDocuments, Policy, RecoverReport, StoreStatus};
use search_studio::secrets::SecretStorage;
use search_studio::{BackupSettings, ConnectionState, Folder, Progress, Settings, Theme};
use studio_remote::oidc::DEFAULT_CLIENT_ID;
use studio_sync::CopyPlan;
use ts_rs::TS;

fn generated() -> String {
    let cfg = ts_rs::Config::default();
    let mut out = String::from(
        "// Generated from the Rust types of the desktop shell (src-tauri) by its `bindings` test; do not edit.\n\
         // Regenerate: UPDATE_BINDINGS=1 cargo test -p search-studio --test commands bindings\n\n\
         import type { Configuration } from './generated';\n\
         import type { Done, FieldDiff, Plan, Problem, PublishOutcome } from './sync';\n",
    );
    let decls = [
        SignInMethod::decl(&cfg),
        SecretStorage::decl(&cfg),
        Connection::decl(&cfg),
        Connections::decl(&cfg),
        ConnectionInput::decl(&cfg),
        SignInInput::decl(&cfg),
        CopyPlan::decl(&cfg),
        Theme::decl(&cfg),
        Settings::decl(&cfg),
        Progress::decl(&cfg),
        ConnectionState::decl(&cfg),
        StoreStatus::decl(&cfg),
        LostDocuments::decl(&cfg),
        RecoverReport::decl(&cfg),
        Folder::decl(&cfg),
        BackupSettings::decl(&cfg),
        FileProblem::decl(&cfg),
        FolderEntry::decl(&cfg),
        FolderChange::decl(&cfg),
        FolderApplied::decl(&cfg),
        FolderPlan::decl(&cfg),
    ];
    for decl in decls {
        studio_testkit::bindings::push_declaration(&mut out, &decl);
    }
    out.push_str("\n/** What a copy answers: published, or a conflict when the target changed after the plan. */\n");
    out.push_str("export type CopyOutcome = PublishOutcome;\n");
    let with_provider: Vec<SignInMethod> = SignInMethod::ALL.into_iter().filter(|m| m.uses_provider()).collect();
    out.push_str(&format!(
        "\n/** The client id a provider sign-in uses when none is given. */\n\
         export const DEFAULT_CLIENT_ID = {};\n\
         \n/** The sign-in methods that go through an OpenID Connect provider (they need its issuer URL and a client id). */\n\
         export const SIGN_IN_METHODS_WITH_PROVIDER: readonly SignInMethod[] = {};\n",
        serde_json::to_string(DEFAULT_CLIENT_ID).unwrap(),
        serde_json::to_string(&with_provider).unwrap(),
    ));
    out.push_str(&format!(
        "\n/** Which automatic backups of the store are kept: the newest `keepLast`, and the newest of each of the last `dailyDays` days. */\n\
         export const BACKUP_POLICY = {{ keepLast: {}, dailyDays: {} }} as const;\n",
        Policy::KEEP_LAST,
        Policy::DAILY_DAYS,
    ));
    out
}

#[test]
fn checked_in_typescript_types_match_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ui/src/lib/types/desktop.ts");
    let fresh = generated();
    studio_testkit::bindings::check_or_write(&path, &fresh, "cargo test -p search-studio --test commands bindings");
}

//! Generates the per-command permissions (`allow-<command>`) that capabilities/default.json grants.

const COMMANDS: &[&str] = &[
    "default_configuration",
    "list_configurations",
    "active_configuration",
    "get_configuration",
    "create_configuration",
    "update_configuration",
    "set_active",
    "visible_configurations",
    "configuration_logs",
    "delete_configuration",
    "similar_documents",
    "recommendations",
    "search",
    "search_spaces",
    "get_settings",
    "set_preference",
    "start_import",
    "load_demo",
    "cancel_task",
    "save_draft",
    "get_draft",
    "list_drafts",
    "discard_draft",
    "publish",
    "history",
    "check_connection",
    "start_pull",
    "export_configurations",
    "import_configurations",
    "open_link",
    "list_connections",
    "save_connection",
    "remove_connection",
    "use_connection",
    "sign_in",
    "sign_in_browser",
    "cancel_sign_in",
    "sign_out",
    "offers",
    "copy_plan",
    "copy_configuration",
];

fn main() {
    let manifest = tauri_build::AppManifest::new().commands(COMMANDS);
    if let Err(e) = tauri_build::try_build(tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(manifest)) {
        panic!("tauri build step failed: {e:#}");
    }
}

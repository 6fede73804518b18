//! The IPC commands, one module per domain. Each command is a few lines that delegate to the current
//! backend, the connections or the preferences; no rule of the API lives here.

pub mod configurations;
pub mod connections;
pub mod copy;
pub mod drafts;
pub mod files;
pub mod links;
pub mod search;
pub mod settings;
pub mod sync;
pub mod tasks;

/// Every command, for the permission manifest (build.rs keeps its own copy of these names) and the
/// invoke handler.
#[macro_export]
macro_rules! all_commands {
    () => {
        tauri::generate_handler![
            $crate::commands::configurations::default_configuration,
            $crate::commands::configurations::list_configurations,
            $crate::commands::configurations::active_configuration,
            $crate::commands::configurations::get_configuration,
            $crate::commands::configurations::create_configuration,
            $crate::commands::configurations::update_configuration,
            $crate::commands::configurations::set_active,
            $crate::commands::configurations::visible_configurations,
            $crate::commands::configurations::configuration_logs,
            $crate::commands::configurations::delete_configuration,
            $crate::commands::search::similar_documents,
            $crate::commands::search::recommendations,
            $crate::commands::search::search,
            $crate::commands::search::search_spaces,
            $crate::commands::settings::get_settings,
            $crate::commands::settings::set_preference,
            $crate::commands::tasks::start_import,
            $crate::commands::tasks::load_demo,
            $crate::commands::tasks::cancel_task,
            $crate::commands::drafts::save_draft,
            $crate::commands::drafts::get_draft,
            $crate::commands::drafts::list_drafts,
            $crate::commands::drafts::discard_draft,
            $crate::commands::sync::publish,
            $crate::commands::sync::history,
            $crate::commands::sync::check_connection,
            $crate::commands::sync::start_pull,
            $crate::commands::files::export_configurations,
            $crate::commands::files::import_configurations,
            $crate::commands::links::open_link,
            $crate::commands::connections::list_connections,
            $crate::commands::connections::save_connection,
            $crate::commands::connections::remove_connection,
            $crate::commands::connections::use_connection,
            $crate::commands::connections::sign_in,
            $crate::commands::connections::sign_in_browser,
            $crate::commands::connections::cancel_sign_in,
            $crate::commands::connections::sign_out,
            $crate::commands::connections::offers,
            $crate::commands::copy::copy_plan,
            $crate::commands::copy::copy_configuration,
        ]
    };
}

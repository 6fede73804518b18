//! What lets a program outside the app time it as a user sees it (`studio-bench --desktop`): with
//! [`MARK_FIRST_RESULTS`] set to `1`, the app prints [`FIRST_RESULTS_LINE`] on its standard output once,
//! when the preview first shows search results. Without it the command does nothing.

use std::io::Write;
use std::sync::Once;

use studio_model::marks::{FIRST_RESULTS_LINE, MARK_FIRST_RESULTS};

use crate::error::IpcError;

static MARKED: Once = Once::new();

/// The preview has painted search results; prints the mark the first time, when it is asked for.
#[tauri::command]
pub fn first_results_shown() -> Result<(), IpcError> {
    if std::env::var_os(MARK_FIRST_RESULTS).is_some_and(|v| v == "1") {
        MARKED.call_once(|| {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{FIRST_RESULTS_LINE}").and_then(|()| out.flush());
        });
    }
    Ok(())
}

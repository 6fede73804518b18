//! The main window's one command: the UI tells the shell that its first screen is complete.

use tauri::{AppHandle, Runtime};

use crate::error::Answer;

/// The UI's first screen is complete (the preview's first answer, the recovery screen, a sign-in, or what could
/// not be loaded): shows the main window, created hidden so that its first paint is that screen.
#[tauri::command]
pub fn first_screen_ready<R: Runtime>(app: AppHandle<R>) -> Answer<()> {
    crate::window::show_main(&app);
    Ok(())
}

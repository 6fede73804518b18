//! Long work started from the UI: it answers with a task id at once and reports through `task-progress`.

use tauri::State;

use crate::error::Answer;
use crate::state::{BackendSlot, Tasks};
use crate::work;

#[tauri::command]
pub async fn start_import(
    tasks: State<'_, Tasks>,
    slot: State<'_, BackendSlot>,
    path: String,
    search_space: String,
) -> Answer<u64> {
    work::start_import(&tasks, slot.local(), path.into(), search_space)
}

#[tauri::command]
pub async fn load_demo(tasks: State<'_, Tasks>, slot: State<'_, BackendSlot>) -> Answer<u64> {
    Ok(work::start_demo_load(&tasks, slot.local()))
}

#[tauri::command]
pub async fn cancel_task(tasks: State<'_, Tasks>, task_id: u64) -> Answer<bool> {
    Ok(tasks.cancel(task_id))
}

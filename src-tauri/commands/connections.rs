//! The connections (the local store and remote servers) and signing in to them. Each command delegates to
//! the connection store.

use tauri::State;

use crate::connections::{ConnectionInput, ConnectionStore, Connections, SignInInput};
use crate::error::Answer;
use crate::state::BackendSlot;

#[tauri::command]
pub async fn list_connections(connections: State<'_, ConnectionStore>) -> Answer<Connections> {
    Ok(connections.list())
}

/// Adds or changes a remote connection; with a password given, signs in first.
#[tauri::command]
pub async fn save_connection(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    input: ConnectionInput,
) -> Answer<Connections> {
    connections.save(&slot, input).await
}

#[tauri::command]
pub async fn remove_connection(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    id: String,
) -> Answer<Connections> {
    connections.remove(&slot, &id).await
}

/// Switches the backend; `unauthorized` still switches, so that the UI can ask for a sign-in.
#[tauri::command]
pub async fn use_connection(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    id: String,
) -> Answer<Connections> {
    connections.switch(&slot, &id).await
}

#[tauri::command]
pub async fn sign_in(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    id: String,
    input: SignInInput,
) -> Answer<Connections> {
    connections.sign_in(&slot, &id, input).await
}

#[tauri::command]
pub async fn sign_in_browser(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    id: String,
) -> Answer<Connections> {
    connections.sign_in_browser(&slot, &id).await
}

/// Ends a browser sign-in to connection `id` that is waiting (the sign-in dialog's Cancel).
#[tauri::command]
pub async fn cancel_sign_in(connections: State<'_, ConnectionStore>, id: String) -> Answer<()> {
    connections.cancel_sign_in(&id);
    Ok(())
}

#[tauri::command]
pub async fn sign_out(
    connections: State<'_, ConnectionStore>,
    slot: State<'_, BackendSlot>,
    id: String,
) -> Answer<Connections> {
    connections.sign_out(&slot, &id).await
}

//! The desktop app's tests on Tauri's mock runtime (no window system), gathered in one test binary: each
//! file of this directory is a module here, so that a change links one test program instead of one per
//! file. Every one of them calls the IPC commands as the UI does, through [`harness`]; the binary keeps the
//! name `commands` (`cargo test -p search-studio --test commands`).

mod bindings;
mod harness;

mod commands;
mod connections;
mod folder;
mod folder_apply;
mod offline;
mod scenarios;
mod store;

//! Makes, from the one command list (commands/list.rs), a permission per command (`allow-<command>`) and
//! the capability `commands` that grants the main window exactly those; the capabilities written by hand
//! (src-tauri/capabilities: the plugins' grants) are read beside it.

use std::path::{Path, PathBuf};

macro_rules! command_list {
    ($($module:ident :: $command:ident),* $(,)?) => {
        /// The commands' names.
        const COMMANDS: &[&str] = &[$(stringify!($command)),*];
    };
}

include!("commands/list.rs");

/// The hand-written capabilities.
const CAPABILITIES: &str = "src-tauri/capabilities";

/// The capability granting every command of the list, each by its own permission, to the main window.
fn commands_capability() -> String {
    let grants: Vec<String> = COMMANDS.iter().map(|c| format!("    \"allow-{}\"", c.replace('_', "-"))).collect();
    format!(
        "{{\n  \"identifier\": \"commands\",\n  \"description\": \"The app's own commands (src-tauri/commands/list.rs), each by its own permission.\",\n  \"windows\": [\"main\"],\n  \"permissions\": [\n{}\n  ]\n}}\n",
        grants.join(",\n")
    )
}

/// Writes the generated capability and copies the hand-written ones into `dir`, for tauri-build to read
/// together (it reads one folder).
fn gather_capabilities(dir: &Path) -> std::io::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    for entry in std::fs::read_dir(CAPABILITIES)? {
        let path = entry?.path();
        if let Some(name) = path.file_name().filter(|_| path.is_file()) {
            std::fs::copy(&path, dir.join(name))?;
        }
    }
    std::fs::write(dir.join("commands.json"), commands_capability())
}

fn main() {
    println!("cargo:rerun-if-changed=src-tauri/commands/list.rs");
    println!("cargo:rerun-if-changed={CAPABILITIES}");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| panic!("cargo sets OUT_DIR")));
    let capabilities = out_dir.join("capabilities");
    if let Err(e) = gather_capabilities(&capabilities) {
        panic!("cannot gather the capabilities in {}: {e}", capabilities.display());
    }
    // tauri-build takes the pattern for the whole build; a build script runs once per build.
    let pattern: &'static str = Box::leak(format!("{}/*.json", capabilities.display()).into_boxed_str());
    let manifest = tauri_build::AppManifest::new().commands(COMMANDS);
    if let Err(e) =
        tauri_build::try_build(tauri_build::Attributes::new().capabilities_path_pattern(pattern).app_manifest(manifest))
    {
        panic!("tauri build step failed: {e:#}");
    }
}

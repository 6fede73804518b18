//! Makes, from the one command list (commands/list.rs), a permission per command (`allow-<command>`) and
//! the capability `commands` that grants the main window exactly those; the capabilities written by hand
//! (src-tauri/capabilities: the plugins' grants) are read beside it. The commands listed as `backend::…`
//! are written here too, each from its method of the `Backend` trait (`backend_commands.rs`).

use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{FnArg, Pat, ReturnType, TraitItem, Type};

macro_rules! command_list {
    ($($module:ident :: $command:ident),* $(,)?) => {
        /// The commands, as module and name.
        const COMMANDS: &[(&str, &str)] = &[$((stringify!($module), stringify!($command))),*];
        /// The commands' names.
        const NAMES: &[&str] = &[$(stringify!($command)),*];
    };
}

include!("commands/list.rs");

/// The hand-written capabilities.
const CAPABILITIES: &str = "src-tauri/capabilities";

/// The capability granting every command of the list, each by its own permission, to the main window.
fn commands_capability() -> String {
    let grants: Vec<String> = NAMES.iter().map(|c| format!("    \"allow-{}\"", c.replace('_', "-"))).collect();
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

/// The trait whose methods the `backend::…` commands call.
const BACKEND_TRAIT: &str = "crates/model/src/backend.rs";

/// The command of list entry `backend::<name>`: the trait method's documentation and arguments (less
/// `&self` and the `&Caller`, who is the person at this machine), called on the current backend. A borrowed
/// argument is taken owned and lent to the method; the method's error becomes the command's by `?`.
fn backend_command(method: &syn::TraitItemFn) -> String {
    let name = method.sig.ident.to_string();
    let mut params = vec!["slot: tauri::State<'_, crate::state::BackendSlot>".to_owned()];
    let mut args = Vec::new();
    for input in method.sig.inputs.iter() {
        let FnArg::Typed(arg) = input else { continue };
        let Pat::Ident(ident) = arg.pat.as_ref() else {
            panic!("{BACKEND_TRAIT}: {name} has an argument without a plain name")
        };
        let ident = ident.ident.to_string();
        match arg.ty.as_ref() {
            Type::Reference(r) if r.elem.to_token_stream().to_string() == "Caller" => {
                args.push("&studio_local::os_caller()".to_owned());
            }
            Type::Reference(r) => {
                let owned = match r.elem.to_token_stream().to_string().as_str() {
                    "str" => "String".to_owned(),
                    other => other.to_owned(),
                };
                params.push(format!("{ident}: {owned}"));
                args.push(format!("&{ident}"));
            }
            ty => {
                params.push(format!("{ident}: {}", ty.to_token_stream()));
                args.push(ident);
            }
        }
    }
    let ReturnType::Type(_, answer) = &method.sig.output else { panic!("{BACKEND_TRAIT}: {name} answers nothing") };
    let answer = answer.to_token_stream().to_string();
    let (answer, fallible) = match answer.strip_prefix("Result <").and_then(|a| a.strip_suffix(", BackendError >")) {
        Some(ok) => (ok.trim().to_owned(), "?"),
        None => (answer, ""),
    };
    let docs: String = method
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .map(|a| format!("{}\n", a.to_token_stream()))
        .collect();
    format!(
        "{docs}#[tauri::command]\npub async fn {name}({}) -> Result<{answer}, crate::error::IpcError> {{\n    Ok(slot.get().{name}({}).await{fallible})\n}}\n\n",
        params.join(", "),
        args.join(", ")
    )
}

/// The `backend::…` commands of the list, for commands/backend.rs to include.
fn backend_commands() -> String {
    let text = std::fs::read_to_string(BACKEND_TRAIT).unwrap_or_else(|e| panic!("cannot read {BACKEND_TRAIT}: {e}"));
    let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("cannot parse {BACKEND_TRAIT}: {e}"));
    let methods: Vec<&syn::TraitItemFn> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Trait(t) if t.ident == "Backend" => Some(t),
            _ => None,
        })
        .flat_map(|t| &t.items)
        .filter_map(|item| match item {
            TraitItem::Fn(f) => Some(f),
            _ => None,
        })
        .collect();
    let mut out = String::from(
        "// Written by build.rs from the `backend::…` entries of commands/list.rs and the `Backend` trait.\n\n",
    );
    for (module, command) in COMMANDS.iter().filter(|(module, _)| *module == "backend") {
        let method = methods
            .iter()
            .find(|m| m.sig.ident == command)
            .unwrap_or_else(|| panic!("commands/list.rs names {module}::{command}, which the Backend trait lacks"));
        out.push_str(&backend_command(method));
    }
    out
}

fn main() {
    println!("cargo:rerun-if-changed=src-tauri/commands/list.rs");
    println!("cargo:rerun-if-changed={CAPABILITIES}");
    println!("cargo:rerun-if-changed={BACKEND_TRAIT}");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| panic!("cargo sets OUT_DIR")));
    let commands = out_dir.join("backend_commands.rs");
    if let Err(e) = std::fs::write(&commands, backend_commands()) {
        panic!("cannot write {}: {e}", commands.display());
    }
    let capabilities = out_dir.join("capabilities");
    if let Err(e) = gather_capabilities(&capabilities) {
        panic!("cannot gather the capabilities in {}: {e}", capabilities.display());
    }
    // tauri-build takes the pattern for the whole build; a build script runs once per build.
    let pattern: &'static str = Box::leak(format!("{}/*.json", capabilities.display()).into_boxed_str());
    let manifest = tauri_build::AppManifest::new().commands(NAMES);
    if let Err(e) =
        tauri_build::try_build(tauri_build::Attributes::new().capabilities_path_pattern(pattern).app_manifest(manifest))
    {
        panic!("tauri build step failed: {e:#}");
    }
}

//! The UI's wrappers of the desktop shell's commands, checked in at `ui/src/lib/types/commands.ts`: one
//! function per command of `src-tauri/commands/list.rs`, taking the arguments of the command's Rust
//! signature (its `State` parameters left out) and answering its answer, so that the UI never writes a
//! command's name or the shape of its arguments by hand. The signatures are read from the commands' source;
//! the TypeScript names of their types come from ts-rs. This test fails when the copy is stale; run it with
//! `UPDATE_BINDINGS=1` to write a fresh one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use search_studio::connections::{ConnectionInput, Connections, FolderApplied, FolderPlan, SignInInput};
use search_studio::folder::FolderChange;
use search_studio::local_store::{RecoverReport, StoreStatus};
use search_studio::{BackupSettings, ConnectionState, Folder, Settings, Theme};
use studio_model::{
    Configuration, ConfigurationList, Document, FacetHealth, LogEntry, Offers, RecommendQuery, Recommendations,
    SearchRequest, SearchResponse, SearchSpace, SimilarQuery, WriteOutcome,
};
use studio_sync::files::ImportedConfig;
use studio_sync::folder::{Choices, Done, Plan};
use studio_sync::{CopyPlan, DraftRecord, HistoryEntry, PublishOutcome, Scenario};
use syn::{Expr, FnArg, GenericArgument, Item, ItemFn, Lit, Meta, Pat, PathArguments, ReturnType, Type};
use ts_rs::TS;

macro_rules! command_list {
    ($($module:ident :: $command:ident),* $(,)?) => {
        /// The commands, as module and name, in the order of the list.
        pub const COMMANDS: &[(&str, &str)] = &[$((stringify!($module), stringify!($command))),*];
    };
}

include!("../../commands/list.rs");

/// The generated TypeScript files a command's types may live in, as the wrappers import them.
const TYPE_FILES: [&str; 3] = ["generated", "sync", "desktop"];

/// The TypeScript name of every named Rust type the commands take or answer (a type may be renamed for
/// the UI). A command using a type not listed here makes this test say so.
fn type_names() -> BTreeMap<&'static str, String> {
    let cfg = ts_rs::Config::default();
    macro_rules! names {
        ($($t:ident),* $(,)?) => { BTreeMap::from([$((stringify!($t), <$t as TS>::ident(&cfg))),*]) };
    }
    names![
        Configuration,
        ConfigurationList,
        WriteOutcome,
        LogEntry,
        Document,
        SimilarQuery,
        RecommendQuery,
        Recommendations,
        SearchRequest,
        SearchResponse,
        SearchSpace,
        FacetHealth,
        Offers,
        DraftRecord,
        Scenario,
        PublishOutcome,
        HistoryEntry,
        ImportedConfig,
        CopyPlan,
        Connections,
        ConnectionInput,
        SignInInput,
        ConnectionState,
        Settings,
        Theme,
        StoreStatus,
        RecoverReport,
        Folder,
        BackupSettings,
        FolderChange,
        FolderApplied,
        FolderPlan,
        Plan,
        Choices,
        Done,
    ]
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Writes Rust types as TypeScript, noting the named ones used.
struct TypeWriter {
    names: BTreeMap<&'static str, String>,
    used: BTreeSet<String>,
}

impl TypeWriter {
    fn write(&mut self, ty: &Type, context: &str) -> String {
        match ty {
            Type::Reference(r) => self.write(&r.elem, context),
            Type::Tuple(t) if t.elems.is_empty() => "void".into(),
            Type::Path(p) => {
                let last = p.path.segments.last().unwrap_or_else(|| panic!("{context}: an empty type path"));
                let ident = last.ident.to_string();
                match ident.as_str() {
                    "Option" => match self.write(first_type_argument(&last.arguments, context), context) {
                        unknown if unknown == "unknown" => unknown,
                        inner => format!("{inner} | null"),
                    },
                    "Vec" => format!("Array<{}>", self.write(first_type_argument(&last.arguments, context), context)),
                    "String" | "str" => "string".into(),
                    "bool" => "boolean".into(),
                    "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" | "f32" | "f64" => {
                        "number".into()
                    }
                    // What the UI sends as a JSON value is checked by the backend, not by a type here.
                    "Value" => "unknown".into(),
                    named => {
                        let ts = self
                            .names
                            .get(named)
                            .unwrap_or_else(|| panic!("{context}: add {named} to type_names() in {}", file!()));
                        self.used.insert(ts.clone());
                        ts.clone()
                    }
                }
            }
            _ => panic!("{context}: a type this test cannot write in TypeScript"),
        }
    }
}

fn first_type_argument<'a>(arguments: &'a PathArguments, context: &str) -> &'a Type {
    if let PathArguments::AngleBracketed(a) = arguments {
        if let Some(GenericArgument::Type(ty)) = a.args.first() {
            return ty;
        }
    }
    panic!("{context}: a generic type without its type argument")
}

/// `target_id` → `targetId`: Tauri takes a command's arguments by their camelCase names.
fn camel_case(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

/// The command's doc comment as JSDoc lines, indented for the wrapper.
fn js_doc(function: &ItemFn) -> String {
    let lines: Vec<String> = function
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(e) => match &e.lit {
                    Lit::Str(s) => Some(s.value().trim().to_owned()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect();
    match lines.as_slice() {
        [] => String::new(),
        [one] => format!("    /** {one} */\n"),
        many => format!("    /**\n{}     */\n", many.iter().map(|l| format!("     * {l}\n")).collect::<String>()),
    }
}

/// The wrapper of command `name`, defined in `module`'s source.
fn wrapper(source: &syn::File, module: &str, name: &str, types: &mut TypeWriter) -> String {
    let context = format!("commands/{module}.rs: {name}");
    let function = source
        .items
        .iter()
        .find_map(|item| match item {
            Item::Fn(f) if f.sig.ident == name => Some(f),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{context}: no such function"));
    assert!(
        function.attrs.iter().any(|a| a.path().segments.last().is_some_and(|s| s.ident == "command")),
        "{context}: not a #[tauri::command]"
    );
    let mut params = Vec::new();
    let mut args = Vec::new();
    for input in &function.sig.inputs {
        let FnArg::Typed(arg) = input else { panic!("{context}: a command takes no self") };
        if let Type::Path(p) = arg.ty.as_ref() {
            if p.path.segments.last().is_some_and(|s| s.ident == "State" || s.ident == "AppHandle") {
                continue; // the shell's own state and handle, not sent by the UI
            }
        }
        let Pat::Ident(ident) = arg.pat.as_ref() else { panic!("{context}: an argument without a plain name") };
        let camel = camel_case(&ident.ident.to_string());
        params.push(format!("{camel}: {}", types.write(&arg.ty, &context)));
        args.push(camel);
    }
    let ReturnType::Type(_, answer) = &function.sig.output else { panic!("{context}: a command answers a Result") };
    let Type::Path(result) = answer.as_ref() else { panic!("{context}: a command answers a Result") };
    let last = result.path.segments.last().unwrap_or_else(|| panic!("{context}: an empty answer type"));
    let answer = types.write(first_type_argument(&last.arguments, &context), &context);
    let args = if args.is_empty() { "{}".to_owned() } else { format!("{{ {} }}", args.join(", ")) };
    format!(
        "{}    {}: ({}): Promise<{answer}> => invoke<{answer}>('{name}', {args}),\n",
        js_doc(function),
        camel_case(name),
        params.join(", ")
    )
}

/// Which generated file exports TypeScript type `name`.
fn type_file(name: &str, files: &[(&str, String)]) -> &'static str {
    let declared = |text: &String| {
        text.contains(&format!("export type {name} ")) || text.contains(&format!("export type {name}<"))
    };
    TYPE_FILES
        .into_iter()
        .zip(files)
        .find(|(_, (_, text))| declared(text))
        .map(|(file, _)| file)
        .unwrap_or_else(|| panic!("no generated TypeScript file exports {name}"))
}

fn generated() -> String {
    let mut types = TypeWriter { names: type_names(), used: BTreeSet::new() };
    let mut sources: BTreeMap<&str, syn::File> = BTreeMap::new();
    let mut wrappers = String::new();
    for (module, name) in COMMANDS {
        let source = sources.entry(module).or_insert_with(|| {
            // The `backend::` commands are written by build.rs, from the `Backend` trait.
            let path = match *module {
                "backend" => PathBuf::from(concat!(env!("OUT_DIR"), "/backend_commands.rs")),
                _ => root().join("src-tauri/commands").join(format!("{module}.rs")),
            };
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        });
        wrappers.push_str(&wrapper(source, module, name, &mut types));
    }

    let files: Vec<(&str, String)> = TYPE_FILES
        .into_iter()
        .map(|f| (f, std::fs::read_to_string(types_dir().join(format!("{f}.ts"))).unwrap_or_default()))
        .collect();
    let mut imports: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for name in &types.used {
        imports.entry(type_file(name, &files)).or_default().push(name);
    }
    let mut out = String::from(
        "// Generated from the desktop shell's command list (src-tauri/commands/list.rs) and the commands' Rust\n\
         // signatures by its `bindings` test; do not edit.\n\
         // Regenerate: UPDATE_BINDINGS=1 cargo test -p search-studio --test commands bindings\n\n",
    );
    for file in TYPE_FILES {
        if let Some(names) = imports.get(file) {
            out.push_str(&format!("import type {{ {} }} from './{file}';\n", names.join(", ")));
        }
    }
    out.push_str(
        "\n/** Calls a command of the desktop shell with its arguments by name; answers what the command answers. */\n\
         export type Invoke = <T>(command: string, args: Record<string, unknown>) => Promise<T>;\n\n\
         /** Every command of the desktop shell, as a function over `invoke` with the arguments of its Rust signature. */\n\
         export function shellCommands(invoke: Invoke) {\n  return {\n",
    );
    out.push_str(&wrappers);
    out.push_str(
        "  };\n}\n\n/** The desktop shell's commands, by the names the UI calls them. */\n\
         export type ShellCommands = ReturnType<typeof shellCommands>;\n",
    );
    let api: Vec<String> = COMMANDS
        .iter()
        .filter(|(module, _)| *module == "backend")
        .map(|(_, name)| format!("'{}'", camel_case(name)))
        .collect();
    out.push_str(&format!(
        "\n/** The operations of the API (the `Backend` trait's, the `backend::` commands of the list). */\n\
         export const API_OPERATIONS = [{}] as const;\n\n\
         /** The operations of the API, with the arguments and answers of the `Backend` trait. */\n\
         export type ApiOperations = Pick<ShellCommands, (typeof API_OPERATIONS)[number]>;\n\n\
         /** The API's operations among the shell's commands. */\n\
         export function apiOperations(shell: ShellCommands): ApiOperations {{\n  \
         return Object.fromEntries(API_OPERATIONS.map((name) => [name, shell[name]])) as ApiOperations;\n}}\n",
        api.join(", ")
    ));
    out
}

fn types_dir() -> PathBuf {
    root().join("ui/src/lib/types")
}

#[test]
fn checked_in_command_wrappers_match_the_command_list_and_signatures() {
    let path = types_dir().join("commands.ts");
    let fresh = generated();
    studio_testkit::bindings::check_or_write(&path, &fresh, "cargo test -p search-studio --test commands bindings");
}

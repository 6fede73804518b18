//! What the packages promise that the test command can check without a release build: one version
//! everywhere (the workspace's), and a man page and shell completions for every command `studio --help`
//! lists (scripts/package.sh installs what `studio manuals` writes).

use std::path::Path;
use std::process::Command;

use crate::support::{serve, STUDIO};

/// The workspace's one version, `[workspace.package] version` of the root Cargo.toml.
fn workspace_version() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let section = manifest.split("[workspace.package]").nth(1).expect("Cargo.toml has [workspace.package]");
    let line = section
        .lines()
        .take_while(|l| !l.starts_with('['))
        .find_map(|l| l.strip_prefix("version = "))
        .expect("[workspace.package] has a version");
    line.trim().trim_matches('"').to_owned()
}

#[test]
fn the_cli_the_api_docs_and_the_desktop_app_carry_the_workspace_version() {
    let version = workspace_version();

    let out = Command::new(STUDIO).arg("--version").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("studio {version}"));

    let dir = tempfile::tempdir().unwrap();
    let served = serve(dir.path());
    let docs: serde_json::Value =
        served.client().get(format!("{}/api-docs", served.base)).send().unwrap().json().unwrap();
    assert_eq!(docs["info"]["version"], version.as_str(), "the version /api-docs states");

    // The desktop app takes its version from Cargo.toml when tauri.conf.json names none.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tauri: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("tauri.conf.json")).unwrap()).unwrap();
    if let Some(desktop) = tauri.get("version") {
        assert_eq!(desktop, version.as_str(), "tauri.conf.json's version differs from the workspace's");
    }
}

/// The commands `studio --help` lists, but `help`.
/// Each command's page name (`serve`, `config-pull`), the command whose page names it (none: `studio.1`), and
/// the word a shell completes.
fn listed_commands() -> Vec<(String, Option<String>, String)> {
    let listed = |args: &[&str]| -> Vec<String> {
        let out = Command::new(STUDIO).args(args).arg("--help").output().unwrap();
        let help = String::from_utf8_lossy(&out.stdout).into_owned();
        let Some(commands) = help.split("Commands:").nth(1) else { return Vec::new() };
        commands
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|name| *name != "help")
            .map(str::to_owned)
            .collect()
    };
    let top = listed(&[]);
    assert!(!top.is_empty(), "studio --help lists its commands");
    // A command's own commands (`studio config pull`) as `config-pull`, each with a page of its own that the
    // command's page names.
    top.iter()
        .flat_map(|command| {
            let subs = listed(&[command.as_str()])
                .into_iter()
                .map(move |sub| (format!("{command}-{sub}"), Some(command.clone()), sub));
            std::iter::once((command.clone(), None, command.clone())).chain(subs)
        })
        .collect()
}

#[test]
fn every_command_has_a_man_page_and_completes_in_bash_zsh_and_fish() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(STUDIO).arg("manuals").arg(dir.path()).output().unwrap();
    assert!(out.status.success(), "studio manuals: {}", String::from_utf8_lossy(&out.stderr));

    let commands = listed_commands();
    assert!(commands.iter().any(|(c, _, _)| c == "serve"), "{commands:?}");
    let man = dir.path().join("man/man1");
    let main_page = std::fs::read_to_string(man.join("studio.1")).unwrap();
    assert!(main_page.contains(".TH studio 1"), "{main_page}");
    for (command, parent, _) in &commands {
        let page = std::fs::read_to_string(man.join(format!("studio-{command}.1")))
            .unwrap_or_else(|e| panic!("no man page for `studio {command}`: {e}"));
        // roff writes every hyphen of a name as `\-`; a command's own commands are named on its page.
        let reference = format!("studio-{command}(1)").replace('-', "\\-");
        let parent = match parent {
            Some(parent) => std::fs::read_to_string(man.join(format!("studio-{parent}.1"))).unwrap(),
            None => main_page.clone(),
        };
        assert!(parent.contains(&reference), "no page refers to studio-{command}(1)");
        assert!(page.contains(".SH OPTIONS"), "studio-{command}.1 has no options section");
    }
    let serve_page = std::fs::read_to_string(man.join("studio-serve.1")).unwrap();
    assert!(serve_page.contains("\\-\\-listen"), "studio-serve.1 does not describe --listen");
    let pages = std::fs::read_dir(&man).unwrap().count();
    assert_eq!(pages, commands.len() + 1, "a page for a command the help does not list");

    for file in [
        "bash-completion/completions/studio",
        "zsh/vendor-completions/_studio",
        "fish/vendor_completions.d/studio.fish",
    ] {
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        for (command, _, word) in &commands {
            assert!(text.contains(word.as_str()), "{file} does not complete `studio {}`", command.replace('-', " "));
        }
        assert!(!text.contains("manuals"), "{file} offers `manuals`, the packages' own command");
    }
}

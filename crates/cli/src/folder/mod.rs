//! `studio config pull|lint|plan|apply|promote`: configurations as a folder of files kept in git
//! (docs/config-files.md). A thin layer over `studio_sync::folder`, which the desktop shares: this module
//! opens the targets, prints, asks for confirmation and turns outcomes into exit codes (plan: 0 nothing to do,
//! 2 changes, 1 error).

pub mod args;
mod show;
mod target;

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use studio_sync::folder::{self, Choices, Desired, Done, FolderError, Plan, StateFile, Target};
use studio_sync::Side;
use tokio::runtime::Runtime;

use self::args::{ApplyArgs, ConfigArgs, ConfigCommand, PlanArgs};
use self::target::Opened;
use crate::error::CliError;
use crate::global_args::GlobalArgs;
use crate::runtime::runtime;
use crate::signin::CredentialVars;

/// Where `promote` reads the credentials of the server it promotes from.
const SOURCE_VARS: CredentialVars = CredentialVars { prefix: "STUDIO_SOURCE", issuer_flag: "--from-issuer" };
/// The promotions' state, in the data directory.
const PROMOTIONS_FILE: &str = "promotions.json";
/// The exit code of a plan with changes, as Terraform's `-detailed-exitcode`.
const CHANGES: u8 = 2;

pub fn run(global: &GlobalArgs, args: &ConfigArgs) -> Result<ExitCode, CliError> {
    // One runtime for the whole command: a server's client keeps its connections on it.
    let rt = runtime()?;
    let rt = &rt;
    match &args.command {
        ConfigCommand::Pull { from, dir, sign_in } => {
            let source = Opened::open_remote_vars(global, from, sign_in)?;
            pull(rt, &source, dir).map(|()| ExitCode::SUCCESS)
        }
        ConfigCommand::Lint { dir } => {
            let desired = lint(dir, &mut std::io::stdout())?;
            println!("{}: {} configuration file(s), no problem", dir.display(), desired.len());
            Ok(ExitCode::SUCCESS)
        }
        ConfigCommand::Plan { dir, to, plan, sign_in } => {
            let desired = lint(dir, &mut std::io::stderr())?;
            let target = Opened::open_remote_vars(global, to, sign_in)?;
            let state = StateFile::read(&folder::state_path(dir)).map_err(cli)?;
            let made = make_plan(rt, &target, &target.name, &desired, &state, plan)?;
            print_plan(&made, plan.json);
            Ok(plan_exit(&made))
        }
        ConfigCommand::Apply { dir, to, plan, apply, sign_in } => {
            let desired = lint(dir, &mut std::io::stderr())?;
            let target = Opened::open_remote_vars(global, to, sign_in)?;
            let mut state = StateFile::read(&folder::state_path(dir)).map_err(cli)?;
            let made = make_plan(rt, &target, &target.name, &desired, &state, plan)?;
            apply_plan(rt, &target, &target.name, &made, plan.json, apply, Some(dir), &mut state)
        }
        ConfigCommand::Promote { from, to, plan, apply, dry_run, from_issuer, from_client_id, sign_in } => {
            let source = Opened::open(global, from, || SOURCE_VARS.sign_in(from_issuer.as_deref(), from_client_id))?;
            let target = Opened::open_remote_vars(global, to, sign_in)?;
            let mut state = StateFile::read(&global.data_dir()?.join(PROMOTIONS_FILE)).map_err(cli)?;
            // What was applied from one source is kept apart from what was applied from another.
            let name = format!("{} -> {}", source.name, target.name);
            let desired = rt.block_on(async {
                source.sign_in_now().await?;
                let list = source.backend.list_configurations().await?;
                Ok::<_, CliError>(folder::desired_from(&list))
            })?;
            let made = make_plan(rt, &target, &name, &desired, &state, plan)?;
            if *dry_run {
                print_plan(&made, plan.json);
                return Ok(plan_exit(&made));
            }
            apply_plan(rt, &target, &name, &made, plan.json, apply, None, &mut state)
        }
    }
}

/// A folder error as the CLI reports it; a backend's error keeps its own kind.
fn cli(e: FolderError) -> CliError {
    match e {
        FolderError::Backend(b) => CliError::Backend(b),
        other => CliError::Input(other.to_string()),
    }
}

fn plan_exit(plan: &Plan) -> ExitCode {
    if plan.has_changes() {
        ExitCode::from(CHANGES)
    } else {
        ExitCode::SUCCESS
    }
}

fn pull(rt: &Runtime, source: &Opened, dir: &Path) -> Result<(), CliError> {
    let pulled = rt.block_on(async {
        source.sign_in_now().await?;
        folder::pull(dir, &source.name, source.backend.as_ref()).await.map_err(cli)
    })?;
    let mut counts = [0usize; 3];
    for file in &pulled {
        let (what, slot) = match (file.new, file.written) {
            (true, _) => ("new", 0),
            (false, true) => ("updated", 1),
            (false, false) => ("unchanged", 2),
        };
        counts[slot] += 1;
        println!("{what:<9} {}.json (id {}, {:?})", file.key, file.id, file.title);
    }
    println!(
        "pulled {} configuration(s) from {} into {}: {} new, {} updated, {} unchanged",
        pulled.len(),
        source.name,
        dir.display(),
        counts[0],
        counts[1],
        counts[2]
    );
    Ok(())
}

/// Reads and checks the folder; each problem is written to `out` as FILE:LINE:COLUMN: MESSAGE.
fn lint(dir: &Path, out: &mut dyn Write) -> Result<Vec<Desired>, CliError> {
    let read = folder::read_folder(dir).map_err(|source| CliError::Io {
        what: "cannot read the folder",
        path: dir.display().to_string(),
        source,
    })?;
    match folder::lint(&read) {
        Ok(desired) => Ok(desired),
        Err(problems) => {
            for problem in &problems {
                let path = dir.join(&problem.file);
                let _ = writeln!(out, "{}:{}:{}: {}", path.display(), problem.line, problem.column, problem.message);
            }
            Err(cli(FolderError::Lint(problems.len())))
        }
    }
}

fn make_plan(
    rt: &Runtime,
    target: &Opened,
    name: &str,
    desired: &[Desired],
    state: &StateFile,
    args: &PlanArgs,
) -> Result<Plan, CliError> {
    rt.block_on(async {
        target.sign_in_now().await?;
        folder::plan_for(target.backend.as_ref(), name, desired, state, args.prune).await.map_err(cli)
    })
}

fn print_plan(plan: &Plan, json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(plan).unwrap_or_default());
    } else {
        print!("{}", show::plan_text(plan));
    }
}

/// The sides `--ours`/`--theirs` choose; an empty value is every conflict.
fn choices(args: &ApplyArgs) -> Result<Choices, CliError> {
    let mut choices = Choices::default();
    for (values, side) in [(&args.ours, Side::Mine), (&args.theirs, Side::Theirs)] {
        for key in values {
            let before =
                if key.is_empty() { choices.all.replace(side) } else { choices.keys.insert(key.clone(), side) };
            if before.is_some_and(|s| s != side) {
                let what = if key.is_empty() { "every conflict" } else { key.as_str() };
                return Err(CliError::Usage(format!("--ours and --theirs both choose for {what}")));
            }
        }
    }
    Ok(choices)
}

/// Shows the plan, asks, and makes its changes, printing each write.
#[allow(clippy::too_many_arguments)]
fn apply_plan(
    rt: &Runtime,
    target: &Opened,
    name: &str,
    plan: &Plan,
    json: bool,
    args: &ApplyArgs,
    folder_dir: Option<&Path>,
    state: &mut StateFile,
) -> Result<ExitCode, CliError> {
    let choices = choices(args)?;
    print_plan(plan, json);
    choices.check(plan).map_err(cli)?;
    if plan.has_changes() && !args.yes {
        confirm(name)?;
    }
    let target_ref = Target { backend: target.backend.as_ref(), name, caller: &target.caller };
    let mut writes = 0usize;
    let mut on_write = |done: &Done| {
        writes += 1;
        if json {
            println!("{}", serde_json::to_string(done).unwrap_or_default());
        } else {
            println!("{}", folder::show::done_line(done));
        }
        test_hooks(writes);
    };
    let done =
        rt.block_on(folder::apply(&target_ref, plan, &choices, folder_dir, state, &mut on_write)).map_err(cli)?;
    if !json {
        if done.is_empty() {
            println!("Nothing was written.");
        } else {
            println!("Applied {} change(s) to {name}.", done.len());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks on a terminal; refuses anywhere else.
fn confirm(name: &str) -> Result<(), CliError> {
    if !std::io::stdin().is_terminal() {
        return Err(CliError::Input(
            "not applying: standard input is not a terminal to confirm on; add --yes to apply without asking".into(),
        ));
    }
    print!("Apply these changes to {name}? Type yes to apply: ");
    let _ = std::io::stdout().flush();
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    if answer.trim() == "yes" {
        Ok(())
    } else {
        Err(CliError::Input("not applied: nothing was written".into()))
    }
}

/// In debug builds only, what the tests stop an apply with: STUDIO_TEST_APPLY_EXIT_AFTER=N ends the process
/// (exit 3) right after the N-th write on the target, before the state knows of it; STUDIO_TEST_APPLY_PAUSE_AFTER=N
/// waits there for a line on standard input.
fn test_hooks(writes: usize) {
    #[cfg(debug_assertions)]
    {
        let at = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<usize>().ok()) == Some(writes);
        if at("STUDIO_TEST_APPLY_EXIT_AFTER") {
            eprintln!("stopped after {writes} write(s)");
            std::process::exit(3);
        }
        if at("STUDIO_TEST_APPLY_PAUSE_AFTER") {
            eprintln!("paused after {writes} write(s)");
            let _ = std::io::stdin().lock().read_line(&mut String::new());
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = writes;
}

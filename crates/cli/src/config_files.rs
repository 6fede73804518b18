//! `export-config` and `import-config`: configurations as JSON files. One configuration is written as its
//! envelope, as the API answers it; `--all` writes a bundle with a format version (studio_sync::files). Import
//! reads either and always creates new configurations.

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use studio_local::os_caller;
use studio_model::Backend;
use studio_sync::files;
use studio_sync::whole_file::write_whole;

use crate::args::Cli;
use crate::error::CliError;
use crate::global_args::GlobalArgs;
use crate::runtime::runtime;

/// Ends the process with a usage error (exit code 2), as clap does for its own checks.
fn usage(message: &str) -> ! {
    Cli::command().error(clap::error::ErrorKind::ArgumentConflict, message).exit()
}

pub fn export(global: &GlobalArgs, args: &[String], all: bool) -> Result<(), CliError> {
    let (value, file) = match (all, args) {
        (true, file) if file.len() <= 1 => {
            let backend = global.local_backend()?;
            let bundle =
                runtime()?.block_on(files::export_all(&backend)).map_err(|e| CliError::Input(e.to_string()))?;
            (bundle, file.first().map(PathBuf::from))
        }
        (false, [id, rest @ ..]) if rest.len() <= 1 => {
            let Ok(id) = id.parse::<i32>() else {
                usage(&format!("`{id}` is not a configuration id (a whole number)"))
            };
            let backend = global.local_backend()?;
            let config = runtime()?.block_on(backend.get_configuration(id))?;
            let value = serde_json::to_value(config).map_err(|e| CliError::Input(e.to_string()))?;
            (value, rest.first().map(PathBuf::from))
        }
        (true, _) => usage("with --all, give at most the FILE to write"),
        (false, _) => usage("give the ID of the configuration to export (or --all), then optionally a FILE"),
    };
    let mut text = serde_json::to_string_pretty(&value).map_err(|e| CliError::Input(e.to_string()))?;
    text.push('\n');
    match file {
        // Whole or not at all: a write that fails (a full disk) leaves the file as it was.
        Some(path) => write_whole(&path, &text).map_err(|source| CliError::Io {
            what: "cannot write",
            path: path.display().to_string(),
            source,
        })?,
        None => print!("{text}"),
    }
    Ok(())
}

pub fn import(global: &GlobalArgs, file: &Path) -> Result<(), CliError> {
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|source| CliError::Io {
        what: "cannot read",
        path: shown.clone(),
        source,
    })?;
    // The reader's messages speak of "the file"; name it.
    let envelopes = files::read(&text).map_err(|e| CliError::Input(e.to_string().replacen("the file", &shown, 1)))?;
    let backend = global.local_backend()?;
    let imported = runtime()?
        .block_on(files::import(&backend, &os_caller(), envelopes))
        .map_err(|e| CliError::Input(format!("{shown}: {e}")))?;
    for config in &imported {
        for error in &config.errors {
            eprintln!("warning: {}: {} {} (the default was kept)", config.title, error.key, error.message);
        }
        println!("imported configuration {} as id {}", config.title, config.id);
    }
    Ok(())
}

//! `export-config` and `import-config`: one configuration envelope as a JSON file.

use std::path::Path;

use studio_local::os_caller;
use studio_model::Backend;

use super::{runtime, Cli, CliError};

pub fn export(cli: &Cli, id: i32, file: Option<&Path>) -> Result<(), CliError> {
    let backend = cli.local_backend()?;
    let config = runtime()?.block_on(backend.get_configuration(id))?;
    let mut text = serde_json::to_string_pretty(&config).map_err(|e| CliError::Input(e.to_string()))?;
    text.push('\n');
    match file {
        Some(path) => std::fs::write(path, text)
            .map_err(|source| CliError::Io { what: "cannot write", path: path.display().to_string(), source })?,
        None => print!("{text}"),
    }
    Ok(())
}

pub fn import(cli: &Cli, file: &Path) -> Result<(), CliError> {
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(file)
        .map_err(|source| CliError::Io { what: "cannot read", path: shown.clone(), source })?;
    let body: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| CliError::Input(format!("{shown} is not valid JSON: {e}")))?;
    let backend = cli.local_backend()?;
    let outcome = runtime()?
        .block_on(backend.create_configuration(&os_caller(), body))
        .map_err(|e| CliError::Input(format!("{shown}: {e}")))?;
    for error in &outcome.errors {
        eprintln!("warning: {} {} (the default was kept)", error.key, error.message);
    }
    println!("imported configuration {} as id {}", outcome.config.config.title, outcome.config.id.unwrap_or_default());
    Ok(())
}

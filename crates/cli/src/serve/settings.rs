//! The configuration file of `studio serve` (`--config FILE`, TOML): one key per flag, named as the flag
//! (`listen`, `auth`, `oidc-issuer`, …), plus `data-dir` and the `…-file` keys that name files holding the
//! upstream's secrets. Its values count for less than environment variables and flags (see
//! [`super::args`]); this module only reads and checks the file.
//!
//! A bad file stops the start with one line naming the file, the line and the key, so that an admin who
//! edited it knows where to look; an unknown key is an error, never ignored, so that a misspelt setting
//! does not silently keep its default.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Everything the configuration file may set; every value is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SettingsFile {
    pub listen: Option<SocketAddr>,
    pub auth: Option<PathBuf>,
    pub data_dir: Option<PathBuf>,
    pub upstream: Option<String>,
    pub upstream_issuer: Option<String>,
    pub upstream_client_id: Option<String>,
    pub upstream_username: Option<String>,
    pub upstream_token_file: Option<PathBuf>,
    pub upstream_password_file: Option<PathBuf>,
    pub upstream_client_secret_file: Option<PathBuf>,
    pub upstream_timeout: Option<f64>,
    pub oidc_issuer: Option<String>,
    pub oidc_audience: Option<String>,
    pub oidc_groups_claim: Option<String>,
    pub oidc_ui_client_id: Option<String>,
    pub ui_dir: Option<PathBuf>,
    pub header_timeout: Option<f64>,
    pub request_timeout: Option<f64>,
    pub log_format: Option<super::logs::LogFormat>,
    pub log_level: Option<String>,
    pub metrics_allow: Option<Vec<String>>,
    pub metrics_listen: Option<SocketAddr>,
}

/// Why the configuration file cannot be used: always one line, naming the file and, for a bad value, its
/// line and key.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read the configuration file {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("the configuration file {path}, line {line}, key `{key}`: {problem}")]
    Bad { path: String, line: usize, key: String, problem: String },
    #[error("the configuration file {path}, line {line}: {problem}")]
    Syntax { path: String, line: usize, problem: String },
}

impl SettingsFile {
    /// Reads and checks `path`. A relative path in it is read from the file's folder, wherever the server was
    /// started from.
    pub fn read(path: &Path) -> Result<SettingsFile, SettingsError> {
        let shown = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|source| SettingsError::Read { path: shown.clone(), source })?;
        let mut file = SettingsFile::parse(&text, &shown)?;
        if let Some(folder) = path.parent() {
            for named in [
                &mut file.auth,
                &mut file.data_dir,
                &mut file.upstream_token_file,
                &mut file.upstream_password_file,
                &mut file.upstream_client_secret_file,
                &mut file.ui_dir,
            ] {
                if let Some(relative) = named.as_mut().filter(|p| p.is_relative()) {
                    *relative = folder.join(&*relative);
                }
            }
        }
        Ok(file)
    }

    /// Parses the text of a configuration file shown as `shown` in messages.
    pub fn parse(text: &str, shown: &str) -> Result<SettingsFile, SettingsError> {
        let deserializer = toml::Deserializer::new(text);
        serde_path_to_error::deserialize(deserializer).map_err(|e| {
            let key = e.path().to_string();
            let inner = e.into_inner();
            let line = inner.span().map_or(1, |span| line_of(text, span.start));
            // toml's message is one line for a value, but may quote the whole list of keys for an unknown
            // one; only its first line is kept.
            let problem = inner.message().lines().next().unwrap_or("not valid").trim().to_owned();
            if let Some(unknown) = unknown_key(&problem) {
                let problem = "no such setting; `studio serve --help` lists them (the keys are the flags' names)";
                return SettingsError::Bad { path: shown.to_owned(), line, key: unknown, problem: problem.to_owned() };
            }
            match key.as_str() {
                "." | "" => SettingsError::Syntax { path: shown.to_owned(), line, problem },
                _ => SettingsError::Bad { path: shown.to_owned(), line, key, problem },
            }
        })
    }
}

/// The key serde names in "unknown field `x`, expected …".
fn unknown_key(problem: &str) -> Option<String> {
    let rest = problem.strip_prefix("unknown field `")?;
    Some(rest.split('`').next()?.to_owned())
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).map_or(1, |before| before.matches('\n').count() + 1)
}

#[cfg(test)]
mod tests {
    use super::SettingsFile;

    /// A relative path in the file is read from the file's folder, not from where the server started.
    #[test]
    fn relative_paths_are_read_from_the_files_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("serve.toml");
        std::fs::write(&path, "auth = \"auth.json\"\ndata-dir = \"/var/lib/studio\"\nui-dir = \"../ui\"\n").unwrap();
        let file = SettingsFile::read(&path).unwrap();
        assert_eq!(file.auth, Some(dir.path().join("auth.json")));
        assert_eq!(file.data_dir, Some("/var/lib/studio".into()));
        assert_eq!(file.ui_dir, Some(dir.path().join("../ui")));
    }

    #[test]
    fn the_packaged_configuration_file_is_read_with_its_settings() {
        let text = include_str!("../../../../packaging/server/serve.toml");
        let file = SettingsFile::parse(text, "packaging/server/serve.toml").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(file.listen, Some("127.0.0.1:8080".parse().unwrap()));
        assert_eq!(file.log_level.as_deref(), Some("info"));
    }
}

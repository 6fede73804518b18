//! One configuration as one file of a folder (docs/config-files.md): `<key>.json`, holding
//!
//! ```json
//! {
//!   "$schema": "./.studio/configuration.schema.json",
//!   "active": false,
//!   "config": { "title": "…", "searchSpace": "…", … }
//! }
//! ```
//!
//! `config` is the configuration's settings as the API writes them (its search space among them, as
//! `config.searchSpace`); `active` says whether it is the active configuration of the store or server it is
//! applied to. The server's own fields (`id`, `user`, `created`) are not kept: they differ between servers,
//! and the key, the file's name, is what names the configuration across them.
//!
//! The layout is stable: the model's key order, then unknown keys in the order they came, two spaces, a
//! final newline. Rendering what was read renders the same bytes, so exporting twice, or exporting what was
//! just applied, changes nothing.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use studio_model::{Config, Extra};

use crate::whole_file::write_whole;

/// Where, beside the configuration files, the folder keeps what is not a configuration: the JSON Schema
/// the files name and the state of what was last applied to each target.
pub const META_DIR: &str = ".studio";
/// The schema's file name in [`META_DIR`].
pub const SCHEMA_FILE: &str = "configuration.schema.json";
/// What each file's `$schema` says: the schema in the folder's own [`META_DIR`], so that an editor finds it
/// offline.
pub const SCHEMA_REF: &str = "./.studio/configuration.schema.json";
/// The extension of a configuration file.
pub const EXTENSION: &str = "json";
/// The longest key, in bytes.
pub const MAX_KEY_LEN: usize = 100;

/// One configuration file: its key (the file name without `.json`) and what it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigFile {
    pub key: String,
    pub body: FileBody,
}

/// What a configuration file holds, in the order it is written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileBody {
    /// The schema an editor validates the file with.
    #[serde(rename = "$schema", default = "schema_ref")]
    pub schema: String,
    /// Whether this is the active configuration.
    #[serde(default)]
    pub active: bool,
    pub config: Config,
    /// Keys of the file this version does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Extra,
}

fn schema_ref() -> String {
    SCHEMA_REF.to_owned()
}

impl FileBody {
    /// The body of a file for `config`.
    pub fn new(config: Config, active: bool) -> Self {
        FileBody { schema: schema_ref(), active, config, extra: Extra::new() }
    }
}

/// Why a file could not be read as a configuration file; `line` and `column` count from 1.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct ParseProblem {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Reads a file's text as a configuration file's body.
pub fn parse(text: &str) -> Result<FileBody, ParseProblem> {
    serde_json::from_str(text).map_err(|e| ParseProblem {
        line: e.line().max(1),
        column: e.column().max(1),
        message: e.to_string().split(" at line ").next().unwrap_or_default().to_owned(),
    })
}

/// The file's text in the stable layout.
pub fn render(body: &FileBody) -> String {
    // Serialising our own types to a string cannot fail: every map key is a string.
    let mut text = serde_json::to_string_pretty(body).unwrap_or_default();
    text.push('\n');
    text
}

/// Whether `key` can name a file: lower-case letters, digits, `-`, `_` and `.`, starting with a letter or
/// digit, at most [`MAX_KEY_LEN`] bytes.
pub fn is_valid_key(key: &str) -> bool {
    key.len() <= MAX_KEY_LEN
        && key.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.'))
}

/// The key a configuration titled `title` gets when it first reaches a folder: the title in lower case,
/// each run of other characters a `-`; `configuration` for a title with no letter or digit.
pub fn key_for_title(title: &str) -> String {
    let mut key = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            key.push(c);
        } else if !key.is_empty() && !key.ends_with('-') {
            key.push('-');
        }
    }
    let mut key = key.trim_end_matches('-').to_owned();
    key.truncate(MAX_KEY_LEN - 4);
    let key = key.trim_end_matches('-');
    if key.is_empty() {
        "configuration".to_owned()
    } else {
        key.to_owned()
    }
}

/// `base`, or `base-2`, `base-3`, … : the first that `taken` does not hold.
pub fn unique_key(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_owned();
    }
    (2..).map(|n| format!("{base}-{n}")).find(|k| !taken(k)).unwrap_or_else(|| base.to_owned())
}

/// The path of the file for `key` in `dir`.
pub fn path_for(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.{EXTENSION}"))
}

/// The key a path names, when it is a configuration file's (`<key>.json` with a valid key).
pub fn key_of(path: &Path) -> Option<String> {
    if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
        return None;
    }
    let key = path.file_stem()?.to_str()?;
    is_valid_key(key).then(|| key.to_owned())
}

/// Writes `text` to `path` whole or not at all (`crate::whole_file::write_whole`), so that a power cut leaves
/// either the old file or the new one. Nothing is written when the file already holds `text`; returns whether it
/// wrote.
pub fn write_if_changed(path: &Path, text: &str) -> std::io::Result<bool> {
    if std::fs::metadata(path).is_ok_and(|m| m.is_file()) && std::fs::read(path).is_ok_and(|old| old == text.as_bytes())
    {
        return Ok(false);
    }
    write_whole(path, text).map(|()| true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_what_was_read_gives_the_same_bytes_unknown_keys_included() {
        let mut body =
            FileBody::new(Config { title: "News".into(), search_space: "demo".into(), ..Config::default() }, true);
        body.config.extra.insert("zeta".into(), serde_json::json!({"b": 1, "a": [2]}));
        body.config.extra.insert("alpha".into(), serde_json::json!(null));
        body.extra.insert("comment".into(), serde_json::json!("kept"));
        let text = render(&body);
        assert!(text.ends_with("}\n") && text.starts_with("{\n  \"$schema\": "), "{text}");
        let again = parse(&text).expect("reads back");
        assert_eq!(again, body);
        assert_eq!(render(&again), text);
        // Unknown keys stay in the order they came, after the model's own.
        assert!(text.find("\"zeta\"") < text.find("\"alpha\"") && text.find("\"details\"") < text.find("\"zeta\""));
    }

    #[test]
    fn a_wrong_type_is_reported_at_its_line_and_column() {
        let problem = parse("{\n  \"active\": true,\n  \"config\": {\"title\": 5}\n}\n").unwrap_err();
        assert_eq!((problem.line, problem.message.contains("string")), (3, true), "{problem}");
    }

    #[test]
    fn keys_come_from_titles_and_never_collide() {
        assert_eq!(key_for_title("News — Europe (2026)"), "news-europe-2026");
        assert_eq!(key_for_title("  ***  "), "configuration");
        assert!(is_valid_key(&key_for_title(&"Ä".repeat(300))));
        assert_eq!(unique_key("news", |k| k == "news" || k == "news-2"), "news-3");
        assert_eq!(key_of(Path::new("dir/news-2.json")).as_deref(), Some("news-2"));
        assert_eq!(key_of(Path::new("dir/News.json")), None);
        assert_eq!(key_of(Path::new("dir/.studio")), None);
    }
}

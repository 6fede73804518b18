//! Reading a folder of configuration files and checking it: every `*.json` beside `.studio/` against the one
//! rule table (the create rules of `studio_model::merge_create`, whose field errors are the table's findings)
//! and the folder's own rules: a file name that is a valid key, JSON of the right types, a `config` object with a
//! title and a search space, at most one active configuration. Each problem is placed at the line and column of
//! the key it is about ([`KeyPositions`]).

use serde::Serialize;
use serde_json::Value;
use studio_model::{merge_create, merge_update, Config, Configuration, FieldError, MESSAGES};
use ts_rs::TS;

use super::format::{self, key_for_title, EXTENSION};
use super::listing::Listing;
use super::scan::{KeyPositions, Position};

/// A configuration a folder (or a promotion's source) asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Desired {
    pub key: String,
    pub config: Config,
    pub active: bool,
}

/// One problem of a folder, at the key it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct Problem {
    /// The file's name in the folder.
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }
}

/// Checks every file of `listing`: the configurations it asks for (by key, in file order) when it has no
/// problem, else every problem, by file name.
pub fn lint(listing: &Listing) -> Result<Vec<Desired>, Vec<Problem>> {
    let mut problems: Vec<Problem> = listing
        .misnamed
        .iter()
        .map(|name| Problem { file: name.clone(), line: 1, column: 1, message: misnamed(name) })
        .collect();
    let mut desired = Vec::new();
    let mut first_active: Option<String> = None;
    for file in &listing.files {
        let name = format!("{}.{EXTENSION}", file.key);
        let mut found = Vec::new();
        let checked = check_file(file.text.as_deref(), &mut found);
        let problem =
            |at: Position, message: String| Problem { file: name.clone(), line: at.line, column: at.column, message };
        problems.extend(found.into_iter().map(|(at, message)| problem(at, message)));
        let Some((body, at)) = checked else { continue };
        if body.active {
            match &first_active {
                Some(other) => problems.push(problem(
                    at.find("active"),
                    format!("`active` is true here and in {other}: at most one configuration of a folder is active"),
                )),
                None => first_active = Some(name.clone()),
            }
        }
        desired.push(Desired { key: file.key.clone(), config: body.config, active: body.active });
    }
    // By file name, each file's problems in the order they were found.
    problems.sort_by(|a, b| a.file.cmp(&b.file));
    if problems.is_empty() {
        Ok(desired)
    } else {
        Err(problems)
    }
}

/// What is said of a `.json` file whose name is not a key.
fn misnamed(name: &str) -> String {
    let stem = name.strip_suffix(".json").unwrap_or(name);
    format!(
        "`{name}` is not a configuration file's name: name it KEY.json, KEY being lower-case letters, digits, -, _ \
         and . (starting with a letter or digit, at most {} bytes), e.g. {}.json",
        format::MAX_KEY_LEN,
        key_for_title(stem)
    )
}

/// One file's problems into `found`; its body and key positions when it can be read as a configuration file.
/// `text` is `None` for a file that is not UTF-8.
fn check_file(text: Option<&str>, found: &mut Vec<(Position, String)>) -> Option<(format::FileBody, KeyPositions)> {
    let Some(text) = text else {
        found.push((Position::START, "is not UTF-8 text".into()));
        return None;
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(_) => {
            let problem = format::parse(text).err()?;
            found.push((Position { line: problem.line, column: problem.column }, problem.message));
            return None;
        }
    };
    let at = KeyPositions::of(text);
    let before = found.len();
    let Some(root) = value.as_object() else {
        found.push((Position::START, "must be a JSON object: {\"$schema\": …, \"active\": …, \"config\": {…}}".into()));
        return None;
    };
    if root.get("$schema").is_some_and(|s| !s.is_string()) {
        found.push((at.find("$schema"), format!("$schema {}", MESSAGES.text)));
    }
    if root.get("active").is_some_and(|a| !a.is_boolean()) {
        found.push((at.find("active"), format!("active {}", MESSAGES.bool)));
    }
    match root.get("config") {
        None => found
            .push((Position::START, "`config` is missing: the file holds its settings in a `config` object".into())),
        Some(config) if !config.is_object() => found.push((at.find("config"), format!("config {}", MESSAGES.object))),
        Some(config) => {
            for (key, what) in
                [("title", "the title"), ("searchSpace", "the search space this configuration belongs to")]
            {
                if config.get(key).is_none() {
                    found.push((at.find("config"), format!("config.{key} is missing: name {what}")));
                }
            }
            for error in rule_findings(&Value::Object(root.clone())) {
                found.push((at.find(&error.key), format!("{} {}", error.key, error.message)));
            }
        }
    }
    if found.len() > before {
        return None;
    }
    match format::parse(text) {
        Ok(body) => Some((body, at)),
        Err(problem) => {
            found.push((Position { line: problem.line, column: problem.column }, problem.message));
            None
        }
    }
}

/// The rule table's findings for a file's body: those of a create, and when a create is refused outright (no
/// title or search space) those of the same keys merged onto the defaults.
pub fn rule_findings(body: &Value) -> Vec<FieldError> {
    match merge_create(body) {
        Ok((_, errors)) => errors,
        Err(_) => merge_update(&Configuration::template(), body).map(|(_, errors)| errors).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder_of(files: &[(&str, &str)]) -> (tempfile::TempDir, Listing) {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        std::fs::create_dir(dir.path().join(".studio")).unwrap();
        std::fs::write(dir.path().join(".studio/state.json"), "{}").unwrap();
        let folder = super::super::listing::read_folder(dir.path()).unwrap();
        (dir, folder)
    }

    fn shown(problems: Vec<Problem>) -> Vec<String> {
        problems.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_good_folder_gives_its_configurations_in_file_order() {
        let (_dir, folder) = folder_of(&[
            ("b.json", "{\"active\": true, \"config\": {\"title\": \"B\", \"searchSpace\": \"s\"}}"),
            ("a.json", "{\"config\": {\"title\": \"A\", \"searchSpace\": \"s\"}}"),
            ("notes.txt", "not a configuration"),
        ]);
        let desired = lint(&folder).unwrap();
        assert_eq!(desired.iter().map(|d| (d.key.as_str(), d.active)).collect::<Vec<_>>(), [("a", false), ("b", true)]);
    }

    #[test]
    fn each_folder_rule_is_reported_at_its_key() {
        let (_dir, folder) = folder_of(&[
            ("News.json", "{\"config\": {\"title\": \"N\", \"searchSpace\": \"s\"}}"),
            ("broken.json", "{\n  \"config\": {,\n}"),
            ("list.json", "[1]"),
            ("bare.json", "{\"active\": false}"),
            ("one.json", "{\"active\": true, \"config\": {\"title\": \"A\", \"searchSpace\": \"s\"}}"),
            ("two.json", "{\n  \"active\": true,\n  \"config\": {\"title\": \"B\"}\n}"),
            ("zz.json", "{\n  \"active\": \"yes\",\n  \"config\": {\"title\": \"C\", \"searchSpace\": \"s\"}\n}"),
        ]);
        let problems = shown(lint(&folder).unwrap_err());
        let starts: Vec<&str> = problems.iter().map(|p| p.split(": ").next().unwrap()).collect();
        assert_eq!(
            starts,
            ["News.json:1:1", "bare.json:1:1", "broken.json:2:14", "list.json:1:1", "two.json:3:3", "zz.json:2:3"],
            "{problems:#?}"
        );
        assert!(problems[0].contains("e.g. news.json"), "{}", problems[0]);
        assert!(problems[4].contains("config.searchSpace is missing"), "{}", problems[4]);
        assert!(problems[5].contains("active must be true or false"), "{}", problems[5]);
        // The second active file is reported once it is otherwise valid.
        let (_dir, folder) = folder_of(&[
            ("one.json", "{\"active\": true, \"config\": {\"title\": \"A\", \"searchSpace\": \"s\"}}"),
            ("two.json", "{\n  \"active\": true,\n  \"config\": {\"title\": \"B\", \"searchSpace\": \"s\"}\n}"),
        ]);
        assert_eq!(
            shown(lint(&folder).unwrap_err()),
            ["two.json:2:3: `active` is true here and in one.json: at most one configuration of a folder is active"]
        );
    }
}

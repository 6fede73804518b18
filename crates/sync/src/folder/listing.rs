//! Reading a whole folder of configuration files: every `<key>.json` beside each other, read and parsed, in
//! the order of their keys. A file that does not parse is listed with its problem (line and column), never
//! skipped in silence; a `.json` file whose name is not a key is named apart. Hidden files (the temporary files
//! of [`super::format::write_if_changed`] among them) and the folder's own [`super::format::META_DIR`] are not
//! configurations.

use std::path::Path;

use super::format::{self, FileBody, ParseProblem, EXTENSION};

/// One configuration file as it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedFile {
    /// The file's name without `.json`.
    pub key: String,
    /// What the file holds, as it was read; `None` when it is not UTF-8 text.
    pub text: Option<String>,
    /// The file read as a configuration, or why it could not be.
    pub body: Result<FileBody, ParseProblem>,
}

/// The configuration files of a folder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    /// By key.
    pub files: Vec<ListedFile>,
    /// The names of `.json` files that are not configuration files because their name is not a key
    /// ([`format::is_valid_key`]), by name.
    pub misnamed: Vec<String>,
}

/// Reads every configuration file of `dir`. Fails only when the folder itself cannot be read; a file removed
/// while the folder is read is left out.
pub fn read_folder(dir: &Path) -> std::io::Result<Listing> {
    let mut listing = Listing::default();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
        if name.starts_with('.') || path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) || path.is_dir() {
            continue;
        }
        let Some(key) = format::key_of(&path) else {
            listing.misnamed.push(name);
            continue;
        };
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        let (text, body) = match String::from_utf8(bytes) {
            Ok(text) => {
                let body = format::parse(&text);
                (Some(text), body)
            }
            Err(_) => {
                (None, Err(ParseProblem { line: 1, column: 1, message: "the file is not UTF-8 text".to_owned() }))
            }
        };
        listing.files.push(ListedFile { key, text, body });
    }
    listing.files.sort_by(|a, b| a.key.cmp(&b.key));
    listing.misnamed.sort();
    Ok(listing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_model::Config;

    #[test]
    fn every_file_is_listed_by_key_with_what_could_not_be_read() {
        let dir = tempfile::tempdir().unwrap();
        let body =
            FileBody::new(Config { title: "News".into(), search_space: "demo".into(), ..Config::default() }, true);
        std::fs::write(dir.path().join("news.json"), format::render(&body)).unwrap();
        std::fs::write(dir.path().join("broken.json"), "{\n  \"config\": {\n    \"title\": 5\n  }\n}\n").unwrap();
        std::fs::write(dir.path().join("Upper Case.json"), "{}").unwrap();
        std::fs::write(dir.path().join(".news.json.12.tmp"), "{").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a configuration").unwrap();
        std::fs::create_dir(dir.path().join(format::META_DIR)).unwrap();

        let listing = read_folder(dir.path()).unwrap();
        let keys: Vec<&str> = listing.files.iter().map(|f| f.key.as_str()).collect();
        assert_eq!(keys, ["broken", "news"]);
        assert_eq!(listing.files[1].body.as_ref().unwrap(), &body);
        let problem = listing.files[0].body.as_ref().unwrap_err();
        assert_eq!(problem.line, 3, "{problem}");
        assert_eq!(listing.misnamed, ["Upper Case.json"]);
    }
}

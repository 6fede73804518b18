//! Until opening the store names its damage at once (`StoreError::Damaged`, in under a second): the damage
//! the desktop recognises itself, from a file's first bytes or in an opening error's words.

use std::path::Path;

use crate::StartError;

/// The file and the problem, when opening or first reading the store failed because it is damaged.
pub fn damage(e: &StartError, data_dir: &Path) -> Option<(String, String)> {
    let text = e.to_string();
    let damaged = ["not a database", "malformed"].iter().any(|words| text.contains(words));
    damaged.then(|| (data_dir.join(studio_local::DB_FILE).display().to_string(), text))
}

/// A store file that is there but does not begin as every SQLite database does, found before opening (which
/// would wait for its pool's timeout first).
pub fn header_damage(data_dir: &Path) -> Option<(String, String)> {
    use std::io::Read;
    [studio_local::DB_FILE, studio_local::check::DOCUMENTS_FILE].iter().find_map(|name| {
        let path = data_dir.join(name);
        let mut head = Vec::with_capacity(16);
        std::fs::File::open(&path).and_then(|f| f.take(16).read_to_end(&mut head)).ok()?;
        // An empty file is a new database to SQLite; anything else must begin with the magic string.
        (!head.is_empty() && head != b"SQLite format 3\0")
            .then(|| (path.display().to_string(), "file is not a database".to_owned()))
    })
}

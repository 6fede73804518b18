//! Until opening the store names its damage (`StoreError::Damaged`): the damage the desktop recognises in
//! an opening error's words.

use std::path::Path;

use crate::StartError;

/// The file and the problem, when opening or first reading the store failed because it is damaged.
pub fn damage(e: &StartError, data_dir: &Path) -> Option<(String, String)> {
    let text = e.to_string();
    let damaged = ["not a database", "malformed"].iter().any(|words| text.contains(words));
    damaged.then(|| (data_dir.join(studio_local::DB_FILE).display().to_string(), text))
}

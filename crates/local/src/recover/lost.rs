//! The search spaces a recovery could not keep every document of, and how to get each back: the one place
//! the words are written, which `studio recover` prints and the desktop's recovery screen shows as they are.
//!
//! The way back is the command that loaded the documents: `studio demo-data` for the demo space, `studio pull`
//! for a space the store remembers pulling (its source and remote configuration), else `studio import`.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;
use ts_rs::TS;

use crate::demo::DEMO_SPACE;

/// A search space that lost documents in a recovery, and how to get them back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LostDocuments {
    pub search_space: String,
    /// Its documents the recovered store holds.
    pub kept: usize,
    /// Its documents that could not be read; `None` when the damaged file cannot tell how many it had.
    pub lost: Option<usize>,
    /// The command that loads them again.
    pub get_back: String,
    /// All of it in one sentence, as the CLI and the desktop say it.
    pub message: String,
}

impl LostDocuments {
    /// The search space `space` of the recovered store `conn`, which had `expected` documents before the
    /// damage (`None`: unknown).
    pub(crate) fn new(conn: &Connection, space: &str, expected: Option<usize>) -> LostDocuments {
        let kept = conn
            .query_row("SELECT count(*) FROM documents WHERE search_space = ?1", [space], |r| r.get::<_, i64>(0))
            .map_or(0, |n| n as usize);
        let lost = expected.map(|n| n.saturating_sub(kept));
        let get_back = get_back(conn, space);
        let how_many = match lost {
            Some(lost) => format!("{kept} {} kept, {lost} lost", documents(kept)),
            None => format!("{kept} {} kept, the others lost (the damaged file cannot tell how many)", documents(kept)),
        };
        let file = match get_back.ends_with(" FILE") {
            true => " (FILE: the JSON Lines file they were imported from)",
            false => "",
        };
        let message = format!("search space {space}: {how_many}; to get them back, run `{get_back}`{file}");
        LostDocuments { search_space: space.to_owned(), kept, lost, get_back, message }
    }
}

/// The spaces of `expected` (space → documents before the damage, `None`: unknown) that the recovered store
/// `conn` does not hold every document of; with an unknown count, every space named.
pub(crate) fn lost_documents(conn: &Connection, expected: &BTreeMap<String, Option<usize>>) -> Vec<LostDocuments> {
    expected
        .iter()
        .filter(|(space, _)| !space.is_empty())
        .map(|(space, n)| LostDocuments::new(conn, space, *n))
        .filter(|l| l.lost != Some(0))
        .collect()
}

fn documents(n: usize) -> &'static str {
    if n == 1 {
        "document"
    } else {
        "documents"
    }
}

/// The command that loads the documents of `space` again, as the `studio` binary spells it.
fn get_back(conn: &Connection, space: &str) -> String {
    if space == DEMO_SPACE {
        return "studio demo-data".into();
    }
    let pulled: Option<(String, i64)> = conn
        .query_row(
            "SELECT source, remote_id FROM pulls WHERE search_space = ?1 ORDER BY updated_at DESC LIMIT 1",
            [space],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .ok()
        .flatten();
    match pulled {
        Some((source, remote_id)) => format!("studio pull --from {} --config {remote_id}", quoted(&source)),
        None => format!("studio import --search-space {} FILE", quoted(space)),
    }
}

/// `word` as one argument of a shell command: as it is when it needs no quotes, else in single quotes.
fn quoted(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:@%+=,".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn a_space_name_is_quoted_only_when_a_shell_would_split_it() {
        assert_eq!(quoted("products"), "products");
        assert_eq!(quoted("https://search.example.org"), "https://search.example.org");
        assert_eq!(quoted("my products"), "'my products'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        assert_eq!(quoted(""), "''");
    }
}

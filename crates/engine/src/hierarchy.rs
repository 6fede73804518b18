//! The concept scheme as one search space sees it: labels and broader links of its own concepts (from
//! document nesting) joined with those of the global scheme (import-concepts), the search space's own
//! label winning.

use rusqlite::Connection;
use rustc_hash::FxHashMap;

use crate::error::EngineError;

/// The scope of concepts loaded on their own (import-concepts): every search space sees them.
pub const GLOBAL_SCOPE: &str = "";

/// How a facet value is identified within its field: concepts by URI, literals by label.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum ValueKey {
    Uri(String),
    Label(String),
}

impl ValueKey {
    /// The key of a refiner: its value when present and non-empty, else its label.
    pub(crate) fn of(label: &str, uri: Option<&str>) -> ValueKey {
        match uri.filter(|u| !u.is_empty()) {
            Some(u) => ValueKey::Uri(u.to_owned()),
            None => ValueKey::Label(label.to_owned()),
        }
    }
}

/// Concept labels and broader links of one search space.
#[derive(Debug, Default)]
pub(crate) struct Hierarchy {
    labels: FxHashMap<String, String>,
    broader: FxHashMap<String, Vec<String>>,
}

impl Hierarchy {
    /// Loads the scheme of `space` and the global scheme.
    pub(crate) fn load(conn: &Connection, space: &str) -> Result<Hierarchy, EngineError> {
        let mut h = Hierarchy::default();
        let mut stmt =
            conn.prepare_cached("SELECT uri, label FROM concepts WHERE scope IN (?1, ?2) ORDER BY scope = ?2")?;
        let mut rows = stmt.query([GLOBAL_SCOPE, space])?;
        while let Some(row) = rows.next()? {
            h.labels.insert(row.get(0)?, row.get(1)?);
        }
        let mut stmt = conn.prepare_cached("SELECT narrower, broader FROM concept_broader WHERE scope IN (?1, ?2)")?;
        let mut rows = stmt.query([GLOBAL_SCOPE, space])?;
        while let Some(row) = rows.next()? {
            let (narrower, broader): (String, String) = (row.get(0)?, row.get(1)?);
            let list = h.broader.entry(narrower).or_default();
            if !list.contains(&broader) {
                list.push(broader);
            }
        }
        Ok(h)
    }

    /// The label of a concept, if the scheme knows it.
    pub(crate) fn label(&self, uri: &str) -> Option<&str> {
        self.labels.get(uri).map(String::as_str)
    }

    /// The concepts directly broader than `uri`.
    pub(crate) fn broader(&self, uri: &str) -> &[String] {
        self.broader.get(uri).map(Vec::as_slice).unwrap_or(&[])
    }
}

//! A search's full-text matches: those kept in the index of its search space while they still hold
//! ([`super::kept`]), else collected from the common terms' lists ([`super::common_terms`]) or from the full-text
//! index ([`super::text_search`]), and then kept.

use std::sync::Arc;

use roaring::RoaringBitmap;
use rusqlite::Connection;

use super::common_terms;
use super::index::SpaceIndex;
use super::matches::Matches;
use super::query::TextQuery;
use super::stamp::Stamp;
use super::text_search;
use super::tuning::{EnginePath, Tuned};
use crate::error::EngineError;

/// Matches of a search: `exact` when their scores cover exactly what the search allows (they were just
/// collected for it); otherwise kept ones, scoring more documents than it allows.
pub(crate) struct Found {
    pub matches: Arc<Matches>,
    pub exact: bool,
}

/// The documents of `index` matching `query`, with the scores of those in `allowed` (all without it): kept
/// ones when they still hold, else collected from the common terms' lists or the full-text index, and kept. `None` for a
/// query without words, which puts no condition on the text.
pub(crate) fn matches(
    conn: &Connection,
    index: &SpaceIndex,
    query: &TextQuery,
    allowed: Option<&RoaringBitmap>,
    tuned: Tuned,
) -> Result<Option<Found>, EngineError> {
    let Some(expression) = query.to_fts() else { return Ok(None) };
    let expression = expression.as_str();
    let (stamp, text) = Stamp::read(conn)?;
    if let Some(matches) = index.kept.find(expression, &stamp, allowed) {
        tuned.taken.note(EnginePath::KeptMatchesReused);
        return Ok(Some(Found { matches, exact: false }));
    }
    let listed = common_terms::matches(&text, index, query, stamp.totals(), stamp.generations, allowed, tuned.taken)?;
    let matches = Arc::new(match listed {
        Some(matches) => matches,
        None => text_search::matches(&text, index, query, allowed)?,
    });
    index.kept.keep(expression, stamp, allowed, matches.clone());
    Ok(Some(Found { matches, exact: true }))
}

#[cfg(test)]
mod tests;

//! The generations of the store an index is built from: a search space's and the global concepts'.

use rusqlite::Connection;

use crate::error::EngineError;
use crate::hierarchy::GLOBAL_SCOPE;

/// The state of the store an index was built from: the generation of its search space and of the global concepts.
pub(crate) type Generation = (i64, i64);

/// Reads the current generation of `space` (and of the global concept scheme).
pub(crate) fn read_generation(conn: &Connection, space: &str) -> Result<Generation, EngineError> {
    // Read at every search, to tell whether the index is current: prepared once per connection.
    Ok(conn
        .prepare_cached(
            "SELECT coalesce((SELECT generation FROM generations WHERE scope = ?1), 0),
                    coalesce((SELECT generation FROM generations WHERE scope = ?2), 0)",
        )?
        .query_row(rusqlite::params![space, GLOBAL_SCOPE], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

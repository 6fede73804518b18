//! What a durable save costs: the latency of a configuration save as the store commits it (the envelope
//! updated and a history row added in one transaction), with the precious file synced at each commit as the
//! store does (`synchronous = FULL`), and, for comparison, without that sync (`NORMAL`, what the store did
//! before saves were made durable).

use rusqlite::params;
use studio_local::Store;

use crate::error::BenchError;
use crate::timing::{measure, stats, KindStats, Sample};

/// Times `runs` saves of a configuration envelope of the default template's size, synced and not synced.
pub fn save_latency(store: &Store, runs: usize) -> Result<(KindStats, KindStats), BenchError> {
    let mut conn = store.conn()?;
    let envelope = serde_json::json!({"config": studio_model::Configuration::template().config}).to_string();
    conn.execute(
        "INSERT INTO configurations (user, created, search_space, envelope) VALUES ('bench', '', 'bench', ?1)",
        [&envelope],
    )?;
    let id = conn.last_insert_rowid();
    let mut timed = |mode: &str| -> Result<Vec<Sample>, BenchError> {
        conn.pragma_update(Some("main"), "synchronous", mode)?;
        let mut samples = Vec::with_capacity(runs);
        for _ in 0..runs {
            measure(&mut samples, || -> Result<(), rusqlite::Error> {
                let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                tx.execute("UPDATE configurations SET envelope = ?1 WHERE id = ?2", params![envelope, id])?;
                tx.execute(
                    "INSERT INTO configuration_log (config_id, at, user, action, envelope)
                     VALUES (?1, '', 'bench', 'update', ?2)",
                    params![id, envelope],
                )?;
                tx.commit()
            })?;
        }
        Ok(samples)
    };
    let normal = timed("NORMAL");
    // The connection goes back to the pool as the store set it, whatever happened.
    let full = timed("FULL");
    let (normal, full) = (normal?, full?);
    conn.execute("DELETE FROM configuration_log WHERE config_id = ?1", [id])?;
    conn.execute("DELETE FROM configurations WHERE id = ?1", [id])?;
    Ok((stats("configuration save (synced)", full), stats("configuration save (not synced)", normal)))
}

//! Importing a concept scheme on its own: one `{"uri", "label", "broader": [uri, ...]}` per line. These
//! concepts are global: every search space sees their labels and hierarchy.

use std::io::BufRead;

use rusqlite::params;
use serde::Deserialize;

use super::lines::Lines;
use super::report::{bump_generation, ImportReport, BATCH};
use crate::error::StoreError;
use crate::store::Store;
use studio_engine::GLOBAL_SCOPE;

#[derive(Deserialize)]
struct IncomingConcept {
    uri: String,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    broader: Option<Vec<String>>,
}

/// Imports a concept scheme. Re-importing a concept replaces its label and broader links. Bad lines are
/// reported and skipped; `on_progress` receives the number of lines read so far.
pub fn import_concepts(
    store: &Store,
    reader: impl BufRead,
    on_progress: &mut dyn FnMut(u64),
) -> Result<ImportReport, StoreError> {
    let mut conn = store.conn()?;
    let mut lines = Lines::new(reader);
    let mut report = ImportReport::default();
    let mut done = false;
    while !done {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut in_batch = 0;
        while in_batch < BATCH {
            let Some((_, concept)) =
                lines.next_record::<IncomingConcept>(&mut report, on_progress, ("concept", "uri"), |r| &r.uri)?
            else {
                done = true;
                break;
            };
            let label = concept.label.unwrap_or_else(|| concept.uri.clone());
            tx.prepare_cached(
                "INSERT INTO concepts (scope, uri, label) VALUES (?1, ?2, ?3)
                 ON CONFLICT (scope, uri) DO UPDATE SET label = excluded.label",
            )?
            .execute(params![GLOBAL_SCOPE, concept.uri, label])?;
            tx.prepare_cached("DELETE FROM concept_broader WHERE scope = ?1 AND narrower = ?2")?
                .execute(params![GLOBAL_SCOPE, concept.uri])?;
            for broader in concept.broader.unwrap_or_default().iter().filter(|b| !b.is_empty() && **b != concept.uri) {
                tx.prepare_cached(
                    "INSERT OR IGNORE INTO concept_broader (scope, narrower, broader) VALUES (?1, ?2, ?3)",
                )?
                .execute(params![GLOBAL_SCOPE, concept.uri, broader])?;
            }
            report.imported += 1;
            in_batch += 1;
        }
        if in_batch > 0 {
            bump_generation(&tx, GLOBAL_SCOPE)?;
        }
        tx.commit()?;
    }
    on_progress(lines.number());
    Ok(report)
}

//! Building a search space's [`SpaceIndex`] from the store: one scan of the space's documents
//! ([`super::facet_scan`]), their facet lists into a builder per facet field ([`super::field_builder`], with the
//! concept hierarchy closed over), the documents then put in result order, and the text sizes the full-text index
//! counted, all inside one read transaction.

use rusqlite::Connection;
use studio_model::ALL_CONCEPTS_FIELD;
use studio_text::Snapshot;

use super::common_terms;
use super::facet_scan::{scan, Annotator};
use super::field_index::CONCEPT_PREFIX;
use super::generation::read_generation;
use super::hierarchy::Hierarchy;
use super::index::SpaceIndex;
use super::text_index;
use super::tuning::{EnginePath, Tuned};
use crate::error::EngineError;

impl SpaceIndex {
    /// Builds the index of `space` from the store, inside one read transaction, keeping the lists of the terms
    /// `tuned` calls common.
    pub(crate) fn build(conn: &mut Connection, space: &str, tuned: Tuned) -> Result<SpaceIndex, EngineError> {
        let tx = conn.transaction()?;
        let generation = read_generation(&tx, space)?;
        let mut fields: Vec<String> = tx
            .prepare_cached("SELECT field FROM facet_fields WHERE search_space = ?1 ORDER BY field")?
            .query_map([space], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        if fields.iter().any(|f| f.starts_with(CONCEPT_PREFIX)) {
            fields.push(ALL_CONCEPTS_FIELD.to_owned());
        }
        let hierarchy = Hierarchy::load(&tx, space)?;
        let mut beside = true;
        let (docs, mut builders) = loop {
            match scan(&tx, space, Annotator::new(&fields, &hierarchy), beside)? {
                Some(scanned) => break scanned,
                // The annotating thread stopped unexpectedly: the scan is made again on this thread alone.
                None => beside = false,
            }
        };
        if u32::try_from(docs.len()).is_err() {
            return Err(EngineError::TooManyDocuments(space.to_owned()));
        }
        let mut order: Vec<u32> = (0..docs.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&docs[a as usize], &docs[b as usize]);
            b.2.total_cmp(&a.2).then_with(|| a.1.cmp(&b.1))
        });
        let mut dense_of = vec![0u32; docs.len()];
        for (dense, &scanned) in order.iter().enumerate() {
            dense_of[scanned as usize] = dense as u32;
        }
        for builder in &mut builders {
            for pair in &mut builder.pairs {
                pair.0 = dense_of[pair.0 as usize];
            }
        }
        let n = docs.len() as u32;
        let rowids: Vec<i64> = order.iter().map(|&k| docs[k as usize].0).collect();
        drop(docs);
        let text_lengths = text_lengths(&text_index::snapshot(&tx)?, &rowids);
        tx.commit()?;
        let fields = builders.into_iter().map(|b| b.finish(n, &hierarchy)).collect();
        let mut index = SpaceIndex::from_parts(space, generation, rowids, fields, text_lengths);
        index.common = common_terms::build(conn, &index, tuned.tuning.common_terms_fewest(u64::from(n)))?;
        if !index.common.lists.is_empty() {
            tuned.taken.note(EnginePath::CommonTermsListed);
        }
        Ok(index)
    }
}

/// Per dense number (as in `rowids`), the tokens the full-text index counted in the document's fields; a row it
/// does not hold counts as empty.
fn text_lengths(text: &Snapshot, rowids: &[i64]) -> Vec<u32> {
    let mut by_row: Vec<(u64, u32)> =
        rowids.iter().enumerate().map(|(dense, &row)| (row as u64, dense as u32)).collect();
    by_row.sort_unstable();
    let rows: Vec<u64> = by_row.iter().map(|&(row, _)| row).collect();
    let mut lengths = vec![0u32; rowids.len()];
    for ((_, dense), sizes) in by_row.into_iter().zip(text.field_sizes_of(&rows)) {
        let tokens = sizes.unwrap_or_default().iter().map(|&s| u64::from(s)).sum::<u64>();
        lengths[dense as usize] = u32::try_from(tokens).unwrap_or(u32::MAX);
    }
    lengths
}

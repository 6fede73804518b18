//! Reading every byte of an index's segments and checking it: every dictionary block, every term's postings and
//! positions against their checksums, and that they decode to what the dictionary and the documents' table
//! say. Queries check what they read as they read it; this reads everything, for a check of the whole index.

use crate::error::{Corrupt, TextError};
use crate::postings::{DocsReader, PositionsReader};
use crate::segment::Segment;

/// Checks every byte of `segment`; the first damage found is the error.
pub(crate) fn verify_segment(segment: &Segment) -> Result<(), TextError> {
    let mut terms = 0u64;
    let mut positions = Vec::new();
    for b in 0..segment.block_count() {
        for (_, info) in segment.block(b)? {
            terms += 1;
            let doc_bytes = segment.docs(&info)?;
            let position_bytes = segment.positions(&info)?;
            let mut docs = DocsReader::new(&doc_bytes, info.docs);
            let mut at = PositionsReader::new(&position_bytes);
            let corrupt = |c: Corrupt| segment.corrupt(c);
            let mut last = None;
            while let Some(p) = docs.next_posting().map_err(corrupt)? {
                last = Some(p.row);
                let Some(d) = segment.doc_of(p.row) else {
                    return Err(corrupt(Corrupt("a posting's row is not among the segment's documents")));
                };
                for (f, &tf) in p.tf.iter().enumerate() {
                    positions.clear();
                    at.field(tf, &mut positions).map_err(corrupt)?;
                    if positions.last().is_some_and(|&last| last >= segment.sizes[d][f]) {
                        return Err(corrupt(Corrupt("a position is past the end of its field")));
                    }
                }
            }
            if !at.is_empty() {
                return Err(corrupt(Corrupt("a term's positions go on past its documents")));
            }
            if last != Some(info.last) {
                return Err(corrupt(Corrupt("a term's last document is not the one its entry names")));
            }
        }
    }
    if terms != segment.term_count() {
        return Err(segment.corrupt(Corrupt("its dictionary does not hold the terms its footer counts")));
    }
    Ok(())
}

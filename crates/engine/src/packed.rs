//! Every field's values per document in one array, for counting several groups over the same documents in one
//! walk.
//!
//! Counting a group by walking its scope reads, per document, the field's offsets and then its values: two
//! places in memory per field. Over a scope of scattered documents (the matches of a word in a few percent of a
//! large space) each is a cache miss, about 90 ns, and nine groups make eighteen of them per document. Here a
//! document's values of every field lie together (the field's number in the top byte, the value below it), so
//! one walk over the scope counts every group that walks it, reading one offset and a cache line or two per
//! document. Made from the fields the first time a search needs it, and kept with the index.

use std::ops::Range;

use roaring::RoaringBitmap;

use super::field_index::FieldIndex;
use super::tally::Tally;
use super::visit::collect_in;

/// Bits of an entry that hold the value; the field's number is above them.
const VALUE_BITS: u32 = 24;
const VALUE_MASK: u32 = (1 << VALUE_BITS) - 1;

/// Documents ahead of the one counted whose offsets are asked for (and half as far, whose entries).
const AHEAD: usize = 16;

/// Asks the processor to bring the cache line holding `item` in before it is read: a hint, which changes no
/// result.
#[inline(always)]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault; `item` is a valid reference anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((item as *const T).cast());
    }
}

/// The direct values of every field, per document: `entries[offsets[d]..offsets[d + 1]]`.
#[derive(Debug)]
pub(crate) struct Packed {
    offsets: Vec<u32>,
    entries: Vec<u32>,
}

impl Packed {
    /// The values of `fields` for `documents` documents; `None` when they do not fit the layout (more than
    /// 255 fields, a field of 2^24 values or more, 2^32 entries or more).
    pub(crate) fn of(fields: &[FieldIndex], documents: usize) -> Option<Packed> {
        let fits = fields.len() < 256
            && fields.iter().all(|f| f.values.len() <= VALUE_MASK as usize && f.documents() == documents as u64);
        let total: usize = fields.iter().map(|f| f.direct.len()).sum();
        if !fits || u32::try_from(total).is_err() {
            return None;
        }
        let mut offsets = Vec::with_capacity(documents + 1);
        let mut entries = Vec::with_capacity(total);
        offsets.push(0);
        for doc in 0..documents as u32 {
            for (number, field) in fields.iter().enumerate() {
                entries.extend(field.direct_values(doc).iter().map(|&v| (number as u32) << VALUE_BITS | v));
            }
            offsets.push(entries.len() as u32);
        }
        Some(Packed { offsets, entries })
    }

    /// Entries per document, on average: the walking steps of one document.
    pub(crate) fn per_document(&self) -> f64 {
        self.entries.len() as f64 / self.offsets.len().saturating_sub(1).max(1) as f64
    }

    /// Per member (the field's number among the fields the values were made of, and the field), the documents
    /// of `scope` in `range` having each of its values, directly or through a descendant: what counting each
    /// field's walk alone gives.
    pub(crate) fn count(
        &self,
        scope: &RoaringBitmap,
        range: Range<u32>,
        members: &[(usize, &FieldIndex)],
    ) -> Vec<Vec<u64>> {
        let mut member_of = [usize::MAX; 256];
        for (m, &(number, _)) in members.iter().enumerate() {
            if let Some(slot) = member_of.get_mut(number) {
                *slot = m;
            }
        }
        // Flat fields' counts, and the tallies of fields with a hierarchy.
        let mut counts: Vec<Vec<u64>> =
            members.iter().map(|(_, f)| if f.flat { vec![0; f.values.len()] } else { Vec::new() }).collect();
        let mut tallies: Vec<Option<Tally>> = members.iter().map(|(_, f)| (!f.flat).then(|| Tally::new(f))).collect();
        // Scattered documents miss the cache at their offsets and again at their entries: both are asked for
        // ahead (the offsets of the document AHEAD places on, the entries of the one half as far), so that the
        // misses of several documents overlap instead of following one another.
        let docs = collect_in(scope, range);
        for (i, &doc) in docs.iter().enumerate() {
            if let Some(offset) = docs.get(i + AHEAD).and_then(|&later| self.offsets.get(later as usize)) {
                prefetch(offset);
            }
            let nearer = docs.get(i + AHEAD / 2).and_then(|&nearer| self.offsets.get(nearer as usize));
            if let Some(entry) = nearer.and_then(|&at| self.entries.get(at as usize)) {
                prefetch(entry);
            }
            let (Some(&a), Some(&b)) = (self.offsets.get(doc as usize), self.offsets.get(doc as usize + 1)) else {
                continue;
            };
            for &entry in &self.entries[a as usize..b as usize] {
                let m = member_of[(entry >> VALUE_BITS) as usize];
                let Some(&(_, field)) = members.get(m) else { continue };
                let v = entry & VALUE_MASK;
                match &mut tallies[m] {
                    Some(tally) => tally.add(field, doc, v),
                    // A document's direct values are distinct, and without ancestors each counts once.
                    None => counts[m][v as usize] += 1,
                }
            }
        }
        for ((counts, tally), (_, field)) in counts.iter_mut().zip(tallies).zip(members) {
            if let Some(tally) = tally {
                *counts = tally.finish(field);
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests;

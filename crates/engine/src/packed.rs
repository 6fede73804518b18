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

use super::counting::Tally;
use super::index::FieldIndex;

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
        let docs: Vec<u32> = scope.range(range).collect();
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
mod tests {
    use std::borrow::Cow;

    use roaring::RoaringBitmap;

    use crate::counting::tests::field;
    use studio_model::FacetSetting;

    use crate::counting::{count_all, cut_of, walking_together, CountJob};
    use crate::facets::facet_group;
    use crate::index::SpaceIndex;
    use crate::test_documents::{TestFiles, NEWS_SPACE};
    use crate::tuning::{Tuned, Tuning};

    /// Groups walking the same documents together count what each counts walking alone, over sparse and dense
    /// scopes, next to a group with a scope of its own (a field with a selection) and a group of some values.
    #[test]
    fn groups_walked_together_count_what_each_counts_alone() {
        let files = TestFiles::news();
        let mut conn = files.conn();
        let index = SpaceIndex::build(&mut conn, NEWS_SPACE, Tuned::defaults()).unwrap();
        assert!(index.fields.iter().any(|f| !f.flat) && index.fields.iter().any(|f| f.flat), "both kinds of field");
        let n = index.rowids.len() as u32;
        let mut walked = 0;
        for step in [37, 5, 2] {
            let result: RoaringBitmap = (0..n).step_by(step).collect();
            let own: RoaringBitmap = (1..n).step_by(3).collect();
            let mut jobs: Vec<CountJob> = index
                .fields
                .iter()
                .map(|field| CountJob { field, scope: Cow::Borrowed(&result), only: None, cut: None, selected: &[] })
                .collect();
            jobs.push(CountJob {
                field: &index.fields[0],
                scope: Cow::Owned(own),
                only: None,
                cut: None,
                selected: &[],
            });
            let some: Vec<u32> = (0..index.fields[1].values.len() as u32).step_by(2).collect();
            jobs.push(CountJob {
                field: &index.fields[1],
                scope: Cow::Borrowed(&result),
                only: Some(some),
                cut: None,
                selected: &[],
            });
            // A flat group of a field with a hierarchy, cut to its five values with the most documents.
            let tree = index.fields.iter().find(|f| !f.flat).expect("a field with a hierarchy");
            let setting = FacetSetting {
                facet_mode: "flat".into(),
                sorting: "count".into(),
                sorting_order: "desc".into(),
                maximum_terms: 5,
                ..FacetSetting::default()
            };
            let cut = cut_of(tree, &setting);
            assert!(cut.is_some());
            jobs.push(CountJob { field: tree, scope: Cow::Borrowed(&result), only: None, cut, selected: &[] });
            let together = walking_together(&jobs, &index);
            assert!(!together.contains(&index.fields.len()), "a scope of its own is walked alone");
            // The demo's scopes are all sparse: under 4,096 documents in roaring's one block.
            assert!(together.contains(&(jobs.len() - 1)), "a cut over a sparse scope walks too");
            walked += together.len();
            let alone = count_all(&jobs, None, Tuned::defaults());
            let mut both = count_all(&jobs, Some(&index), Tuned::defaults());
            assert_eq!(both[..jobs.len() - 1], alone[..jobs.len() - 1], "every {step}th document");
            assert!(alone.iter().flatten().sum::<u64>() > 0, "something was counted");
            let (cut_alone, cut_together) = (alone.last().unwrap(), both.pop().unwrap());
            assert_eq!(
                facet_group(tree, &setting, &cut_together, &[]),
                facet_group(tree, &setting, cut_alone, &[]),
                "the cut group shows the same refiners, every {step}th document"
            );
        }
        assert!(walked > 5, "groups were walked together ({walked})");
    }

    /// A walk together large enough to share is split between the two threads, and the halves add up to the
    /// counts of each walk alone.
    #[test]
    fn a_large_walk_together_is_shared_and_adds_up() {
        // Every 18th of 2.4M documents: under 4,096 in each block of 65,536, and enough of them to share.
        let n = 2_400_000;
        let (flat, tree) = (field(n, 3_000, false), field(n, 2_000, true));
        let index = SpaceIndex::from_parts("s", (1, 1), (1..=i64::from(n)).collect(), vec![flat, tree], Vec::new());
        let result: RoaringBitmap = (0..n).step_by(18).collect();
        let jobs: Vec<CountJob> = index
            .fields
            .iter()
            .map(|field| CountJob { field, scope: Cow::Borrowed(&result), only: None, cut: None, selected: &[] })
            .collect();
        let packed = index.packed().expect("packed values");
        assert!(result.len() as f64 * packed.per_document() >= Tuning::DEFAULT.shared_work, "enough work to share");
        assert_eq!(walking_together(&jobs, &index), vec![0, 1]);
        let together = count_all(&jobs, Some(&index), Tuned::defaults());
        assert_eq!(together, count_all(&jobs, None, Tuned::defaults()));
        assert_eq!(together[0].iter().sum::<u64>(), result.len(), "each document once in the flat field");
    }
}

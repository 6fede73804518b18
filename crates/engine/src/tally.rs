//! Counting the values of a field with a hierarchy over documents walked one by one (by [`super::counting`],
//! and by [`super::packed`] for several fields at once).

use super::field_index::FieldIndex;

/// Counts of a field with a hierarchy over walked documents, each document counting once for each of its
/// values and every value above them. Most documents' values have nothing above them in common (one concept
/// per scheme): such a document adds one to each of its direct values only, and each value's total is added to
/// the values above it once at the end, a third of the steps of adding to every ancestor per document. Any
/// other document counts its values and their ancestors itself, marking each so that it counts once.
pub(crate) struct Tally {
    counts: Vec<u64>,
    direct: Vec<u64>,
    /// The last document (of those counting themselves) each value was counted for.
    stamps: Vec<u32>,
}

impl Tally {
    pub(crate) fn new(field: &FieldIndex) -> Tally {
        let n = field.values.len();
        Tally { counts: vec![0; n], direct: vec![0; n], stamps: vec![u32::MAX; n] }
    }

    /// Counts direct value `v` of document `doc`.
    #[inline]
    pub(crate) fn add(&mut self, field: &FieldIndex, doc: u32, v: u32) {
        if field.shares_ancestors(doc) {
            for &w in field.closure(v) {
                if self.stamps[w as usize] != doc {
                    self.stamps[w as usize] = doc;
                    self.counts[w as usize] += 1;
                }
            }
        } else {
            self.direct[v as usize] += 1;
        }
    }

    /// The counts: per value, the documents having it or a value below it.
    pub(crate) fn finish(mut self, field: &FieldIndex) -> Vec<u64> {
        for (v, &n) in self.direct.iter().enumerate().filter(|(_, &n)| n > 0) {
            for &w in field.closure(v as u32) {
                self.counts[w as usize] += n;
            }
        }
        self.counts
    }
}

//! A term's postings in a segment: the documents having it with its frequency in each field, and apart from
//! them its positions, which only phrases read.
//!
//! The documents: the first row, then per document one number, its distance from the row before (0 for the
//! first) shifted left by three with the fields having the term in the three low bits (title 1, description 2,
//! body 4), then the term's frequency less one in each of those fields. The positions: per document, per field
//! having the term, its positions there, the first as it is and each next one as its distance from the one
//! before. Every number is a varint.

use crate::error::Corrupt;
use crate::format::MAX_ROW;
use crate::varint::{self, Bytes};

/// One document of a term's postings: its row and the term's frequency in each field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Posting {
    pub row: u64,
    pub tf: [u32; 3],
}

impl Posting {
    /// The term's occurrences in the document, all fields together.
    #[inline]
    pub(crate) fn occurrences(&self) -> u64 {
        self.tf.iter().map(|&t| u64::from(t)).sum()
    }
}

/// Writes a term's documents (the caller writes its positions alongside).
#[derive(Debug, Default)]
pub(crate) struct DocsWriter {
    pub bytes: Vec<u8>,
    last: Option<u64>,
    pub count: u64,
}

impl DocsWriter {
    /// Empties it for another term, keeping its memory.
    pub(crate) fn reset(&mut self) {
        self.bytes.clear();
        self.last = None;
        self.count = 0;
    }

    /// The row of the last document added.
    pub(crate) fn last(&self) -> Option<u64> {
        self.last
    }

    /// Adds documents as another term's postings wrote them: `bytes` holds `count` documents each written after
    /// the one before (not the first of a term's postings), the last being `last`.
    #[inline]
    pub(crate) fn extend_raw(&mut self, bytes: &[u8], count: u64, last: u64) {
        self.bytes.extend_from_slice(bytes);
        self.count += count;
        self.last = Some(last);
    }

    /// Adds the document `row` (above the last one added), where the term is `tf[f]` times in field `f` (at least
    /// once in one field).
    #[inline]
    pub(crate) fn push(&mut self, row: u64, tf: [u32; 3]) {
        let delta = match self.last {
            None => {
                varint::put(&mut self.bytes, row);
                0
            }
            Some(last) => row - last,
        };
        let mask = u64::from(tf[0] > 0) | u64::from(tf[1] > 0) << 1 | u64::from(tf[2] > 0) << 2;
        varint::put(&mut self.bytes, delta << 3 | mask);
        for &t in &tf {
            if t > 0 {
                varint::put(&mut self.bytes, u64::from(t - 1));
            }
        }
        self.last = Some(row);
        self.count += 1;
    }
}

/// Reads a term's documents, checking that they are what its dictionary entry says.
#[derive(Debug, Clone)]
pub(crate) struct DocsReader<'a> {
    bytes: Bytes<'a>,
    row: u64,
    left: u64,
    first: bool,
}

impl<'a> DocsReader<'a> {
    /// The `count` documents written in `bytes`.
    pub(crate) fn new(bytes: &'a [u8], count: u64) -> DocsReader<'a> {
        DocsReader { bytes: Bytes::new(bytes), row: 0, left: count, first: true }
    }

    /// Where the next document's bytes start.
    #[inline]
    pub(crate) fn offset(&self) -> usize {
        self.bytes.offset()
    }

    /// The bytes from `start` to where the next document starts.
    #[inline]
    pub(crate) fn bytes_from(&self, start: usize) -> &'a [u8] {
        self.bytes.since(start)
    }

    /// The documents not read yet: their bytes and how many they are. Nothing is left to read after.
    pub(crate) fn rest(&mut self) -> (&'a [u8], u64) {
        let left = std::mem::take(&mut self.left);
        (self.bytes.rest(), left)
    }

    /// The next document, `None` after the last.
    #[inline(always)]
    pub(crate) fn next_posting(&mut self) -> Result<Option<Posting>, Corrupt> {
        if self.left == 0 {
            return if self.bytes.is_empty() { Ok(None) } else { Err(Corrupt("postings go on past their count")) };
        }
        if self.first {
            self.row = self.bytes.varint()?;
        }
        let head = self.bytes.varint()?;
        let delta = head >> 3;
        if self.first != (delta == 0) {
            return Err(Corrupt("postings are out of order"));
        }
        self.first = false;
        self.row =
            self.row.checked_add(delta).filter(|&r| r <= MAX_ROW).ok_or(Corrupt("a posting's row is too large"))?;
        let mut tf = [0u32; 3];
        for (f, t) in tf.iter_mut().enumerate() {
            if head & (1 << f) != 0 {
                *t = self.bytes.varint_u32()?.checked_add(1).ok_or(Corrupt("a frequency is too large"))?;
            }
        }
        if head & 7 == 0 {
            return Err(Corrupt("a posting has no field"));
        }
        self.left -= 1;
        Ok(Some(Posting { row: self.row, tf }))
    }
}

/// Reads a term's positions, document after document.
#[derive(Debug, Clone)]
pub(crate) struct PositionsReader<'a> {
    bytes: Bytes<'a>,
}

impl<'a> PositionsReader<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> PositionsReader<'a> {
        PositionsReader { bytes: Bytes::new(buf) }
    }

    /// Passes over the positions of a document of `occurrences` occurrences.
    #[inline]
    pub(crate) fn skip(&mut self, occurrences: u64) -> Result<(), Corrupt> {
        self.bytes.skip_varints(occurrences)
    }

    /// The positions not read yet. Nothing is left to read after.
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        self.bytes.rest()
    }

    /// Where the next document's positions start.
    #[inline]
    pub(crate) fn offset(&self) -> usize {
        self.bytes.offset()
    }

    /// The positions' bytes from `start` to where the next document's start, as written (for a merge).
    #[inline]
    pub(crate) fn bytes_from(&self, start: usize) -> &'a [u8] {
        self.bytes.since(start)
    }

    /// The `tf` positions of the term in one field of a document, appended to `out` (increasing).
    #[inline]
    pub(crate) fn field(&mut self, tf: u32, out: &mut Vec<u32>) -> Result<(), Corrupt> {
        let mut position = 0u64;
        for k in 0..tf {
            let step = self.bytes.varint()?;
            if k > 0 && step == 0 {
                return Err(Corrupt("positions are out of order"));
            }
            position = position.checked_add(step).filter(|&p| p < 1 << 31).ok_or(Corrupt("a position is too large"))?;
            out.push(position as u32);
        }
        Ok(())
    }

    /// True when every position was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postings_round_trip() {
        let docs = [(3u64, [0u32, 0, 2]), (4, [1, 0, 0]), (900, [2, 5, 1])];
        let mut w = DocsWriter::default();
        for &(row, tf) in &docs {
            w.push(row, tf);
        }
        let mut r = DocsReader::new(&w.bytes, w.count);
        for &(row, tf) in &docs {
            assert_eq!(r.next_posting(), Ok(Some(Posting { row, tf })));
        }
        assert_eq!(r.next_posting(), Ok(None));
        assert!(DocsReader::new(&w.bytes, 2).next_posting().is_ok());
        let mut short = DocsReader::new(&w.bytes, 2);
        short.next_posting().unwrap();
        short.next_posting().unwrap();
        assert!(short.next_posting().is_err(), "bytes left over after the count");
        let mut long = DocsReader::new(&w.bytes, 4);
        for _ in 0..3 {
            long.next_posting().unwrap();
        }
        assert!(long.next_posting().is_err(), "the count runs past the bytes");
    }
}

//! Phrases, and the rows of one segment that have a phrase, with its frequency in each of their fields.
//!
//! A phrase is a sequence of terms at consecutive positions of one field; its last term may be a prefix, which
//! stands for every term starting with it. A one-term phrase is read from the term's documents alone (and a
//! prefix's from those of every term it stands for); a longer one walks the documents of its terms side by
//! side and, in the documents that have them all, reads their positions. A phrase's frequency in a field is
//! the number of positions it starts at there, as FTS5 counts a phrase's instances.

use roaring::RoaringTreemap;

use crate::dictionary::TermInfo;
use crate::error::{Corrupt, TextError};
use crate::postings::{DocsReader, PositionsReader, Posting};
use crate::segment::Segment;
use crate::tokenizer::Tokens;

/// A phrase of a query: its terms, folded as the index folds them, and whether the last is a prefix.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Phrase {
    terms: Vec<Box<[u8]>>,
    prefix: bool,
}

impl Phrase {
    /// The phrase of the tokens of `text` (a word, or words to be found next to each other), the last token a
    /// prefix when `prefix` is true. A text without a token makes a phrase that no row has.
    pub fn new(text: &str, prefix: bool) -> Phrase {
        let mut tokens = Tokens::new(text);
        let mut terms = Vec::new();
        while let Some((_, term)) = tokens.next_token() {
            terms.push(term.into());
        }
        Phrase { terms, prefix }
    }

    /// The phrase of one term as the index holds it (already folded).
    pub fn term(term: &[u8]) -> Phrase {
        Phrase { terms: vec![term.into()], prefix: false }
    }

    /// Its terms, in order.
    pub fn terms(&self) -> &[Box<[u8]>] {
        &self.terms
    }

    /// True when its last term is a prefix.
    pub fn is_prefix(&self) -> bool {
        self.prefix
    }
}

/// One row having a phrase, with the phrase's frequency in each of its fields.
pub(crate) type Hit = (u64, [u32; 3]);

/// A term's documents and positions walked side by side.
struct Cursor<'a> {
    docs: DocsReader<'a>,
    positions: PositionsReader<'a>,
    current: Option<Posting>,
    /// Occurrences of the current document whose positions are not read yet.
    unread: u64,
}

impl<'a> Cursor<'a> {
    fn new(docs: &'a [u8], positions: &'a [u8], count: u64) -> Result<Cursor<'a>, Corrupt> {
        let mut cursor = Cursor {
            docs: DocsReader::new(docs, count),
            positions: PositionsReader::new(positions),
            current: None,
            unread: 0,
        };
        cursor.advance()?;
        Ok(cursor)
    }

    fn row(&self) -> Option<u64> {
        self.current.map(|p| p.row)
    }

    fn advance(&mut self) -> Result<(), Corrupt> {
        self.positions.skip(self.unread)?;
        self.current = self.docs.next_posting()?;
        self.unread = self.current.map_or(0, |p| p.occurrences());
        Ok(())
    }

    /// Moves to the first document at or after `row`.
    fn seek(&mut self, row: u64) -> Result<(), Corrupt> {
        while self.current.is_some_and(|p| p.row < row) {
            self.advance()?;
        }
        Ok(())
    }

    /// Appends the current document's positions, per field, to `out`.
    fn read_positions(&mut self, out: &mut [Vec<u32>; 3]) -> Result<(), Corrupt> {
        let Some(posting) = self.current else { return Ok(()) };
        if self.unread == 0 {
            return Ok(());
        }
        for (f, positions) in out.iter_mut().enumerate() {
            self.positions.field(posting.tf[f], positions)?;
        }
        self.unread = 0;
        Ok(())
    }
}

/// The rows of `segment`, but those in `deleted`, having `phrase`, in order, appended to `out`.
pub(crate) fn rows_having(
    segment: &Segment,
    deleted: &RoaringTreemap,
    phrase: &Phrase,
    out: &mut Vec<Hit>,
) -> Result<(), TextError> {
    let Some((last, exact)) = phrase.terms.split_last() else { return Ok(()) };
    let mut slots: Vec<Vec<TermInfo>> = Vec::with_capacity(phrase.terms.len());
    for term in exact {
        match segment.term(term)? {
            Some(info) => slots.push(vec![info]),
            None => return Ok(()),
        }
    }
    let last_terms: Vec<TermInfo> = if phrase.prefix {
        segment.terms_with_prefix(last)?.into_iter().map(|(_, info)| info).collect()
    } else {
        segment.term(last)?.into_iter().collect()
    };
    if last_terms.is_empty() {
        return Ok(());
    }
    slots.push(last_terms);
    if let [only] = &slots[..] {
        return one_term(segment, deleted, only, out);
    }
    phrase_rows(segment, deleted, &slots, out)
}

/// The rows of the terms `infos` (the terms a one-term phrase stands for), their frequencies added up.
fn one_term(
    segment: &Segment,
    deleted: &RoaringTreemap,
    infos: &[TermInfo],
    out: &mut Vec<Hit>,
) -> Result<(), TextError> {
    let start = out.len();
    for info in infos {
        let bytes = segment.docs(info)?;
        let mut docs = DocsReader::new(&bytes, info.docs);
        while let Some(p) = docs.next_posting().map_err(|c| segment.corrupt(c))? {
            if deleted.is_empty() || !deleted.contains(p.row) {
                out.push((p.row, p.tf));
            }
        }
    }
    if infos.len() > 1 {
        let hits = &mut out[start..];
        hits.sort_unstable_by_key(|h| h.0);
        let mut kept = start;
        for k in start..out.len() {
            if kept > start && out[kept - 1].0 == out[k].0 {
                let tf = out[k].1;
                for (sum, t) in out[kept - 1].1.iter_mut().zip(tf) {
                    *sum += t;
                }
            } else {
                out[kept] = out[k];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
    Ok(())
}

/// The rows having the phrase whose k-th term is any of `slots[k]`, found by their positions.
fn phrase_rows(
    segment: &Segment,
    deleted: &RoaringTreemap,
    slots: &[Vec<TermInfo>],
    out: &mut Vec<Hit>,
) -> Result<(), TextError> {
    let mut bytes: Vec<Vec<TermBytes>> = Vec::with_capacity(slots.len());
    for slot in slots {
        let mut read = Vec::with_capacity(slot.len());
        for info in slot {
            read.push(TermBytes { docs: segment.docs(info)?, positions: segment.positions(info)?, count: info.docs });
        }
        bytes.push(read);
    }
    walk(deleted, &bytes, out).map_err(|c| segment.corrupt(c))
}

/// A term's documents and positions as read from a segment, and its number of documents.
struct TermBytes {
    docs: Vec<u8>,
    positions: Vec<u8>,
    count: u64,
}

/// The positions of one slot of a phrase in the current row, per field.
type SlotPositions = [Vec<u32>; 3];

fn walk(deleted: &RoaringTreemap, bytes: &[Vec<TermBytes>], out: &mut Vec<Hit>) -> Result<(), Corrupt> {
    let mut slots: Vec<Vec<Cursor>> = Vec::with_capacity(bytes.len());
    for slot in bytes {
        let mut cursors = Vec::with_capacity(slot.len());
        for term in slot {
            cursors.push(Cursor::new(&term.docs, &term.positions, term.count)?);
        }
        slots.push(cursors);
    }
    let slot_row = |cursors: &[Cursor]| cursors.iter().filter_map(Cursor::row).min();
    let mut positions: Vec<SlotPositions> = vec![Default::default(); slots.len()];
    let mut target = 0u64;
    'rows: loop {
        // Every slot at or after `target`; a slot past it raises it, until all are at one row.
        let mut agreed = true;
        for cursors in &mut slots {
            for c in cursors.iter_mut() {
                c.seek(target)?;
            }
            let Some(row) = slot_row(cursors) else { break 'rows };
            if row > target {
                target = row;
                agreed = false;
            }
        }
        if !agreed {
            continue;
        }
        if deleted.is_empty() || !deleted.contains(target) {
            for (cursors, found) in slots.iter_mut().zip(&mut positions) {
                found.iter_mut().for_each(Vec::clear);
                for c in cursors.iter_mut().filter(|c| c.row() == Some(target)) {
                    c.read_positions(found)?;
                }
                if cursors.len() > 1 {
                    found.iter_mut().for_each(|f| f.sort_unstable());
                }
            }
            let tf = count_starts(&positions);
            if tf.iter().any(|&t| t > 0) {
                out.push((target, tf));
            }
        }
        let Some(next) = target.checked_add(1) else { break };
        target = next;
    }
    Ok(())
}

/// Per field, the positions `p` where slot k has position `p + k` for every k.
fn count_starts(slots: &[SlotPositions]) -> [u32; 3] {
    let mut tf = [0u32; 3];
    for (f, count) in tf.iter_mut().enumerate() {
        let mut next = vec![0usize; slots.len()];
        'starts: for &p in &slots[0][f] {
            for (k, slot) in slots.iter().enumerate().skip(1) {
                let want = p + k as u32;
                let list = &slot[f];
                while next[k] < list.len() && list[next[k]] < want {
                    next[k] += 1;
                }
                if next[k] >= list.len() || list[next[k]] != want {
                    continue 'starts;
                }
            }
            *count += 1;
        }
    }
    tf
}

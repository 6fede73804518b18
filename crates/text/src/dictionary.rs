//! A segment's term dictionary: its terms in byte order, in blocks of [`BLOCK_TERMS`], each block front-coded
//! (every term as the length it shares with the term before and the bytes after that) and followed by its
//! checksum; and the blocks' index, every block's first term and length, which an open segment keeps in memory.
//!
//! A block: its number of terms, the offset of its first term's postings, then per term the shared length,
//! the rest's length and bytes, its number of documents, the row of the last, the lengths of its documents' and positions' bytes
//! and the checksums of both. A term's postings follow the previous term's, its documents then its positions.

use crate::error::Corrupt;
use crate::format::{crc, BLOCK_TERMS};
use crate::varint::{self, Bytes};

/// What the dictionary says of a term.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TermInfo {
    /// Documents having the term (deleted ones included until a merge drops them).
    pub docs: u64,
    /// The row of the last of them.
    pub last: u64,
    /// Where its documents' bytes start in the file; its positions' follow them.
    pub at: u64,
    pub docs_len: u64,
    pub positions_len: u64,
    pub docs_crc: u32,
    pub positions_crc: u32,
}

impl TermInfo {
    /// Where its positions' bytes start.
    pub(crate) fn positions_at(&self) -> u64 {
        self.at + self.docs_len
    }

    /// Where its postings end.
    pub(crate) fn end(&self) -> Option<u64> {
        self.at.checked_add(self.docs_len)?.checked_add(self.positions_len)
    }
}

/// Writes the dictionary's blocks and their index as terms come, in order.
#[derive(Debug, Default)]
pub(crate) struct DictionaryWriter {
    /// The blocks written so far.
    pub blocks: Vec<u8>,
    /// The index: per block its first term and its length (the block count is put in front at the end).
    index: Vec<u8>,
    block_count: u64,
    entries: Vec<u8>,
    in_block: usize,
    block_start: u64,
    previous: Vec<u8>,
}

impl DictionaryWriter {
    /// Adds `term` (above the previous one), its postings starting at `info.at` right after the previous
    /// term's.
    pub(crate) fn add(&mut self, term: &[u8], info: &TermInfo) {
        if self.in_block == 0 {
            self.block_start = info.at;
            varint::put(&mut self.index, term.len() as u64);
            self.index.extend_from_slice(term);
            self.previous.clear();
        }
        let shared = term.iter().zip(&self.previous).take_while(|(a, b)| a == b).count();
        varint::put(&mut self.entries, shared as u64);
        varint::put(&mut self.entries, (term.len() - shared) as u64);
        self.entries.extend_from_slice(&term[shared..]);
        varint::put(&mut self.entries, info.docs);
        varint::put(&mut self.entries, info.last);
        varint::put(&mut self.entries, info.docs_len);
        varint::put(&mut self.entries, info.positions_len);
        self.entries.extend_from_slice(&info.docs_crc.to_le_bytes());
        self.entries.extend_from_slice(&info.positions_crc.to_le_bytes());
        self.previous.clear();
        self.previous.extend_from_slice(term);
        self.in_block += 1;
        if self.in_block == BLOCK_TERMS {
            self.close_block();
        }
    }

    fn close_block(&mut self) {
        if self.in_block == 0 {
            return;
        }
        let start = self.blocks.len();
        varint::put(&mut self.blocks, self.in_block as u64);
        varint::put(&mut self.blocks, self.block_start);
        self.blocks.extend_from_slice(&self.entries);
        let sum = crc(&self.blocks[start..]);
        self.blocks.extend_from_slice(&sum.to_le_bytes());
        varint::put(&mut self.index, (self.blocks.len() - start) as u64);
        self.block_count += 1;
        self.entries.clear();
        self.in_block = 0;
    }

    /// The blocks and the index's bytes.
    pub(crate) fn finish(mut self) -> (Vec<u8>, Vec<u8>) {
        self.close_block();
        let mut index = Vec::with_capacity(self.index.len() + 10);
        varint::put(&mut index, self.block_count);
        index.extend_from_slice(&self.index);
        (self.blocks, index)
    }
}

/// A term of a block with what the dictionary says of it.
pub(crate) type Entry = (Box<[u8]>, TermInfo);

/// A block as the index knows it: its first term, where it is and its length.
#[derive(Debug, Clone)]
pub(crate) struct BlockRef {
    pub first: Box<[u8]>,
    /// Offset in the file.
    pub at: u64,
    pub len: u64,
}

/// The blocks' index from its bytes; `dictionary_at` and `dictionary_len` are where the blocks lie in the file.
pub(crate) fn read_index(bytes: &[u8], dictionary_at: u64, dictionary_len: u64) -> Result<Vec<BlockRef>, Corrupt> {
    let mut r = Bytes::new(bytes);
    let count = r.len()?;
    let mut blocks = Vec::with_capacity(count.min(bytes.len()));
    let mut at = dictionary_at;
    for _ in 0..count {
        let len = r.len()?;
        let first: Box<[u8]> = r.take(len)?.into();
        let block_len = r.varint()?;
        if blocks.last().is_some_and(|b: &BlockRef| b.first >= first) || block_len < 4 {
            return Err(Corrupt("the dictionary's index is out of order"));
        }
        blocks.push(BlockRef { first, at, len: block_len });
        at = at.checked_add(block_len).ok_or(Corrupt("the dictionary's index is too long"))?;
    }
    if !r.is_empty() || at != dictionary_at + dictionary_len {
        return Err(Corrupt("the dictionary's index does not cover its blocks"));
    }
    Ok(blocks)
}

/// The terms of a block, from its bytes (the block's checksum included), in order, each checked to lie in
/// `postings` (the offsets of the postings' part of the file), the first being `first`.
pub(crate) fn read_block(bytes: &[u8], first: &[u8], postings: (u64, u64)) -> Result<Vec<Entry>, Corrupt> {
    let (body, sum) = bytes.split_at(bytes.len().checked_sub(4).ok_or(Corrupt("a dictionary block is cut short"))?);
    if crc(body).to_le_bytes() != sum {
        return Err(Corrupt("a dictionary block does not match its checksum"));
    }
    let mut r = Bytes::new(body);
    let count = r.len()?;
    if count == 0 || count > BLOCK_TERMS {
        return Err(Corrupt("a dictionary block has a wrong number of terms"));
    }
    let mut at = r.varint()?;
    let mut terms: Vec<Entry> = Vec::with_capacity(count);
    let mut term: Vec<u8> = Vec::new();
    for _ in 0..count {
        let shared = r.len()?;
        let rest = r.len()?;
        if shared > term.len() {
            return Err(Corrupt("a dictionary entry shares more than the term before has"));
        }
        term.truncate(shared);
        term.extend_from_slice(r.take(rest)?);
        let info = TermInfo {
            docs: r.varint()?,
            last: r.varint()?,
            at,
            docs_len: r.varint()?,
            positions_len: r.varint()?,
            docs_crc: r.u32()?,
            positions_crc: r.u32()?,
        };
        let end = info.end().filter(|&e| info.at >= postings.0 && e <= postings.1);
        let ordered = terms.last().map_or(term.as_slice() == first, |(last, _)| **last < *term);
        if end.is_none() || !ordered || info.docs == 0 || info.docs_len == 0 {
            return Err(Corrupt("a dictionary entry is out of order or out of the file"));
        }
        at = end.unwrap_or(at);
        terms.push((term.as_slice().into(), info));
    }
    if !r.is_empty() {
        return Err(Corrupt("a dictionary block goes on past its terms"));
    }
    Ok(terms)
}

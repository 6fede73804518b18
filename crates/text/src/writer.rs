//! Writes one segment file from its terms in order and its documents' sizes: for a builder's documents and for
//! a merge alike. The file is written under a temporary name and becomes the segment's file only once it is
//! complete and synced ([`crate::files::publish`]).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::dictionary::{DictionaryWriter, Entry, TermInfo};
use crate::error::TextError;
use crate::files::{publish, remove, segment_path, temporary};
use crate::format::{crc, header, Footer, HEADER_LEN};
use crate::varint;

/// A segment written, synced and renamed into place, not yet part of the index: [`crate::TextIndex::add`]
/// makes it live. Dropped without that, its file is removed when the index is next opened.
#[derive(Debug)]
pub struct NewSegment {
    pub(crate) id: u64,
    pub(crate) path: PathBuf,
    pub(crate) docs: u64,
}

impl NewSegment {
    /// The documents it holds.
    pub fn docs(&self) -> u64 {
        self.docs
    }
}

/// Where a merge puts each term it merged, with its postings.
pub(crate) trait TermSink {
    /// Adds `term` (above the last one added) in `docs` documents, the last of them `last`, with their bytes and
    /// its positions' bytes.
    fn add_term(
        &mut self,
        term: &[u8],
        docs: u64,
        last: u64,
        doc_bytes: &[u8],
        positions: &[u8],
    ) -> Result<(), TextError>;
}

/// The postings of a part of a segment's terms, written by a thread of a merge into a temporary file of their
/// own, with their dictionary entries kept in memory, to be appended to the segment ([`SegmentWriter::append`]).
pub(crate) struct PartWriter {
    path: PathBuf,
    out: BufWriter<File>,
    at: u64,
    entries: Vec<Entry>,
}

/// A part written: its file and its terms, their offsets from the file's start.
pub(crate) struct Part {
    path: PathBuf,
    len: u64,
    entries: Vec<Entry>,
}

impl PartWriter {
    /// Starts a part in the file `path` (a temporary name: left behind, it is removed at the next open).
    pub(crate) fn create(path: PathBuf) -> Result<PartWriter, TextError> {
        let file = File::create(&path).map_err(TextError::io("create", &path))?;
        Ok(PartWriter { path, out: BufWriter::with_capacity(BUFFER, file), at: 0, entries: Vec::new() })
    }

    /// The part, its bytes all written to its file.
    pub(crate) fn finish(self) -> Result<Part, TextError> {
        let PartWriter { path, out, at, entries } = self;
        out.into_inner().map_err(|e| TextError::io("write", &path)(e.into_error()))?;
        Ok(Part { path, len: at, entries })
    }
}

impl TermSink for PartWriter {
    fn add_term(
        &mut self,
        term: &[u8],
        docs: u64,
        last: u64,
        doc_bytes: &[u8],
        positions: &[u8],
    ) -> Result<(), TextError> {
        let info = term_info(docs, last, self.at, doc_bytes, positions);
        for bytes in [doc_bytes, positions] {
            self.out.write_all(bytes).map_err(TextError::io("write", &self.path))?;
            self.at += bytes.len() as u64;
        }
        self.entries.push((term.into(), info));
        Ok(())
    }
}

/// What the dictionary says of a term whose postings, `doc_bytes` then `positions`, are at `at`.
fn term_info(docs: u64, last: u64, at: u64, doc_bytes: &[u8], positions: &[u8]) -> TermInfo {
    TermInfo {
        docs,
        last,
        at,
        docs_len: doc_bytes.len() as u64,
        positions_len: positions.len() as u64,
        docs_crc: crc(doc_bytes),
        positions_crc: crc(positions),
    }
}

/// A segment file being written.
pub(crate) struct SegmentWriter {
    id: u64,
    path: PathBuf,
    tmp: PathBuf,
    out: BufWriter<File>,
    at: u64,
    dictionary: DictionaryWriter,
    terms: u64,
}

/// The write buffer: postings go out in large sequential writes.
const BUFFER: usize = 1 << 20;

impl SegmentWriter {
    /// Starts the file of segment `id` in `dir`.
    pub(crate) fn create(dir: &Path, id: u64) -> Result<SegmentWriter, TextError> {
        let path = segment_path(dir, id);
        let tmp = temporary(&path);
        let file = File::create(&tmp).map_err(TextError::io("create", &tmp))?;
        let mut out = BufWriter::with_capacity(BUFFER, file);
        out.write_all(&header()).map_err(TextError::io("write", &tmp))?;
        Ok(SegmentWriter { id, path, tmp, out, at: HEADER_LEN, dictionary: DictionaryWriter::default(), terms: 0 })
    }

    /// Appends a part that a thread of a merge wrote (its terms all above those added so far), and removes its
    /// file.
    pub(crate) fn append(&mut self, part: Part) -> Result<(), TextError> {
        self.out.flush().map_err(TextError::io("write", &self.tmp))?;
        let mut from = File::open(&part.path).map_err(TextError::io("open", &part.path))?;
        let copied = std::io::copy(&mut from, self.out.get_mut()).map_err(TextError::io("copy", &part.path))?;
        if copied != part.len {
            return Err(TextError::damaged(&part.path, "it is not as long as what was written to it"));
        }
        drop(from);
        remove(&part.path)?;
        let base = self.at;
        self.at += part.len;
        for (term, mut info) in part.entries {
            info.at += base;
            self.dictionary.add(&term, &info);
            self.terms += 1;
        }
        Ok(())
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), TextError> {
        self.out.write_all(bytes).map_err(TextError::io("write", &self.tmp))?;
        self.at += bytes.len() as u64;
        Ok(())
    }

    /// Ends the file with the dictionary and the sizes of its documents (`rows` increasing, `sizes` per row
    /// the tokens of each field), syncs it and puts it in place.
    pub(crate) fn finish(mut self, rows: &[u64], sizes: &[[u32; 3]]) -> Result<NewSegment, TextError> {
        let postings_len = self.at - HEADER_LEN;
        let (blocks, index) = std::mem::take(&mut self.dictionary).finish();
        self.write(&blocks)?;
        self.write(&index)?;
        let mut table = Vec::with_capacity(rows.len() * 6 + 10);
        varint::put(&mut table, rows.len() as u64);
        let mut tokens = [0u64; 3];
        let mut last = 0;
        for (&row, size) in rows.iter().zip(sizes) {
            varint::put(&mut table, row - last);
            last = row;
            for (f, &s) in size.iter().enumerate() {
                varint::put(&mut table, u64::from(s));
                tokens[f] += u64::from(s);
            }
        }
        self.write(&table)?;
        let footer = Footer {
            postings_len,
            dictionary_len: blocks.len() as u64,
            index_len: index.len() as u64,
            sizes_len: table.len() as u64,
            terms: self.terms,
            docs: rows.len() as u64,
            tokens,
            postings_at: HEADER_LEN,
            id: self.id,
            index_crc: crc(&index),
            sizes_crc: crc(&table),
        };
        let footer = footer.encode(&header());
        self.write(&footer)?;
        let file = self.out.into_inner().map_err(|e| TextError::io("write", &self.tmp)(e.into_error()))?;
        file.sync_all().map_err(TextError::io("sync", &self.tmp))?;
        drop(file);
        publish(&self.tmp, &self.path)?;
        Ok(NewSegment { id: self.id, path: self.path, docs: rows.len() as u64 })
    }
}

impl TermSink for SegmentWriter {
    fn add_term(
        &mut self,
        term: &[u8],
        docs: u64,
        last: u64,
        doc_bytes: &[u8],
        positions: &[u8],
    ) -> Result<(), TextError> {
        let info = term_info(docs, last, self.at, doc_bytes, positions);
        self.write(doc_bytes)?;
        self.write(positions)?;
        self.dictionary.add(term, &info);
        self.terms += 1;
        Ok(())
    }
}

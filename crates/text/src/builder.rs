//! Builds segments from documents on one thread: each document's fields are tokenized and every token goes
//! straight into its term's postings in memory, already in the segment's encoding ([`crate::postings`]), so
//! that writing a segment is sorting the terms and copying their bytes out. Several builders, each on a thread
//! of its own, build side by side; their segments are then merged.
//!
//! A builder holds its documents in memory up to its budget ([`Builder::budget`], 256 MB unless told), then
//! writes them as a segment and goes on with the next documents; [`Builder::finish`] writes what is left and
//! returns every segment written, each complete and on disk, none of them live yet
//! ([`crate::TextIndex::add`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::error::TextError;
use crate::format::{MAX_POSITIONS, MAX_ROW};
use crate::tokenizer::Tokens;
use crate::varint;
use crate::writer::{NewSegment, SegmentWriter};

/// The memory a builder holds documents in before it writes them as a segment, unless told otherwise.
pub const DEFAULT_BUDGET: usize = 256 << 20;

/// What a builder knows of a term while documents come: its postings so far and its part of the document
/// being added.
#[derive(Default)]
struct TermState {
    /// Its documents, encoded.
    docs: Vec<u8>,
    /// Its positions, encoded, the document being added's included.
    positions: Vec<u8>,
    /// Documents in `docs`.
    count: u64,
    /// The row of the last of them.
    last_row: u64,
    /// The number of the document the term was last seen in (1 for the builder's first).
    seen_in: u32,
    /// Its frequency in each field of the document being added.
    tf: [u32; 3],
    /// Its last position in the field being added.
    last_position: u32,
}

/// Memory a term takes besides its postings' bytes: its state, its key and the map's slot.
const TERM_OVERHEAD: usize = std::mem::size_of::<TermState>() + 48;

/// A builder of segments; see the module's documentation.
pub struct Builder {
    dir: PathBuf,
    ids: Arc<AtomicU64>,
    budget: usize,
    ids_of_terms: FxHashMap<Box<[u8]>, u32>,
    terms: Vec<TermState>,
    rows: Vec<u64>,
    sizes: Vec<[u32; 3]>,
    /// The terms of the document being added, in the order first seen.
    touched: Vec<u32>,
    /// Bytes of postings held.
    bytes: usize,
    /// The row of the last document added, to any segment of this builder.
    last_row: Option<u64>,
    written: Vec<NewSegment>,
}

impl Builder {
    /// A builder writing segments into `dir`, taking their ids from `ids`.
    pub(crate) fn new(dir: PathBuf, ids: Arc<AtomicU64>) -> Builder {
        Builder {
            dir,
            ids,
            budget: DEFAULT_BUDGET,
            ids_of_terms: FxHashMap::default(),
            terms: Vec::new(),
            rows: Vec::new(),
            sizes: Vec::new(),
            touched: Vec::new(),
            bytes: 0,
            last_row: None,
            written: Vec::new(),
        }
    }

    /// The same builder holding at most about `bytes` of documents in memory before it writes a segment.
    pub fn budget(mut self, bytes: usize) -> Builder {
        self.budget = bytes.max(1);
        self
    }

    /// Adds the document `row` (above every row added before) with its fields: title, description, body.
    /// Writes a segment first when the documents held reach the budget.
    pub fn add(&mut self, row: u64, fields: [&str; 3]) -> Result<(), TextError> {
        if row > MAX_ROW {
            return Err(TextError::RowTooLarge { row, most: MAX_ROW });
        }
        if let Some(after) = self.last_row.filter(|&last| row <= last) {
            return Err(TextError::RowOrder { row, after });
        }
        if let Some(field) = fields.iter().position(|f| f.len() as u64 >= MAX_POSITIONS) {
            return Err(TextError::TooManyTokens { row, field, most: MAX_POSITIONS - 1 });
        }
        if self.memory() >= self.budget || self.rows.len() >= u32::MAX as usize - 1 {
            self.write_segment()?;
        }
        self.last_row = Some(row);
        self.rows.push(row);
        let doc = self.rows.len() as u32;
        let mut size = [0u32; 3];
        for (field, text) in fields.iter().enumerate() {
            size[field] = self.add_field(doc, field, text);
        }
        self.sizes.push(size);
        self.end_document(row);
        Ok(())
    }

    /// Adds the tokens of one field of document `doc` (numbered from 1); returns how many there were.
    #[inline]
    fn add_field(&mut self, doc: u32, field: usize, text: &str) -> u32 {
        let mut tokens = Tokens::new(text);
        let mut count = 0;
        while let Some((position, term)) = tokens.next_token() {
            count = position + 1;
            let id = match self.ids_of_terms.get(term) {
                Some(&id) => id,
                None => {
                    let id = self.terms.len() as u32;
                    self.ids_of_terms.insert(term.into(), id);
                    self.terms.push(TermState::default());
                    self.bytes += TERM_OVERHEAD + term.len();
                    id
                }
            };
            let state = &mut self.terms[id as usize];
            if state.seen_in != doc {
                state.seen_in = doc;
                state.tf = [0; 3];
                self.touched.push(id);
            }
            let before = state.positions.len();
            let step = if state.tf[field] == 0 { position } else { position - state.last_position };
            varint::put(&mut state.positions, u64::from(step));
            state.tf[field] += 1;
            state.last_position = position;
            self.bytes += state.positions.len() - before;
        }
        count
    }

    /// Writes the document `row` into the postings of every term it has.
    fn end_document(&mut self, row: u64) {
        for &id in &self.touched {
            let state = &mut self.terms[id as usize];
            let before = state.docs.len();
            let delta = if state.count == 0 {
                varint::put(&mut state.docs, row);
                0
            } else {
                row - state.last_row
            };
            let tf = state.tf;
            let mask = u64::from(tf[0] > 0) | u64::from(tf[1] > 0) << 1 | u64::from(tf[2] > 0) << 2;
            varint::put(&mut state.docs, delta << 3 | mask);
            for t in tf {
                if t > 0 {
                    varint::put(&mut state.docs, u64::from(t - 1));
                }
            }
            state.count += 1;
            state.last_row = row;
            self.bytes += state.docs.len() - before;
        }
        self.touched.clear();
    }

    /// About the memory the documents held take: their postings (with what growing buffers leave unused),
    /// their terms and their sizes.
    fn memory(&self) -> usize {
        self.bytes + self.bytes / 2 + self.rows.len() * 20
    }

    /// Documents held in memory, not yet written.
    pub fn docs_held(&self) -> usize {
        self.rows.len()
    }

    /// Writes the documents held as a segment and starts afresh.
    fn write_segment(&mut self) -> Result<(), TextError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let id = self.ids.fetch_add(1, Ordering::Relaxed);
        let mut writer = SegmentWriter::create(&self.dir, id)?;
        let mut order: Vec<(Box<[u8]>, u32)> = std::mem::take(&mut self.ids_of_terms).into_iter().collect();
        order.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (term, id) in order {
            let state = std::mem::take(&mut self.terms[id as usize]);
            if state.count > 0 {
                writer.add_term(&term, state.count, &state.docs, &state.positions)?;
            }
        }
        let segment = writer.finish(&self.rows, &self.sizes)?;
        self.written.push(segment);
        self.terms = Vec::new();
        self.rows = Vec::new();
        self.sizes = Vec::new();
        self.bytes = 0;
        Ok(())
    }

    /// Writes what is held and returns every segment this builder wrote, in the order written.
    pub fn finish(mut self) -> Result<Vec<NewSegment>, TextError> {
        self.write_segment()?;
        Ok(std::mem::take(&mut self.written))
    }
}

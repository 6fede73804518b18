//! Builds segments from documents on one thread. Several builders, each on a thread of its own, build side by
//! side; their segments are then merged.
//!
//! Each token of a document becomes one 64-bit record (its term's number, its document's place in the batch,
//! its field and position) appended to the batch; a batch of up to [`BATCH_DOCS`] documents is sorted by term
//! (a stable radix sort, so each term's records stay in document, field and position order) and then written
//! into each term's postings in memory, already in the segment's encoding ([`crate::postings`]). Tokens thus
//! go to memory in one sequential stream and each term's postings are touched once a batch, not once a token:
//! what made FTS5's build slow was a hash table's random accesses at every token.
//!
//! A builder holds its documents in memory up to its budget ([`Builder::budget`], 256 MB unless told, and
//! another once it has written a number of segments, [`Builder::budget_after`]), then writes them as a segment and
//! goes on with the next documents; [`Builder::finish`] writes what is left and
//! returns every segment written, each complete and on disk, none of them live yet
//! ([`crate::TextIndex::add`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::error::TextError;
use crate::format::MAX_ROW;
use crate::interner::Interner;
use crate::tokenizer::Tokens;
use crate::varint;
use crate::writer::{NewSegment, SegmentWriter, TermSink};

/// The memory a builder holds documents in before it writes them as a segment, unless told otherwise.
pub const DEFAULT_BUDGET: usize = 256 << 20;
/// The most text a document's fields hold together, in bytes: a token's record numbers its term with 24 bits
/// and its position with 28, and a document of less text has fewer distinct terms and positions than that.
pub const MAX_DOCUMENT_BYTES: usize = 32 << 20;
/// Documents in a batch (a record numbers its document in the batch with 10 bits).
const BATCH_DOCS: usize = 1 << DOC_BITS;
/// Records after which a batch is written even with fewer documents.
const BATCH_RECORDS: usize = 1 << 22;
/// Terms a segment numbers (24 bits of a record).
const MAX_TERMS: usize = 1 << 24;
const POSITION_BITS: u32 = 25;
const DOC_BITS: u32 = 13;
const FIELD_SHIFT: u32 = POSITION_BITS;
const DOC_SHIFT: u32 = FIELD_SHIFT + 2;
const TERM_SHIFT: u32 = DOC_SHIFT + DOC_BITS;

/// A term's postings so far.
#[derive(Default)]
struct TermPostings {
    docs: Vec<u8>,
    positions: Vec<u8>,
    count: u64,
    last_row: u64,
}

/// A builder of segments; see the module's documentation.
pub struct Builder {
    dir: PathBuf,
    ids: Arc<AtomicU64>,
    budget: usize,
    /// Segments written after which the budget is the second number.
    later: Option<(usize, usize)>,
    terms: Interner,
    postings: Vec<TermPostings>,
    rows: Vec<u64>,
    sizes: Vec<[u32; 3]>,
    /// The records of the batch, and where it starts in `rows`.
    batch: Vec<u64>,
    batch_start: usize,
    scratch: Vec<u64>,
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
            later: None,
            terms: Interner::default(),
            postings: Vec::new(),
            rows: Vec::new(),
            sizes: Vec::new(),
            batch: Vec::new(),
            batch_start: 0,
            scratch: Vec::new(),
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

    /// The same builder holding at most about `bytes` once it has written `segments` segments.
    pub fn budget_after(mut self, segments: usize, bytes: usize) -> Builder {
        self.later = Some((segments, bytes.max(1)));
        self
    }

    /// What the builder holds before it writes the segment under way.
    fn budget_now(&self) -> usize {
        match self.later {
            Some((_, bytes)) if self.on_later_budget() => bytes,
            _ => self.budget,
        }
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
        let text: usize = fields.iter().map(|f| f.len()).sum();
        if text > MAX_DOCUMENT_BYTES {
            return Err(TextError::DocumentTooLarge { row, bytes: text, most: MAX_DOCUMENT_BYTES });
        }
        // Each token of a document takes a byte and a separator, so it brings at most that many new terms.
        if self.memory() >= self.budget_now()
            || self.terms.len() + text / 2 + 1 >= MAX_TERMS
            || self.rows.len() >= u32::MAX as usize
        {
            self.write_segment()?;
        }
        self.last_row = Some(row);
        let doc = ((self.rows.len() - self.batch_start) as u64) << DOC_SHIFT;
        self.rows.push(row);
        let mut size = [0u32; 3];
        for (field, text) in fields.iter().enumerate() {
            let field_bits = doc | (field as u64) << FIELD_SHIFT;
            let mut tokens = Tokens::new(text);
            while let Some((position, term, head)) = tokens.next_token_and_head() {
                let id = self.terms.intern_with_head(term, head);
                self.batch.push(u64::from(id) << TERM_SHIFT | field_bits | u64::from(position));
                size[field] = position + 1;
            }
        }
        self.sizes.push(size);
        if self.rows.len() - self.batch_start >= BATCH_DOCS || self.batch.len() >= BATCH_RECORDS {
            self.write_batch();
        }
        Ok(())
    }

    /// Sorts the batch's records by term and writes them into the terms' postings.
    fn write_batch(&mut self) {
        if self.postings.len() < self.terms.len() {
            self.postings.resize_with(self.terms.len(), TermPostings::default);
        }
        sort_by_term(&mut self.batch, &mut self.scratch, self.terms.len());
        let rows = &self.rows[self.batch_start..];
        let mut at = 0;
        while at < self.batch.len() {
            let id = (self.batch[at] >> TERM_SHIFT) as usize;
            let end = at
                + self.batch[at..]
                    .iter()
                    .position(|&r| (r >> TERM_SHIFT) as usize != id)
                    .unwrap_or(self.batch.len() - at);
            let term = &mut self.postings[id];
            let before = term.docs.len() + term.positions.len();
            add_records(term, &self.batch[at..end], rows);
            self.bytes += term.docs.len() + term.positions.len() - before;
            at = end;
        }
        self.batch.clear();
        self.batch_start = self.rows.len();
    }

    /// About the memory the documents held take: their postings (with what growing buffers leave unused),
    /// their terms, their sizes and the batch.
    fn memory(&self) -> usize {
        self.bytes
            + self.bytes / 2
            + self.terms.memory()
            + self.postings.len() * 64
            + self.rows.len() * 20
            + self.batch.len() * 16
    }

    /// Whether the builder holds the later budget of [`Builder::budget_after`] now, having written its segments.
    pub fn on_later_budget(&self) -> bool {
        self.later.is_some_and(|(segments, _)| self.written.len() >= segments)
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
        self.write_batch();
        let id = self.ids.fetch_add(1, Ordering::Relaxed);
        let mut writer = SegmentWriter::create(&self.dir, id)?;
        let mut order: Vec<u32> = (0..self.terms.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| self.terms.term(a).cmp(self.terms.term(b)));
        for id in order {
            let term = &self.postings[id as usize];
            writer.add_term(self.terms.term(id), term.count, term.last_row, &term.docs, &term.positions)?;
        }
        let segment = writer.finish(&self.rows, &self.sizes)?;
        self.written.push(segment);
        self.terms = Interner::default();
        self.postings = Vec::new();
        self.rows = Vec::new();
        self.sizes = Vec::new();
        self.batch_start = 0;
        self.bytes = 0;
        Ok(())
    }

    /// Writes what is held and returns every segment this builder wrote, in the order written.
    pub fn finish(mut self) -> Result<Vec<NewSegment>, TextError> {
        self.write_segment()?;
        Ok(std::mem::take(&mut self.written))
    }
}

/// Sorts `records` by their term (stable: each term's records keep their order), `terms` being above every term
/// number in them; `scratch` is memory to sort through. A radix sort of 8 bits a pass (so that the places each
/// pass writes to stay in the processor's first cache), the counts of every pass taken in one read.
fn sort_by_term(records: &mut Vec<u64>, scratch: &mut Vec<u64>, terms: usize) {
    const DIGIT: u32 = 8;
    const BUCKETS: usize = 1 << DIGIT;
    const MASK: u64 = BUCKETS as u64 - 1;
    let passes = (usize::BITS - terms.leading_zeros()).div_ceil(DIGIT).max(1) as usize;
    scratch.resize(records.len(), 0);
    let mut counts = vec![[0usize; BUCKETS]; passes];
    for &r in records.iter() {
        let term = r >> TERM_SHIFT;
        for (pass, count) in counts.iter_mut().enumerate() {
            count[(term >> (pass as u32 * DIGIT) & MASK) as usize] += 1;
        }
    }
    for (pass, starts) in counts.iter_mut().enumerate() {
        let mut sum = 0;
        for s in starts.iter_mut() {
            let count = *s;
            *s = sum;
            sum += count;
        }
        let shift = TERM_SHIFT + pass as u32 * DIGIT;
        let (from, to) = (&records[..], &mut scratch[..]);
        for &r in from {
            let slot = &mut starts[(r >> shift & MASK) as usize];
            to[*slot] = r;
            *slot += 1;
        }
        std::mem::swap(records, scratch);
    }
}

/// Writes one term's `records` of a batch (in document, field and position order) into its postings; `rows`
/// are the batch's documents' rows.
#[inline]
fn add_records(term: &mut TermPostings, records: &[u64], rows: &[u64]) {
    let (mut docs, mut positions) = (std::mem::take(&mut term.docs), std::mem::take(&mut term.positions));
    let (mut count, mut last_row) = (term.count, term.last_row);
    let mut k = 0;
    while k < records.len() {
        let doc = records[k] >> DOC_SHIFT;
        let row = rows[doc as usize & (BATCH_DOCS - 1)];
        let mut tf = [0u32; 3];
        let mut field = usize::MAX;
        let mut last = 0u64;
        while k < records.len() && records[k] >> DOC_SHIFT == doc {
            let r = records[k];
            let f = (r >> FIELD_SHIFT) as usize & 3;
            let position = r & ((1 << POSITION_BITS) - 1);
            put(&mut positions, if f == field { position - last } else { position });
            field = f;
            last = position;
            tf[f] += 1;
            k += 1;
        }
        let delta = if count == 0 {
            put(&mut docs, row);
            0
        } else {
            row - last_row
        };
        let mask = u64::from(tf[0] > 0) | u64::from(tf[1] > 0) << 1 | u64::from(tf[2] > 0) << 2;
        put(&mut docs, delta << 3 | mask);
        for t in tf {
            if t > 0 {
                put(&mut docs, u64::from(t - 1));
            }
        }
        count += 1;
        last_row = row;
    }
    (term.docs, term.positions, term.count, term.last_row) = (docs, positions, count, last_row);
}

/// Appends `value` as a varint; one or two bytes (nearly every position and frequency) without a branch that
/// depends on which.
#[inline(always)]
fn put(out: &mut Vec<u8>, value: u64) {
    if value < 1 << 14 {
        let long = u8::from(value >= 0x80);
        out.extend_from_slice(&[(value as u8 & 0x7f) | long << 7, (value >> 7) as u8]);
        out.truncate(out.len() - 1 + usize::from(long));
    } else {
        varint::put(out, value);
    }
}

//! An open segment: its footer, blocks' index and documents' sizes in memory, checked when it is opened; its
//! dictionary blocks, postings and positions read from the file with positioned reads when a query needs
//! them, each checked against its checksum before anything of it is used.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::dictionary::{read_block, read_index, BlockRef, Entry, TermInfo};
use crate::error::{Corrupt, TextError};
use crate::format::{crc, Footer, FOOTER_LEN, HEADER_LEN, SEGMENT_MAGIC, SEGMENT_VERSION};
use crate::varint::Bytes;

/// An open segment file.
#[derive(Debug)]
pub(crate) struct Segment {
    pub id: u64,
    pub path: PathBuf,
    file: File,
    footer: Footer,
    blocks: Vec<BlockRef>,
    /// Its documents' rows, increasing.
    pub rows: Vec<u64>,
    /// Per document (as in `rows`), the tokens of each field.
    pub sizes: Vec<[u32; 3]>,
}

impl Segment {
    /// Opens the file of segment `id` at `path`, checking its header, footer, blocks' index and sizes.
    pub(crate) fn open(path: &Path, id: u64) -> Result<Segment, TextError> {
        let file = File::open(path).map_err(TextError::io("open", path))?;
        let len = file.metadata().map_err(TextError::io("read", path))?.len();
        if len < HEADER_LEN + FOOTER_LEN {
            return Err(TextError::damaged(path, "it is too short to be a segment"));
        }
        let mut header = [0u8; HEADER_LEN as usize];
        read_exact_at(&file, path, &mut header, 0)?;
        if header[..8] != SEGMENT_MAGIC {
            return Err(TextError::damaged(path, "it does not start as a segment does"));
        }
        let mut footer = vec![0u8; FOOTER_LEN as usize];
        read_exact_at(&file, path, &mut footer, len - FOOTER_LEN)?;
        let footer = Footer::decode(&header, &footer).map_err(|c| c.at(path))?;
        let version = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
        if version != SEGMENT_VERSION {
            return Err(TextError::Version { path: path.to_owned(), found: version, expected: SEGMENT_VERSION });
        }
        if footer.file_len() != Some(len) || footer.postings_at != HEADER_LEN || footer.id != id {
            return Err(TextError::damaged(path, "its length or name is not what its footer says"));
        }
        let index = read_checked(&file, path, footer.index_at(), footer.index_len, footer.index_crc)?;
        let blocks = read_index(&index, footer.dictionary_at(), footer.dictionary_len).map_err(|c| c.at(path))?;
        let table = read_checked(&file, path, footer.sizes_at(), footer.sizes_len, footer.sizes_crc)?;
        let (rows, sizes) = read_sizes(&table, &footer).map_err(|c| c.at(path))?;
        if (blocks.is_empty() && footer.terms != 0) || blocks.len() as u64 > footer.terms {
            return Err(TextError::damaged(path, "its dictionary does not hold the terms its footer counts"));
        }
        Ok(Segment { id, path: path.to_owned(), file, footer, blocks, rows, sizes })
    }

    /// Tokens per field over all its documents.
    pub(crate) fn tokens(&self) -> [u64; 3] {
        self.footer.tokens
    }

    /// Terms in its dictionary.
    pub(crate) fn term_count(&self) -> u64 {
        self.footer.terms
    }

    /// Dictionary blocks.
    pub(crate) fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// The first term of block `b`.
    pub(crate) fn block_first(&self, b: usize) -> Option<&[u8]> {
        self.blocks.get(b).map(|block| &*block.first)
    }

    /// The index of the document `row`, if the segment has it.
    #[inline]
    pub(crate) fn doc_of(&self, row: u64) -> Option<usize> {
        self.rows.binary_search(&row).ok()
    }

    /// The terms of block `b`, read and checked.
    pub(crate) fn block(&self, b: usize) -> Result<Vec<Entry>, TextError> {
        let Some(block) = self.blocks.get(b) else { return Ok(Vec::new()) };
        let len = usize::try_from(block.len).map_err(|_| TextError::damaged(&self.path, "a block is too long"))?;
        let mut bytes = vec![0u8; len];
        read_exact_at(&self.file, &self.path, &mut bytes, block.at)?;
        let postings = (self.footer.postings_at, self.footer.dictionary_at());
        read_block(&bytes, &block.first, postings).map_err(|c| c.at(&self.path))
    }

    /// The block a term would be in: the last whose first term is not above it (`None` before the first).
    pub(crate) fn block_of(&self, term: &[u8]) -> Option<usize> {
        self.blocks.partition_point(|b| &*b.first <= term).checked_sub(1)
    }

    /// What the dictionary says of `term`, if the segment has it.
    pub(crate) fn term(&self, term: &[u8]) -> Result<Option<TermInfo>, TextError> {
        let Some(b) = self.block_of(term) else { return Ok(None) };
        let terms = self.block(b)?;
        Ok(terms.binary_search_by(|(t, _)| (**t).cmp(term)).ok().map(|i| terms[i].1))
    }

    /// Every term starting with `prefix`, in order, with what the dictionary says of it.
    pub(crate) fn terms_with_prefix(&self, prefix: &[u8]) -> Result<Vec<Entry>, TextError> {
        let mut out = Vec::new();
        let start = self.block_of(prefix).unwrap_or(0);
        let mut b = start;
        while b < self.blocks.len() {
            // A later block whose first term does not start with the prefix is past every term that does.
            if b > start && !self.blocks[b].first.starts_with(prefix) {
                break;
            }
            let terms = self.block(b)?;
            out.extend(terms.into_iter().filter(|(t, _)| t.starts_with(prefix)));
            b += 1;
        }
        Ok(out)
    }

    /// A term's documents' bytes, checked.
    pub(crate) fn docs(&self, info: &TermInfo) -> Result<Vec<u8>, TextError> {
        self.read_part(info.at, info.docs_len, info.docs_crc, "a term's documents")
    }

    /// A term's positions' bytes, checked.
    pub(crate) fn positions(&self, info: &TermInfo) -> Result<Vec<u8>, TextError> {
        self.read_part(info.positions_at(), info.positions_len, info.positions_crc, "a term's positions")
    }

    fn read_part(&self, at: u64, len: u64, sum: u32, what: &str) -> Result<Vec<u8>, TextError> {
        let len = usize::try_from(len).map_err(|_| TextError::damaged(&self.path, format!("{what} is too long")))?;
        let mut bytes = vec![0u8; len];
        read_exact_at(&self.file, &self.path, &mut bytes, at)?;
        if crc(&bytes) != sum {
            return Err(TextError::damaged(&self.path, format!("{what} does not match its checksum")));
        }
        Ok(bytes)
    }

    /// The corrupt-bytes error of this segment's file.
    pub(crate) fn corrupt(&self, c: Corrupt) -> TextError {
        c.at(&self.path)
    }
}

/// Reads a segment's postings in the order they lie in the file (as a merge reads them), in large reads.
pub(crate) struct SequentialReader<'a> {
    segment: &'a Segment,
    buf: Vec<u8>,
    /// Where in the file `buf` starts.
    buf_at: u64,
}

/// The bytes a sequential reader reads at once, at least.
const CHUNK: u64 = 1 << 20;

impl<'a> SequentialReader<'a> {
    pub(crate) fn new(segment: &'a Segment) -> SequentialReader<'a> {
        SequentialReader { segment, buf: Vec::new(), buf_at: 0 }
    }

    /// A term's documents' and positions' bytes, checked.
    pub(crate) fn postings(&mut self, info: &TermInfo) -> Result<(&[u8], &[u8]), TextError> {
        let path = &self.segment.path;
        let too_long = || TextError::damaged(path, "a term's postings are too long");
        let len = info.docs_len.checked_add(info.positions_len).ok_or_else(too_long)?;
        let end = self.segment.footer.dictionary_at();
        if info.at < self.buf_at || info.at + len > self.buf_at + self.buf.len() as u64 {
            let want = len.max(CHUNK).min(end.saturating_sub(info.at)).max(len);
            self.buf.resize(usize::try_from(want).map_err(|_| too_long())?, 0);
            read_exact_at(&self.segment.file, path, &mut self.buf, info.at)?;
            self.buf_at = info.at;
        }
        let start = (info.at - self.buf_at) as usize;
        let (docs, positions) = self.buf[start..start + len as usize].split_at(info.docs_len as usize);
        if crc(docs) != info.docs_crc || crc(positions) != info.positions_crc {
            return Err(TextError::damaged(path, "a term's postings do not match their checksums"));
        }
        Ok((docs, positions))
    }
}

/// Reads exactly `buf.len()` bytes of `file` at `at`; a file cut short is a damaged one.
fn read_exact_at(file: &File, path: &Path, buf: &mut [u8], at: u64) -> Result<(), TextError> {
    file.read_exact_at(buf, at).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => TextError::damaged(path, "it is cut short"),
        _ => TextError::io("read", path)(e),
    })
}

/// `len` bytes of `file` at `at`, checked against `sum`.
fn read_checked(file: &File, path: &Path, at: u64, len: u64, sum: u32) -> Result<Vec<u8>, TextError> {
    let len = usize::try_from(len).map_err(|_| TextError::damaged(path, "a part is too long"))?;
    let mut bytes = vec![0u8; len];
    read_exact_at(file, path, &mut bytes, at)?;
    if crc(&bytes) != sum {
        return Err(TextError::damaged(path, "its index or its documents' sizes do not match their checksum"));
    }
    Ok(bytes)
}

/// The documents' rows and sizes from their table, checked against the footer's counts.
fn read_sizes(table: &[u8], footer: &Footer) -> Result<(Vec<u64>, Vec<[u32; 3]>), Corrupt> {
    let mut r = Bytes::new(table);
    let count = r.len()?;
    if count as u64 != footer.docs {
        return Err(Corrupt("its documents' sizes are not as many as its documents"));
    }
    let (mut rows, mut sizes) = (Vec::with_capacity(count), Vec::with_capacity(count));
    let mut row = 0u64;
    let mut tokens = [0u64; 3];
    for k in 0..count {
        let delta = r.varint()?;
        if k > 0 && delta == 0 {
            return Err(Corrupt("its documents are out of order"));
        }
        row = row.checked_add(delta).ok_or(Corrupt("a row is too large"))?;
        let mut size = [0u32; 3];
        for (f, s) in size.iter_mut().enumerate() {
            *s = r.varint_u32()?;
            tokens[f] += u64::from(*s);
        }
        rows.push(row);
        sizes.push(size);
    }
    if !r.is_empty() || tokens != footer.tokens {
        return Err(Corrupt("its documents' sizes do not add up to its totals"));
    }
    Ok((rows, sizes))
}

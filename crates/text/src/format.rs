//! The layout of a segment file (docs/text-index.md, "Segment files"): a header, the postings, the dictionary's
//! blocks, the blocks' index, the documents' sizes and a footer that says where each part is and what its
//! checksum is. Every byte of the file is under a checksum: the header and footer under the footer's, the
//! blocks' index and the sizes under their own (checked when the segment is opened), each dictionary block
//! under its own (checked when it is read), and each term's postings and positions under the checksums its
//! dictionary entry holds (checked when they are read).

use crate::error::Corrupt;
use crate::varint::Bytes;

/// The first eight bytes of a segment file, and its last eight.
pub(crate) const SEGMENT_MAGIC: [u8; 8] = *b"STXTSEG1";
/// The version of the segment format this program writes and reads.
pub(crate) const SEGMENT_VERSION: u32 = 1;
/// The header: the magic and the version, then four bytes kept at zero.
pub(crate) const HEADER_LEN: u64 = 16;
/// The footer, whose size is fixed.
pub(crate) const FOOTER_LEN: u64 = 8 * 11 + 4 * 3 + 8;
/// Terms in one dictionary block.
pub(crate) const BLOCK_TERMS: usize = 64;
/// The largest row number: postings keep a row's distance from the one before with the fields it has in its
/// three low bits.
pub const MAX_ROW: u64 = (1 << 60) - 1;

/// The header's bytes.
pub(crate) fn header() -> [u8; HEADER_LEN as usize] {
    let mut out = [0u8; HEADER_LEN as usize];
    out[..8].copy_from_slice(&SEGMENT_MAGIC);
    out[8..12].copy_from_slice(&SEGMENT_VERSION.to_le_bytes());
    out
}

/// Where the parts of a segment are and what they hold: the footer's content.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Footer {
    pub postings_len: u64,
    pub dictionary_len: u64,
    pub index_len: u64,
    pub sizes_len: u64,
    /// Terms in the dictionary.
    pub terms: u64,
    /// Documents in the segment.
    pub docs: u64,
    /// Tokens per field over every document of the segment.
    pub tokens: [u64; 3],
    /// The postings' offset (always the header's length: the footer says so to be checked).
    pub postings_at: u64,
    /// The segment's id, as its file is named.
    pub id: u64,
    pub index_crc: u32,
    pub sizes_crc: u32,
}

impl Footer {
    /// Where the dictionary's blocks start.
    pub(crate) fn dictionary_at(&self) -> u64 {
        self.postings_at + self.postings_len
    }

    /// Where the blocks' index starts.
    pub(crate) fn index_at(&self) -> u64 {
        self.dictionary_at() + self.dictionary_len
    }

    /// Where the documents' sizes start.
    pub(crate) fn sizes_at(&self) -> u64 {
        self.index_at() + self.index_len
    }

    /// The length of the whole file the footer describes, `None` when the lengths overflow (garbage).
    pub(crate) fn file_len(&self) -> Option<u64> {
        [self.postings_len, self.dictionary_len, self.index_len, self.sizes_len, FOOTER_LEN]
            .iter()
            .try_fold(HEADER_LEN, |sum, &part| sum.checked_add(part))
    }

    /// The footer's bytes, with the checksum of `header` and of the footer itself.
    pub(crate) fn encode(&self, header: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(FOOTER_LEN as usize);
        for word in [
            self.postings_at,
            self.postings_len,
            self.dictionary_len,
            self.index_len,
            self.sizes_len,
            self.terms,
            self.docs,
            self.tokens[0],
            self.tokens[1],
            self.tokens[2],
            self.id,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.index_crc.to_le_bytes());
        out.extend_from_slice(&self.sizes_crc.to_le_bytes());
        let mut crc = crc32fast::Hasher::new();
        crc.update(header);
        crc.update(&out);
        out.extend_from_slice(&crc.finalize().to_le_bytes());
        out.extend_from_slice(&SEGMENT_MAGIC);
        out
    }

    /// The footer in `bytes` (the file's last [`FOOTER_LEN`] bytes), checked against its checksum, which also
    /// covers `header` (the file's first [`HEADER_LEN`] bytes).
    pub(crate) fn decode(header: &[u8], bytes: &[u8]) -> Result<Footer, Corrupt> {
        if bytes.len() != FOOTER_LEN as usize || bytes[bytes.len() - 8..] != SEGMENT_MAGIC {
            return Err(Corrupt("its footer is missing: the file was cut short or is not a segment"));
        }
        let body = &bytes[..bytes.len() - 12];
        let mut crc = crc32fast::Hasher::new();
        crc.update(header);
        crc.update(body);
        let mut r = Bytes::new(&bytes[body.len()..]);
        if r.u32()? != crc.finalize() {
            return Err(Corrupt("its header or footer does not match its checksum"));
        }
        let mut r = Bytes::new(body);
        let mut words = [0u64; 11];
        for w in &mut words {
            *w = r.u64()?;
        }
        let [postings_at, postings_len, dictionary_len, index_len, sizes_len, terms, docs, t0, t1, t2, id] = words;
        Ok(Footer {
            postings_at,
            postings_len,
            dictionary_len,
            index_len,
            sizes_len,
            terms,
            docs,
            tokens: [t0, t1, t2],
            id,
            index_crc: r.u32()?,
            sizes_crc: r.u32()?,
        })
    }
}

/// The checksum of `bytes`.
#[inline]
pub(crate) fn crc(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

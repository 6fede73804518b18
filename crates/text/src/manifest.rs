//! The manifest: which segments of the directory are the index, and each one's deleted rows. It is the index's
//! one point of truth: a segment file it does not name is not part of the index (a build or a merge cut short)
//! and is removed when the index is next opened. It is replaced whole, never changed in place
//! ([`crate::files::replace`]), so that a crash at any moment leaves the one before or the one after.
//!
//! Its bytes: the magic `STXTMAN1`, the format version (four bytes), then as varints its generation (one more
//! at each replacement), the next segment id to give, the number of segments and per segment its id, its
//! documents and the length of its deleted rows (a serialized roaring bitmap of 64-bit rows) followed by them;
//! last the checksum of everything before it.

use std::path::Path;

use roaring::RoaringTreemap;

use crate::error::{Corrupt, TextError};
use crate::format::crc;
use crate::varint::{self, Bytes};

const MAGIC: [u8; 8] = *b"STXTMAN1";
/// The version of the manifest's format this program writes and reads.
const VERSION: u32 = 1;

/// A live segment as the manifest names it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub id: u64,
    pub docs: u64,
    pub deleted: RoaringTreemap,
}

/// The manifest's content.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Manifest {
    pub generation: u64,
    pub next_id: u64,
    pub segments: Vec<Entry>,
}

impl Manifest {
    /// Its bytes.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        varint::put(&mut out, self.generation);
        varint::put(&mut out, self.next_id);
        varint::put(&mut out, self.segments.len() as u64);
        let mut deleted = Vec::new();
        for entry in &self.segments {
            varint::put(&mut out, entry.id);
            varint::put(&mut out, entry.docs);
            deleted.clear();
            // Writing into a Vec cannot fail.
            let _ = entry.deleted.serialize_into(&mut deleted);
            varint::put(&mut out, deleted.len() as u64);
            out.extend_from_slice(&deleted);
        }
        let sum = crc(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The manifest in `bytes`, read from the file `path`.
    pub(crate) fn decode(path: &Path, bytes: &[u8]) -> Result<Manifest, TextError> {
        if bytes.len() < MAGIC.len() + 8 || bytes[..MAGIC.len()] != MAGIC {
            return Err(TextError::damaged(path, "it is not a manifest, or it is cut short"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if crc(body).to_le_bytes() != sum {
            return Err(TextError::damaged(path, "it does not match its checksum"));
        }
        let version = u32::from_le_bytes([body[8], body[9], body[10], body[11]]);
        if version != VERSION {
            return Err(TextError::Version { path: path.to_owned(), found: version, expected: VERSION });
        }
        Manifest::decode_body(&body[12..]).map_err(|c| c.at(path))
    }

    fn decode_body(body: &[u8]) -> Result<Manifest, Corrupt> {
        let mut r = Bytes::new(body);
        let generation = r.varint()?;
        let next_id = r.varint()?;
        let count = r.len()?;
        let mut segments: Vec<Entry> = Vec::with_capacity(count.min(body.len()));
        for _ in 0..count {
            let id = r.varint()?;
            let docs = r.varint()?;
            let len = r.len()?;
            let deleted = RoaringTreemap::deserialize_from(r.take(len)?)
                .map_err(|_| Corrupt("a segment's deleted rows do not decode"))?;
            if id >= next_id || deleted.len() > docs || segments.iter().any(|s| s.id == id) {
                return Err(Corrupt("a segment's entry does not hold together"));
            }
            segments.push(Entry { id, docs, deleted });
        }
        if !r.is_empty() {
            return Err(Corrupt("it goes on past its segments"));
        }
        Ok(Manifest { generation, next_id, segments })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_round_trips_and_a_changed_byte_is_refused() {
        let manifest = Manifest {
            generation: 7,
            next_id: 12,
            segments: vec![
                Entry { id: 3, docs: 100, deleted: RoaringTreemap::from_iter([5u64, 1 << 40]) },
                Entry { id: 11, docs: 2, deleted: RoaringTreemap::new() },
            ],
        };
        let bytes = manifest.encode();
        let path = Path::new("manifest");
        assert_eq!(Manifest::decode(path, &bytes).unwrap(), manifest);
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 0x10;
            assert!(Manifest::decode(path, &changed).is_err(), "byte {at} changed");
        }
        for len in 0..bytes.len() {
            assert!(Manifest::decode(path, &bytes[..len]).is_err(), "cut at {len}");
        }
    }
}

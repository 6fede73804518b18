//! A builder's terms, each numbered from 0 in the order first seen: an open-addressing table of 16-byte slots
//! that keep the first 8 bytes of their term and its length, so that finding a term of up to 8 bytes (most
//! words) reads one slot and nothing else; longer terms are compared with their whole bytes, kept one after
//! another in an arena. The table's slots are what the build waits for most: the smaller they are, the more of
//! them stay in the processor's caches.

use crate::tokenizer::head_of;

/// One slot of the table: 16 bytes, four to a cache line.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Slot {
    /// 24 bits of the term's hash, and its length (up to 255) in the high 8 bits.
    tag: u32,
    /// The term's number, [`EMPTY`] for a free slot.
    id: u32,
    /// The term's first 8 bytes, zeros after its end.
    head: u64,
}

const EMPTY: u32 = u32::MAX;
const FREE: Slot = Slot { tag: 0, id: EMPTY, head: 0 };
const K: u64 = 0x9e37_79b9_7f4a_7c15;

/// The hash of a term whose first 8 bytes are `head`.
#[inline]
fn hash(term: &[u8], head: u64) -> u64 {
    let mut h = (head ^ (term.len() as u64).wrapping_mul(K)).wrapping_mul(K);
    if let Some(rest) = term.get(8..) {
        let mut chunks = rest.chunks_exact(8);
        for chunk in chunks.by_ref() {
            let word =
                u64::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]]);
            h = (h.rotate_left(26) ^ word).wrapping_mul(K);
        }
        if !chunks.remainder().is_empty() {
            h = (h.rotate_left(26) ^ head_of(chunks.remainder())).wrapping_mul(K);
        }
    }
    h ^ (h >> 29)
}

/// The tag of a term of `len` bytes and hash `h`.
#[inline]
fn tag_of(h: u64, len: usize) -> u32 {
    ((h >> 40) as u32) | (len.min(255) as u32) << 24
}

/// The terms of a builder, numbered.
pub(crate) struct Interner {
    slots: Vec<Slot>,
    /// Every term's bytes, one after another.
    arena: Vec<u8>,
    /// Per term number, where its bytes start in the arena.
    starts: Vec<usize>,
}

impl Default for Interner {
    fn default() -> Self {
        Interner { slots: vec![FREE; 1 << 12], arena: Vec::new(), starts: Vec::new() }
    }
}

impl Interner {
    /// Terms numbered.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The bytes of term `id`.
    #[inline]
    pub(crate) fn term(&self, id: u32) -> &[u8] {
        let start = self.starts[id as usize];
        let end = self.starts.get(id as usize + 1).copied().unwrap_or(self.arena.len());
        &self.arena[start..end]
    }

    /// Memory the table and the terms take.
    pub(crate) fn memory(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() + self.arena.capacity() + self.starts.capacity() * 8
    }

    /// The number of `term`, numbering it if it is new.
    #[inline]
    #[cfg(test)]
    pub(crate) fn intern(&mut self, term: &[u8]) -> u32 {
        self.intern_with_head(term, head_of(term))
    }

    /// The number of `term`, whose first 8 bytes are `head` (as [`head_of`] makes them), numbering it if it is
    /// new.
    #[inline]
    pub(crate) fn intern_with_head(&mut self, term: &[u8], head: u64) -> u32 {
        let h = hash(term, head);
        let tag = tag_of(h, term.len());
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        loop {
            let slot = &self.slots[at];
            if slot.id == EMPTY {
                break;
            }
            if slot.tag == tag && slot.head == head && (term.len() <= 8 || self.term(slot.id) == term) {
                return slot.id;
            }
            at = (at + 1) & mask;
        }
        let id = self.starts.len() as u32;
        self.starts.push(self.arena.len());
        self.arena.extend_from_slice(term);
        self.slots[at] = Slot { tag, id, head };
        if self.starts.len() * 2 > self.slots.len() {
            self.grow();
        }
        id
    }

    /// Twice the slots, every term put in again.
    fn grow(&mut self) {
        let doubled = vec![FREE; self.slots.len() * 2];
        let slots = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for slot in slots.into_iter().filter(|s| s.id != EMPTY) {
            let h = hash(self.term(slot.id), slot.head);
            let mut at = h as usize & mask;
            while self.slots[at].id != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_numbered_once_each() {
        let mut interner = Interner::default();
        let long = "a-term-longer-than-eight-bytes";
        let words: Vec<String> = (0..10_000).map(|i| format!("{}{i}", if i % 3 == 0 { long } else { "w" })).collect();
        for (i, w) in words.iter().enumerate() {
            assert_eq!(interner.intern(w.as_bytes()), i as u32);
        }
        for (i, w) in words.iter().enumerate().rev() {
            assert_eq!(interner.intern(w.as_bytes()), i as u32);
            assert_eq!(interner.term(i as u32), w.as_bytes());
        }
        assert_eq!(interner.len(), words.len());
        assert_eq!(interner.intern(b""), words.len() as u32, "the empty term is a term");
        let same_head = (format!("{long}0"), format!("{long}00"));
        assert_ne!(interner.intern(same_head.0.as_bytes()), interner.intern(same_head.1.as_bytes()));
    }
}

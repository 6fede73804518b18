//! Visiting the documents of a bitmap in order, a block of 65,536 numbers at a time. roaring's own iterator steps
//! through three nested iterators for each document (5–7 ns a document on the benchmark's machine); a block held
//! as a bitmap is read here a 64-bit word at a time, and one held as a list or as runs straight from its numbers
//! (about 1 ns a document, the copy below included). The blocks are read from the bitmap's portable serialized form
//! (the Roaring format specification, which roaring writes and reads), the one view of its blocks roaring gives;
//! a form this reader does not know is visited through roaring's iterator instead.

use std::ops::{Bound, RangeBounds, RangeInclusive};

use roaring::RoaringBitmap;

/// The first four bytes of a serialized bitmap without run blocks.
const COOKIE_NO_RUNS: u32 = 12346;
/// The low two bytes of the first four of one with run blocks (the high two are the number of blocks less one).
const COOKIE_RUNS: u16 = 12347;
/// Blocks of fewer numbers are written as lists, larger ones as bitmaps (unless marked as runs); one of exactly this
/// many is a list in all but one case ([`ascending`] tells them apart).
const LIST_MAX: usize = 4096;
/// The bytes of a block held as a bitmap.
const BITMAP_BYTES: usize = 8192;
/// With run blocks, the offsets of the blocks are written only from this many blocks on.
const OFFSETS_FROM: usize = 4;

/// How a block's numbers are held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    List,
    Bitmap,
    Runs,
}

/// One block of a serialized bitmap: its high 16 bits, how it is held, and its bytes.
struct Block<'a> {
    key: u32,
    held: Held,
    bytes: &'a [u8],
}

/// Calls `f` with every document of `docs` in `range`, in increasing order.
pub(crate) fn for_each_in(docs: &RoaringBitmap, range: impl RangeBounds<u32>, mut f: impl FnMut(u32)) {
    let Some(range) = inclusive(&range) else { return };
    let mut bytes = Vec::with_capacity(docs.serialized_size());
    let blocks = match docs.serialize_into(&mut bytes) {
        Ok(()) => blocks(&bytes),
        Err(_) => None,
    };
    match blocks {
        Some(blocks) => blocks.iter().for_each(|b| visit(b, &range, &mut f)),
        None => docs.range(range).for_each(f),
    }
}

/// The documents of `docs` in `range`, in increasing order.
pub(crate) fn collect_in(docs: &RoaringBitmap, range: impl RangeBounds<u32>) -> Vec<u32> {
    let Some(range) = inclusive(&range) else { return Vec::new() };
    let mut out = Vec::with_capacity(docs.range_cardinality(range.clone()) as usize);
    for_each_in(docs, range, |d| out.push(d));
    out
}

/// `range` with both ends included; `None` when it holds no number.
fn inclusive(range: &impl RangeBounds<u32>) -> Option<RangeInclusive<u32>> {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.checked_add(1)?,
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e,
        Bound::Excluded(&e) => e.checked_sub(1)?,
        Bound::Unbounded => u32::MAX,
    };
    (start <= end).then_some(start..=end)
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// The blocks of the serialized bitmap `bytes`, each checked to lie within them, the last ending at their end;
/// `None` for anything else.
fn blocks(bytes: &[u8]) -> Option<Vec<Block<'_>>> {
    let first = u32_at(bytes, 0)?;
    let (count, runs, mut at) = if first == COOKIE_NO_RUNS {
        (u32_at(bytes, 4)? as usize, None, 8)
    } else if first as u16 == COOKIE_RUNS {
        let count = (first >> 16) as usize + 1;
        let flags = bytes.get(4..4 + count.div_ceil(8))?;
        (count, Some(flags), 4 + count.div_ceil(8))
    } else {
        return None;
    };
    if 4 * count > bytes.len() {
        return None;
    }
    let descriptions = at;
    at += 4 * count;
    if runs.is_none() || count >= OFFSETS_FROM {
        at += 4 * count;
    }
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let key = u32::from(u16_at(bytes, descriptions + 4 * i)?);
        let numbers = usize::from(u16_at(bytes, descriptions + 4 * i + 2)?) + 1;
        let is_runs = runs.is_some_and(|flags| flags[i / 8] & (1 << (i % 8)) != 0);
        let (held, size) = if is_runs {
            (Held::Runs, 2 + 4 * usize::from(u16_at(bytes, at)?))
        } else if numbers < LIST_MAX || numbers == LIST_MAX && ascending(bytes.get(at..at + 2 * numbers)?) {
            (Held::List, 2 * numbers)
        } else {
            (Held::Bitmap, BITMAP_BYTES)
        };
        out.push(Block { key: key << 16, held, bytes: bytes.get(at..at + size)? });
        at += size;
    }
    (at == bytes.len()).then_some(out)
}

/// Whether the 16-bit numbers of `bytes` rise strictly, as a list's do. A block of exactly [`LIST_MAX`] numbers is
/// written the same size as a list and as a bitmap, and roaring holds one made from bits
/// (`RoaringBitmap::from_lsb0_bytes`) as a bitmap; read as numbers its words cannot rise strictly (4,096 distinct
/// 16-bit numbers have more than 4,096 bits set among them, the bitmap exactly 4,096).
fn ascending(bytes: &[u8]) -> bool {
    let numbers = bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]));
    numbers.clone().zip(numbers.skip(1)).all(|(a, b)| a < b)
}

/// Calls `f` with the numbers of `block` in `range`.
fn visit(block: &Block, range: &RangeInclusive<u32>, f: &mut impl FnMut(u32)) {
    let (low, high) = (block.key, block.key | 0xFFFF);
    if high < *range.start() || low > *range.end() {
        return;
    }
    if *range.start() <= low && high <= *range.end() {
        numbers(block, f);
    } else {
        numbers(block, &mut |n| {
            if range.contains(&n) {
                f(n);
            }
        });
    }
}

/// Calls `f` with every number of `block`.
fn numbers(block: &Block, f: &mut impl FnMut(u32)) {
    let key = block.key;
    match block.held {
        Held::List => block.bytes.chunks_exact(2).for_each(|c| f(key | u32::from(u16::from_le_bytes([c[0], c[1]])))),
        Held::Bitmap => {
            for (w, chunk) in block.bytes.chunks_exact(8).enumerate() {
                let mut word = u64::from_le_bytes([
                    chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
                ]);
                let base = key | (w as u32) << 6;
                while word != 0 {
                    f(base | word.trailing_zeros());
                    word &= word - 1;
                }
            }
        }
        Held::Runs => {
            for run in block.bytes[2..].chunks_exact(4) {
                let start = u32::from(u16::from_le_bytes([run[0], run[1]]));
                let length = u32::from(u16::from_le_bytes([run[2], run[3]]));
                ((key | start)..=(key | (start + length))).for_each(&mut *f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use roaring::RoaringBitmap;

    use super::{blocks, collect_in, for_each_in};

    /// Bitmaps of every kind of block (lists, bitmaps, runs after `optimize`, a full block, blocks far apart, none),
    /// visited whole and in ranges that cut blocks, give what roaring's own iterator gives.
    #[test]
    fn every_kind_of_block_is_visited_as_roaring_iterates_it() {
        // A xorshift generator: the same bitmaps at every run.
        let mut state = 7u64;
        let mut chance = |p: f64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 1_000_000) as f64 / 1_000_000.0 < p
        };
        let mut bitmaps = vec![RoaringBitmap::new(), RoaringBitmap::from_iter([0, 65_535, 65_536, u32::MAX])];
        for density in [0.001, 0.05, 0.3, 0.9] {
            let mut b: RoaringBitmap = (0..400_000u32).filter(|_| chance(density)).collect();
            bitmaps.push(b.clone());
            b.insert_range(70_000..200_000);
            bitmaps.push(b.clone());
            b.optimize();
            bitmaps.push(b);
        }
        let mut runs: RoaringBitmap = (0..5u32).map(|i| i * 1_000_000).collect();
        runs.insert_range(3_000_000..3_065_536);
        runs.optimize();
        bitmaps.push(runs);
        // Blocks of 4,095, 4,096 and 4,097 documents made from bits, which roaring holds as a list, a bitmap and a
        // bitmap (the middle one written the same size as a list).
        let mut bits = vec![0u8; 3 * 8192];
        for (block, count) in [4095usize, 4096, 4097].into_iter().enumerate() {
            for i in 0..count {
                let doc = block * 65_536 + i * 13;
                bits[doc / 8] |= 1 << (doc % 8);
            }
        }
        bitmaps.push(RoaringBitmap::from_lsb0_bytes(0, &bits));
        // Fewer than four blocks with runs: their offsets are not written.
        let mut few = RoaringBitmap::new();
        few.insert_range(10..100_000);
        few.optimize();
        bitmaps.push(few);
        for b in &bitmaps {
            let mut bytes = Vec::new();
            b.serialize_into(&mut bytes).unwrap();
            assert!(blocks(&bytes).is_some(), "{} documents: read here, not through roaring's iterator", b.len());
            let ranges = [0..u32::MAX, 1..65_537, 65_535..131_072, 100_000..100_001, 150_000..350_123, 5..5];
            for range in ranges {
                let want: Vec<u32> = b.range(range.clone()).collect();
                let mut got = Vec::new();
                for_each_in(b, range.clone(), |d| got.push(d));
                assert_eq!(got, want, "{} documents in {range:?}", b.len());
                assert_eq!(collect_in(b, range.clone()), want);
            }
            let mut whole = Vec::new();
            for_each_in(b, .., |d| whole.push(d));
            assert_eq!(whole, b.iter().collect::<Vec<u32>>(), "{} documents, every one", b.len());
        }
    }
}

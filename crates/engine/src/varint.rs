//! SQLite's varints, as FTS5's shadow tables hold their counts (the sizes of a row, the averages record).

/// One SQLite varint (big-endian groups of 7 bits, the ninth byte whole) and the bytes it took.
#[inline]
pub(crate) fn sqlite_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().take(9).enumerate() {
        if i == 8 {
            return Some(((value << 8) | u64::from(b), 9));
        }
        value = (value << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

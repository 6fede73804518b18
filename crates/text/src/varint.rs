//! Variable-length numbers (LEB128: 7 bits a byte, least significant group first, the high bit saying that
//! another byte follows) and a reader of the index's bytes that never reads past its end.

use crate::error::Corrupt;

/// Appends `value` to `out` in as few bytes as it takes (1 for values below 128, at most 10).
#[inline]
pub(crate) fn put(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a buffer of the index: numbers, fixed-size words and byte strings, each failing with [`Corrupt`]
/// instead of reading past the end.
#[derive(Debug, Clone)]
pub(crate) struct Bytes<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Bytes<'a> {
        Bytes { buf, at: 0 }
    }

    /// Where the next read starts.
    #[inline]
    pub(crate) fn offset(&self) -> usize {
        self.at
    }

    /// The bytes from `start` (an offset already read past) to where the next read starts.
    #[inline]
    pub(crate) fn since(&self, start: usize) -> &'a [u8] {
        &self.buf[start.min(self.at)..self.at]
    }

    /// The bytes not read yet; all read after.
    #[inline]
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        let rest = &self.buf[self.at.min(self.buf.len())..];
        self.at = self.buf.len();
        rest
    }

    /// True when everything was read.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.at >= self.buf.len()
    }

    /// The next variable-length number.
    #[inline]
    pub(crate) fn varint(&mut self) -> Result<u64, Corrupt> {
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let Some(&b) = self.buf.get(self.at) else { return Err(Corrupt("a number runs past its end")) };
            self.at += 1;
            if shift == 63 && b > 1 {
                return Err(Corrupt("a number is too large"));
            }
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
            if shift > 63 {
                return Err(Corrupt("a number is too long"));
            }
        }
    }

    /// The next variable-length number, which must fit in a `u32`.
    #[inline]
    pub(crate) fn varint_u32(&mut self) -> Result<u32, Corrupt> {
        u32::try_from(self.varint()?).map_err(|_| Corrupt("a count is too large"))
    }

    /// The next variable-length number as a length or count of things in this buffer's file.
    #[inline]
    pub(crate) fn len(&mut self) -> Result<usize, Corrupt> {
        usize::try_from(self.varint()?).map_err(|_| Corrupt("a length is too large"))
    }

    /// Skips `count` variable-length numbers without decoding them.
    #[inline]
    pub(crate) fn skip_varints(&mut self, mut count: u64) -> Result<(), Corrupt> {
        // Eight bytes at a time while more numbers are left than eight bytes can end: the bytes without the
        // high bit each end one, and a number cut at the eighth byte is among those still left.
        while count > 8 {
            let Some(chunk) = self.buf.get(self.at..self.at + 8) else { break };
            let word =
                u64::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]]);
            count -= u64::from((!word & 0x8080_8080_8080_8080).count_ones());
            self.at += 8;
        }
        while count > 0 {
            let Some(&b) = self.buf.get(self.at) else { return Err(Corrupt("numbers run past their end")) };
            self.at += 1;
            if b & 0x80 == 0 {
                count -= 1;
            }
        }
        Ok(())
    }

    /// The next `n` bytes.
    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Corrupt> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.buf.len()).ok_or(Corrupt("bytes run past their end"))?;
        let out = &self.buf[self.at..end];
        self.at = end;
        Ok(out)
    }

    /// The next four bytes as a little-endian number.
    #[inline]
    pub(crate) fn u32(&mut self) -> Result<u32, Corrupt> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The next eight bytes as a little-endian number.
    #[inline]
    pub(crate) fn u64(&mut self) -> Result<u64, Corrupt> {
        let b = self.take(8)?;
        let mut word = [0u8; 8];
        word.copy_from_slice(b);
        Ok(u64::from_le_bytes(word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_bad_bytes_are_refused() {
        let values = [0u64, 1, 127, 128, 300, 16_383, 16_384, u32::MAX as u64, u64::MAX - 1, u64::MAX];
        let mut buf = Vec::new();
        for v in values {
            put(&mut buf, v);
        }
        let mut bytes = Bytes::new(&buf);
        for v in values {
            assert_eq!(bytes.varint(), Ok(v));
        }
        assert!(bytes.is_empty());
        assert!(Bytes::new(&[0x80]).varint().is_err(), "a number cut short");
        assert!(Bytes::new(&[0xff; 11]).varint().is_err(), "a number of eleven bytes");
        assert!(Bytes::new(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]).varint().is_err());
        let mut skip = Bytes::new(&buf);
        skip.skip_varints(values.len() as u64).unwrap();
        assert!(skip.is_empty());
        assert!(Bytes::new(&buf).skip_varints(values.len() as u64 + 1).is_err());
    }
}

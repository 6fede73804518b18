//! The tokenizer of the index and of its queries: SQLite FTS5's `unicode61` with `remove_diacritics 2`, in Rust,
//! on SQLite's own Unicode tables ([`crate::unicode_tables`]), so that the index holds exactly the terms FTS5's
//! index held for the same text.
//!
//! A token starts at a letter (any `L*` category), a number (`N*`), a private-use character (`Co`) or a code
//! point the tables do not assign, and goes on over those and over the combining diacritics SQLite lists (most
//! of U+0300–U+0331); everything else separates tokens. Each character is folded to lower case and Latin
//! letters lose their diacritics (`É` → `e`; `ł`, `ø` and `ß` stay, being letters of their own). A token is a
//! term of at most [`MAX_TERM_BYTES`] bytes (longer ones are cut there, as FTS5 cuts them). The n-th token of a
//! field is at position n, counting from 0.
//!
//! What follows SQLite's tables also keeps their age: FTS5's categories are those of an older Unicode, and
//! the marks that Indic scripts write vowels with (`Mc`, `Mn`) separate tokens, so "हिन्दी" is three terms, as
//! it was in FTS5's index (docs/text-index.md).

use crate::unicode_tables::{BLOCK, DATA, DIACRITIC_BASE, DIACRITIC_RANGES, FOLD, FOLD_OFFSET, MAP};

/// The longest term, in bytes: FTS5's `FTS5_MAX_TOKEN_SIZE`. Longer tokens are cut to it (in the index and in
/// queries alike, so that they still match).
pub const MAX_TERM_BYTES: usize = 32768;

/// The ASCII characters that belong to tokens: letters and digits.
const ASCII_TOKEN: [bool; 128] = {
    let mut table = [false; 128];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric();
        c += 1;
    }
    table
};

/// What a byte is to the tokenizer's fast path: an ASCII separator, a lower-case ASCII letter or digit, an
/// upper-case ASCII letter, or a byte of a character beyond ASCII.
const SEPARATOR: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const BEYOND_ASCII: u8 = 3;
const CLASS: [u8; 256] = {
    let mut table = [BEYOND_ASCII; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        table[b] = if byte.is_ascii_uppercase() {
            UPPER
        } else if byte.is_ascii_alphanumeric() {
            LOWER
        } else {
            SEPARATOR
        };
        b += 1;
    }
    table
};

/// How many of the eight bytes of `word` (little-endian: the first byte lowest), from the first, are lower-case
/// ASCII letters or digits: eight bytes compared at once.
#[inline]
fn lower_run(word: u64) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Each byte's low seven bits, plus a constant below 0x80: no carry into the next byte, and the high bit
    // says whether the byte is at least the constant's complement.
    let low = word & !HIGH;
    let at_least = |c: u8| (low + ONES * (0x80 - u64::from(c))) & HIGH;
    let letter = at_least(b'a') & !at_least(b'z' + 1);
    let digit = at_least(b'0') & !at_least(b'9' + 1);
    let token = (letter | digit) & !word;
    ((!token & HIGH).trailing_zeros() / 8) as usize
}

/// SQLite's general category of a code point (`sqlite3Fts5UnicodeCategory`): 0 for an unassigned code point
/// or one from U+100000 on, 5 and 9 for lower and upper case letters, and so on.
fn category(c: u32) -> u8 {
    if c >= 1 << 20 {
        return 0;
    }
    let plane = (c >> 16) as usize;
    let (mut lo, mut hi) = (usize::from(BLOCK[plane]), usize::from(BLOCK[plane + 1]));
    let key = (c & 0xffff) as u16;
    let mut found = None;
    while hi > lo {
        let test = (hi + lo) / 2;
        if key >= MAP[test] {
            found = Some(test);
            lo = test + 1;
        } else {
            hi = test;
        }
    }
    let Some(run) = found else { return 0 };
    if u32::from(key) >= u32::from(MAP[run]) + u32::from(DATA[run] >> 5) {
        return 0;
    }
    match (DATA[run] & 0x1f) as u8 {
        30 if (key - MAP[run]) & 1 == 1 => 5,
        30 => 9,
        category => category,
    }
}

/// True for a character a token can start with (and go on over): FTS5's `L* N* Co` and unassigned code points.
#[inline]
fn is_alnum(c: u32) -> bool {
    if c < 128 {
        return ASCII_TOKEN[c as usize];
    }
    // SQLite reads U+FFFE and U+FFFF as U+FFFD, a symbol.
    if c == 0xfffe || c == 0xffff {
        return false;
    }
    matches!(category(c), 0 | 5 | 6 | 7 | 8 | 9 | 13 | 14 | 15 | 30 | 31)
}

/// True for the combining diacritics a token goes on over (`sqlite3Fts5UnicodeIsdiacritic`).
#[inline]
fn is_diacritic(c: u32) -> bool {
    const MASK0: u32 = 0x0802_9fdf;
    const MASK1: u32 = 0x0003_61f8;
    match c {
        768..=799 => MASK0 & (1 << (c - 768)) != 0,
        800..=817 => MASK1 & (1 << (c - 800)) != 0,
        _ => false,
    }
}

/// The Latin letter `c` stands for without its diacritic, or `c` itself; 0 for a diacritic alone
/// (`fts5_remove_diacritic` with its complex folds, which `remove_diacritics 2` asks for).
fn remove_diacritic(c: u32) -> u32 {
    let key = (c << 3) | 7;
    let range = DIACRITIC_RANGES.partition_point(|&start| u32::from(start) <= key).saturating_sub(1);
    let start = u32::from(DIACRITIC_RANGES[range]);
    if c > (start >> 3) + (start & 7) {
        c
    } else {
        u32::from(DIACRITIC_BASE[range] & 0x7f)
    }
}

/// `c` folded as FTS5 folds it (`sqlite3Fts5UnicodeFold` with diacritics removed): lower case, then without
/// diacritics; 0 when nothing is left.
fn fold(c: u32) -> u32 {
    if c < 128 {
        return if (b'A' as u32..=b'Z' as u32).contains(&c) { c + 32 } else { c };
    }
    if c < 65536 {
        let rule = FOLD.partition_point(|&(start, _, _)| u32::from(start) <= c).saturating_sub(1);
        let (start, flags, length) = FOLD[rule];
        let (start, flags) = (u32::from(start), u32::from(flags));
        let mut folded = c;
        if c < start + u32::from(length) && (flags & 1 & (start ^ c)) == 0 {
            folded = (c + u32::from(FOLD_OFFSET[(flags >> 1) as usize])) & 0xffff;
        }
        return remove_diacritic(folded);
    }
    if (66560..66600).contains(&c) {
        return c + 40;
    }
    c
}

/// Appends the UTF-8 bytes of the code point `c` (a folded one, so below U+110000) to `out`.
fn put_utf8(out: &mut Vec<u8>, c: u32) {
    match char::from_u32(c) {
        Some(ch) => {
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
        // A surrogate cannot come out of the fold tables; written as SQLite would write it.
        None => {
            out.extend_from_slice(&[0xe0 | (c >> 12) as u8, 0x80 | ((c >> 6) & 0x3f) as u8, 0x80 | (c & 0x3f) as u8])
        }
    }
}

/// The first eight bytes of `term` as a little-endian number, zeros after its end.
#[inline]
pub(crate) fn head_of(term: &[u8]) -> u64 {
    match term.first_chunk::<8>() {
        Some(first) => u64::from_le_bytes(*first),
        None => term.iter().rev().fold(0, |head, &b| head << 8 | u64::from(b)),
    }
}

/// True for characters that belong to a token: those a token starts with and the diacritics it goes on over.
pub fn is_token_char(c: char) -> bool {
    is_alnum(c as u32) || is_diacritic(c as u32)
}

/// True when `text` holds at least one token.
pub fn has_token(text: &str) -> bool {
    text.chars().any(|c| is_alnum(c as u32))
}

/// The tokens of a text, in order, with their positions: `next_token` gives each folded term in turn.
pub struct Tokens<'a> {
    text: &'a str,
    at: usize,
    position: u32,
    folded: Vec<u8>,
}

impl<'a> Tokens<'a> {
    /// The tokens of `text`.
    pub fn new(text: &'a str) -> Tokens<'a> {
        Tokens { text, at: 0, position: 0, folded: Vec::new() }
    }

    /// The next token: its position (0 for the first token of the text) and its term.
    #[inline]
    pub fn next_token(&mut self) -> Option<(u32, &[u8])> {
        self.next_token_and_head().map(|(position, term, _)| (position, term))
    }

    /// The next token, with its term's first eight bytes as a little-endian number (zeros after its end), which
    /// the tokenizer has at hand and a builder's table of terms compares.
    #[inline]
    pub(crate) fn next_token_and_head(&mut self) -> Option<(u32, &[u8], u64)> {
        let bytes = self.text.as_bytes();
        let len = bytes.len();
        let mut at = self.at;
        // Separators.
        let start = loop {
            while at < len && CLASS[usize::from(bytes[at])] == SEPARATOR {
                at += 1;
            }
            if at >= len {
                self.at = at;
                return None;
            }
            if bytes[at] < 0x80 {
                break at;
            }
            let c = self.char_at(at);
            if is_alnum(c as u32) {
                break at;
            }
            at += c.len_utf8();
        };
        // Plain lower-case ASCII letters and digits are their own term: no copy.
        let mut end = start;
        let mut first_word = None;
        loop {
            match bytes.get(end..end + 8) {
                Some(word) => {
                    let word =
                        u64::from_le_bytes([word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7]]);
                    first_word.get_or_insert(word);
                    let run = lower_run(word);
                    end += run;
                    if run < 8 {
                        break;
                    }
                }
                None => {
                    while end < len && CLASS[usize::from(bytes[end])] == LOWER {
                        end += 1;
                    }
                    break;
                }
            }
        }
        let position = self.position;
        self.position = self.position.saturating_add(1);
        if end >= len || CLASS[usize::from(bytes[end])] == SEPARATOR {
            self.at = end;
            let term = &bytes[start..end];
            let head = match first_word {
                Some(word) if term.len() < 8 => word & ((1 << (8 * term.len())) - 1),
                Some(word) => word,
                None => head_of(term),
            };
            return Some((position, &term[..term.len().min(MAX_TERM_BYTES)], head));
        }
        self.folded.clear();
        self.folded.extend_from_slice(&bytes[start..end]);
        self.at = end;
        while let Some(&b) = bytes.get(self.at) {
            if b < 0x80 {
                if !ASCII_TOKEN[usize::from(b)] {
                    break;
                }
                self.folded.push(b.to_ascii_lowercase());
                self.at += 1;
            } else {
                let c = self.char_at(self.at);
                self.at += c.len_utf8();
                let code = c as u32;
                if !is_alnum(code) && !is_diacritic(code) {
                    break;
                }
                let folded = fold(code);
                if folded != 0 {
                    put_utf8(&mut self.folded, folded);
                }
            }
        }
        let term = &self.folded[..self.folded.len().min(MAX_TERM_BYTES)];
        Some((position, term, head_of(term)))
    }

    /// The character starting at byte `at` (a character boundary below the text's length).
    #[inline]
    fn char_at(&self, at: usize) -> char {
        self.text.get(at..).and_then(|rest| rest.chars().next()).unwrap_or(' ')
    }
}

/// The folded tokens of a text, in order, as strings (a term cut at [`MAX_TERM_BYTES`] in the middle of a
/// character ends with U+FFFD).
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut tokens = Tokens::new(text);
    std::iter::from_fn(move || tokens.next_token().map(|(_, term)| String::from_utf8_lossy(term).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_accents() {
        let t: Vec<String> = tokens("Café-Crème, NAÏVE zoë 42 ﬁ ŒUVRE Straße Łódź Ø Æble").collect();
        assert_eq!(t, ["cafe", "creme", "naive", "zoe", "42", "ﬁ", "œuvre", "straße", "łodz", "ø", "æble"]);
        // The vowel signs and the virama of Devanagari are marks, which separate tokens as in FTS5.
        assert_eq!(tokens("हिन्दी").collect::<Vec<_>>(), ["ह", "न", "द"]);
    }

    #[test]
    fn positions_count_tokens() {
        let mut tokens = Tokens::new("  one, Two;three ");
        let mut seen = Vec::new();
        while let Some((p, t)) = tokens.next_token() {
            seen.push((p, String::from_utf8(t.to_vec()).unwrap()));
        }
        assert_eq!(seen, [(0, "one".to_owned()), (1, "two".to_owned()), (2, "three".to_owned())]);
    }

    #[test]
    fn the_head_given_with_a_token_is_its_first_bytes() {
        let text = "short a bb Longer-words réunion 12345678 123456789 x abcdefgh\u{300}ij verylongwordindeed end";
        let mut tokens = Tokens::new(text);
        let mut seen = 0;
        while let Some((_, term, head)) = tokens.next_token_and_head() {
            assert_eq!(head, head_of(term), "{}", String::from_utf8_lossy(term));
            seen += 1;
        }
        assert_eq!(seen, 12);
    }

    #[test]
    fn long_tokens_are_cut() {
        let long = "a".repeat(MAX_TERM_BYTES + 10);
        let mut tokens = Tokens::new(&long);
        assert_eq!(tokens.next_token().map(|(_, t)| t.len()), Some(MAX_TERM_BYTES));
        assert_eq!(tokens.next_token(), None);
    }
}

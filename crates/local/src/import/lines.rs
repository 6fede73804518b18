//! Reading JSON Lines one line at a time with a cap on the length of a line, so that a file without line
//! breaks cannot make an import hold all of it in memory.

use std::io::{BufRead, Read};

use serde::de::DeserializeOwned;

use super::report::ImportReport;

/// Longest line accepted (16 MiB); a longer one is reported and skipped.
pub(crate) const MAX_LINE: u64 = 16 * 1024 * 1024;

/// One line of input, or why it could not be read as text.
pub(crate) enum Line {
    Text(String),
    TooLong,
    NotUtf8,
}

/// Reads JSON Lines from a `BufRead`, counting lines from 1.
pub(crate) struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    number: u64,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(reader: R) -> Self {
        Lines { reader, buf: Vec::new(), number: 0 }
    }

    /// The next line with its number; `None` at the end of input.
    pub(crate) fn next_line(&mut self) -> std::io::Result<Option<(u64, Line)>> {
        self.buf.clear();
        let n = (&mut self.reader).take(MAX_LINE + 1).read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        if self.buf.len() as u64 > MAX_LINE && self.buf.last() != Some(&b'\n') {
            self.skip_rest()?;
            self.buf = Vec::new();
            return Ok(Some((self.number, Line::TooLong)));
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        let line = match std::str::from_utf8(&self.buf) {
            Ok(s) => Line::Text(s.to_owned()),
            Err(_) => Line::NotUtf8,
        };
        if self.buf.capacity() > 1024 * 1024 {
            self.buf = Vec::new();
        }
        Ok(Some((self.number, line)))
    }

    /// The next non-blank line of text with its number. Lines that cannot be read as text are reported in
    /// `report` and skipped; every thousandth line number goes to `on_progress`. `None` at the end of input.
    pub(crate) fn next_text(
        &mut self,
        report: &mut ImportReport,
        on_progress: &mut dyn FnMut(u64),
    ) -> std::io::Result<Option<(u64, String)>> {
        while let Some((number, line)) = self.next_line()? {
            if number % 1_000 == 0 {
                on_progress(number);
            }
            match line {
                Line::Text(text) if text.trim().is_empty() => {}
                Line::Text(text) => return Ok(Some((number, text))),
                Line::TooLong => report.skip(number, format!("line is longer than {MAX_LINE} bytes")),
                Line::NotUtf8 => report.skip(number, "line is not valid UTF-8".into()),
            }
        }
        Ok(None)
    }

    /// The next line that is a `T` (a JSON object) with a non-blank `key`, with its number. Lines that are not
    /// ("not a {what}: …", "{what} has an empty {key_name}") are reported in `report` and skipped, as
    /// [`Lines::next_text`] does with lines that are not text. `None` at the end of input.
    pub(crate) fn next_record<T: DeserializeOwned>(
        &mut self,
        report: &mut ImportReport,
        on_progress: &mut dyn FnMut(u64),
        (what, key_name): (&str, &str),
        key: impl Fn(&T) -> &str,
    ) -> std::io::Result<Option<(u64, T)>> {
        while let Some((number, text)) = self.next_text(report, on_progress)? {
            match serde_json::from_str::<T>(&text) {
                Ok(record) if key(&record).trim().is_empty() => {
                    report.skip(number, format!("{what} has an empty {key_name}"))
                }
                Ok(record) => return Ok(Some((number, record))),
                Err(e) => report.skip(number, format!("not a {what}: {e}")),
            }
        }
        Ok(None)
    }

    /// The input.
    pub(crate) fn source(&mut self) -> &mut R {
        &mut self.reader
    }

    /// The number of the last line read (0 before the first).
    pub(crate) fn number(&self) -> u64 {
        self.number
    }

    /// Discards input up to and including the next line break.
    fn skip_rest(&mut self) -> std::io::Result<()> {
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                return Ok(());
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.reader.consume(i + 1);
                    return Ok(());
                }
                None => {
                    let len = chunk.len();
                    self.reader.consume(len);
                }
            }
        }
    }
}

//! The terms of several segments in one order: each segment's dictionary read block after block, the streams
//! merged term by term. A merge reads the postings of each term from every segment having it; the index's term
//! iteration adds up the term's documents.

use crate::dictionary::{Entry, TermInfo};
use crate::error::TextError;
use crate::segment::Segment;

/// One segment's terms, in order, a block at a time.
struct Stream<'a> {
    segment: &'a Segment,
    block: usize,
    terms: std::vec::IntoIter<Entry>,
    current: Option<Entry>,
}

impl<'a> Stream<'a> {
    fn new(segment: &'a Segment, from: Option<&[u8]>) -> Result<Stream<'a>, TextError> {
        let block = from.and_then(|term| segment.block_of(term)).unwrap_or(0);
        let mut stream = Stream { segment, block, terms: Vec::new().into_iter(), current: None };
        stream.terms = segment.block(block)?.into_iter();
        stream.advance()?;
        if let Some(from) = from {
            while stream.current.as_ref().is_some_and(|(t, _)| **t < *from) {
                stream.advance()?;
            }
        }
        Ok(stream)
    }

    fn advance(&mut self) -> Result<(), TextError> {
        loop {
            if let Some(next) = self.terms.next() {
                self.current = Some(next);
                return Ok(());
            }
            self.block += 1;
            if self.block >= self.segment.block_count() {
                self.current = None;
                return Ok(());
            }
            self.terms = self.segment.block(self.block)?.into_iter();
        }
    }
}

/// A term with the index (in the segments merged) and dictionary entry of each segment having it.
pub(crate) type TermGroup = (Box<[u8]>, Vec<(usize, TermInfo)>);

/// The terms of several segments merged: each term once, with what each segment having it says of it.
pub(crate) struct MergedTerms<'a> {
    streams: Vec<Stream<'a>>,
}

impl<'a> MergedTerms<'a> {
    /// The terms of `segments` from `from` on (from the first without it).
    pub(crate) fn new(segments: &[&'a Segment], from: Option<&[u8]>) -> Result<MergedTerms<'a>, TextError> {
        let streams = segments.iter().map(|s| Stream::new(s, from)).collect::<Result<_, _>>()?;
        Ok(MergedTerms { streams })
    }

    /// The next term, with the index (in the segments given) and dictionary entry of each segment having it.
    pub(crate) fn next_term(&mut self) -> Result<Option<TermGroup>, TextError> {
        let Some(least) = self.streams.iter().filter_map(|s| s.current.as_ref().map(|(t, _)| t)).min().cloned() else {
            return Ok(None);
        };
        let mut having = Vec::new();
        for (k, stream) in self.streams.iter_mut().enumerate() {
            if let Some((term, info)) = &stream.current {
                if *term == least {
                    having.push((k, *info));
                    stream.advance()?;
                }
            }
        }
        Ok(Some((least, having)))
    }
}

/// The terms of an index in order, each with its documents in all segments (deleted ones included until a
/// merge drops them): [`crate::Snapshot::terms`].
pub struct Terms<'a> {
    merged: Option<MergedTerms<'a>>,
    prefix: Option<Box<[u8]>>,
    failed: Option<TextError>,
}

impl<'a> Terms<'a> {
    pub(crate) fn new(segments: &[&'a Segment], prefix: Option<&[u8]>) -> Terms<'a> {
        match MergedTerms::new(segments, prefix) {
            Ok(merged) => Terms { merged: Some(merged), prefix: prefix.map(Into::into), failed: None },
            Err(e) => Terms { merged: None, prefix: None, failed: Some(e) },
        }
    }
}

impl Iterator for Terms<'_> {
    type Item = Result<(Box<[u8]>, u64), TextError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.failed.take() {
            return Some(Err(e));
        }
        let merged = self.merged.as_mut()?;
        match merged.next_term() {
            Ok(Some((term, having))) => {
                if self.prefix.as_ref().is_some_and(|p| !term.starts_with(p)) {
                    self.merged = None;
                    return None;
                }
                Some(Ok((term, having.iter().map(|(_, info)| info.docs).sum())))
            }
            Ok(None) => {
                self.merged = None;
                None
            }
            Err(e) => {
                self.merged = None;
                Some(Err(e))
            }
        }
    }
}

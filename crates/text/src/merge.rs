//! Merging segments into one: their documents' sizes merged by row and their terms in order, each term's
//! postings merged by row from every segment having it, deleted rows dropped (and a term left without rows with
//! them). A term's positions are copied as they are, document by document: they do not depend on anything
//! around them. A term in one segment without deleted rows is copied whole. On several threads, each merges a
//! range of the terms.

use std::path::Path;

use roaring::RoaringTreemap;

use crate::error::{Corrupt, TextError};
use crate::files::{segment_path, temporary};
use crate::postings::{DocsReader, DocsWriter, PositionsReader};
use crate::segment::{Segment, SequentialReader};
use crate::terms::MergedTerms;
use crate::writer::{NewSegment, Part, PartWriter, SegmentWriter, TermSink};

/// A segment to merge and the rows of it that are deleted.
pub(crate) type Source<'a> = (&'a Segment, &'a RoaringTreemap);

/// Writes the live documents of `sources` as segment `id` in `dir`; `None` when none is left. With `threads`
/// above one, the terms are split into as many ranges, each merged by a thread of its own; the first range's
/// postings go straight into the segment's file, the others' into temporary files appended to it after.
pub(crate) fn merge(dir: &Path, id: u64, sources: &[Source], threads: usize) -> Result<Option<NewSegment>, TextError> {
    let (rows, sizes) = merged_sizes(sources)?;
    if rows.is_empty() {
        return Ok(None);
    }
    let splits = split_terms(sources, threads);
    let mut writer = SegmentWriter::create(dir, id)?;
    let parts = std::thread::scope(|s| -> Result<Vec<Part>, TextError> {
        let others: Vec<_> = (0..splits.len())
            .map(|p| {
                let (from, until) = (&*splits[p], splits.get(p + 1).map(|t| &**t));
                let path = temporary(&segment_path(dir, id).with_extension(format!("part{}", p + 1)));
                s.spawn(move || -> Result<Part, TextError> {
                    let mut part = PartWriter::create(path)?;
                    merge_range(sources, Some(from), until, &mut part)?;
                    part.finish()
                })
            })
            .collect();
        let first = merge_range(sources, None, splits.first().map(|t| &**t), &mut writer);
        let parts = others.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect();
        first?;
        parts
    })?;
    for part in parts {
        writer.append(part)?;
    }
    writer.finish(&rows, &sizes).map(Some)
}

/// Where to split the terms for `threads` threads: the first terms of evenly spaced dictionary blocks of the
/// segment with the most (none for one thread, or too few blocks to split).
fn split_terms(sources: &[Source], threads: usize) -> Vec<Box<[u8]>> {
    let Some(largest) = sources.iter().map(|(s, _)| *s).max_by_key(|s| s.block_count()) else { return Vec::new() };
    let threads = threads.clamp(1, largest.block_count() / 2 + 1);
    (1..threads).filter_map(|p| largest.block_first(p * largest.block_count() / threads)).map(Into::into).collect()
}

/// Merges the terms of `sources` from `from` (from the first without it) up to `until` (not included; to the last
/// without it) into `sink`.
fn merge_range(
    sources: &[Source],
    from: Option<&[u8]>,
    until: Option<&[u8]>,
    sink: &mut impl TermSink,
) -> Result<(), TextError> {
    let segments: Vec<&Segment> = sources.iter().map(|(s, _)| *s).collect();
    let mut terms = MergedTerms::new(&segments, from)?;
    let mut readers: Vec<SequentialReader> = segments.iter().map(|s| SequentialReader::new(s)).collect();
    let mut docs = DocsWriter::default();
    let mut positions = Vec::new();
    while let Some((term, having)) = terms.next_term()? {
        if until.is_some_and(|until| *term >= *until) {
            break;
        }
        if let [(k, info)] = having[..] {
            if sources[k].1.is_empty() {
                let (doc_bytes, position_bytes) = readers[k].postings(&info)?;
                sink.add_term(&term, info.docs, info.last, doc_bytes, position_bytes)?;
                continue;
            }
        }
        // The postings of the segments having the term (their order is the segments').
        let mut parts = Vec::with_capacity(having.len());
        let mut wanted = having.iter().peekable();
        for (k, reader) in readers.iter_mut().enumerate() {
            if let Some(&(_, info)) = wanted.next_if(|(s, _)| *s == k) {
                let (docs, positions) = reader.postings(&info)?;
                parts.push(TermPart { source: sources[k], docs, positions, count: info.docs, last: info.last });
            }
        }
        docs.reset();
        positions.clear();
        merge_term(&parts, &mut docs, &mut positions)?;
        if let Some(last) = docs.last().filter(|_| docs.count > 0) {
            sink.add_term(&term, docs.count, last, &docs.bytes, &positions)?;
        }
    }
    Ok(())
}

/// The rows and sizes of the live documents of `sources`, by row.
fn merged_sizes(sources: &[Source]) -> Result<(Vec<u64>, Vec<[u32; 3]>), TextError> {
    let mut all: Vec<(u64, [u32; 3])> = Vec::new();
    for (segment, deleted) in sources {
        for (&row, &size) in segment.rows.iter().zip(&segment.sizes) {
            if !deleted.contains(row) {
                all.push((row, size));
            }
        }
    }
    all.sort_unstable_by_key(|(row, _)| *row);
    if let Some(pair) = all.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(TextError::DuplicateRow { row: pair[0].0 });
    }
    Ok(all.into_iter().unzip())
}

/// One term's postings in one of the segments merged.
struct TermPart<'a> {
    source: Source<'a>,
    docs: &'a [u8],
    positions: &'a [u8],
    count: u64,
    /// The row of its last document.
    last: u64,
}

/// One term's postings from each of the segments having it (`parts`), merged by row without the deleted ones.
/// Postings are copied as they are in runs: the documents one segment has before the next document of any
/// other, of which only the first is written anew (its distance from the row before changes).
fn merge_term(parts: &[TermPart], docs: &mut DocsWriter, positions: &mut Vec<u8>) -> Result<(), TextError> {
    let mut streams = Vec::with_capacity(parts.len());
    for part in parts {
        let mut reader = DocsReader::new(part.docs, part.count);
        let first = reader.next_posting().map_err(|c| part.source.0.corrupt(c))?;
        streams.push((part.source, reader, PositionsReader::new(part.positions), first, part.last));
    }
    loop {
        // The stream with the least row, and the least row of the others: where its run ends.
        let (mut least, mut next) = (None, u64::MAX);
        for (s, stream) in streams.iter().enumerate() {
            let Some(row) = stream.3.map(|p| p.row) else { continue };
            match least {
                Some((_, r)) if r <= row => next = next.min(row),
                _ => {
                    if let Some((_, r)) = least {
                        next = next.min(r);
                    }
                    least = Some((s, row));
                }
            }
        }
        let Some((s, _)) = least else { break };
        let ((segment, deleted), reader, at, current, term_last) = &mut streams[s];
        let corrupt = |c: Corrupt| segment.corrupt(c);
        let Some(first) = *current else { break };
        if docs.last().is_some_and(|last| last >= first.row) {
            return Err(TextError::DuplicateRow { row: first.row });
        }
        if !deleted.is_empty() {
            // One document at a time: any may be deleted.
            let start = at.offset();
            at.skip(first.occurrences()).map_err(corrupt)?;
            if !deleted.contains(first.row) {
                docs.push(first.row, first.tf);
                positions.extend_from_slice(at.bytes_from(start));
            }
            *current = reader.next_posting().map_err(corrupt)?;
        } else {
            docs.push(first.row, first.tf);
            if *term_last < next {
                // The rest of this segment's documents all come before the others': copied whole.
                let (rest, count) = reader.rest();
                docs.extend_raw(rest, count, *term_last);
                positions.extend_from_slice(at.rest());
                *current = None;
                continue;
            }
            let (docs_start, positions_start) = (reader.offset(), at.offset());
            let (mut count, mut last, mut occurrences) = (0, first.row, first.occurrences());
            let mut docs_end = reader.offset();
            *current = reader.next_posting().map_err(corrupt)?;
            while let Some(p) = current.filter(|p| p.row < next) {
                count += 1;
                last = p.row;
                occurrences += p.occurrences();
                docs_end = reader.offset();
                *current = reader.next_posting().map_err(corrupt)?;
            }
            at.skip(occurrences).map_err(corrupt)?;
            let run = reader.bytes_from(docs_start);
            docs.extend_raw(&run[..docs_end - docs_start], count, last);
            positions.extend_from_slice(at.bytes_from(positions_start));
        }
        if current.is_none() && !at.is_empty() {
            return Err(corrupt(Corrupt("a term's positions go on past its documents")));
        }
    }
    Ok(())
}

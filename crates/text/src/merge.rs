//! Merging segments into one: their documents' sizes merged by row and their terms in order, each term's
//! postings merged by row from every segment having it, deleted rows dropped (and a term left without rows with
//! them). A term's positions are copied as they are, document by document: they do not depend on anything
//! around them. A term in one segment without deleted rows is copied whole.

use std::path::Path;

use roaring::RoaringTreemap;

use crate::dictionary::TermInfo;
use crate::error::{Corrupt, TextError};
use crate::postings::{DocsReader, DocsWriter, PositionsReader};
use crate::segment::Segment;
use crate::terms::MergedTerms;
use crate::writer::{NewSegment, SegmentWriter};

/// A segment to merge and the rows of it that are deleted.
pub(crate) type Source<'a> = (&'a Segment, &'a RoaringTreemap);

/// Writes the live documents of `sources` as segment `id` in `dir`; `None` when none is left.
pub(crate) fn merge(dir: &Path, id: u64, sources: &[Source]) -> Result<Option<NewSegment>, TextError> {
    let (rows, sizes) = merged_sizes(sources)?;
    if rows.is_empty() {
        return Ok(None);
    }
    let mut writer = SegmentWriter::create(dir, id)?;
    let segments: Vec<&Segment> = sources.iter().map(|(s, _)| *s).collect();
    let mut terms = MergedTerms::new(&segments, None)?;
    let mut docs = DocsWriter::default();
    let mut positions = Vec::new();
    while let Some((term, having)) = terms.next_term()? {
        if let [(k, info)] = having[..] {
            if sources[k].1.is_empty() {
                let (segment, _) = sources[k];
                writer.add_term(&term, info.docs, &segment.docs(&info)?, &segment.positions(&info)?)?;
                continue;
            }
        }
        docs.reset();
        positions.clear();
        merge_term(sources, &having, &mut docs, &mut positions)?;
        if docs.count > 0 {
            writer.add_term(&term, docs.count, &docs.bytes, &positions)?;
        }
    }
    writer.finish(&rows, &sizes).map(Some)
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

/// One term's postings from each of the segments `having` it, merged by row without the deleted ones.
fn merge_term(
    sources: &[Source],
    having: &[(usize, TermInfo)],
    docs: &mut DocsWriter,
    positions: &mut Vec<u8>,
) -> Result<(), TextError> {
    let mut read = Vec::with_capacity(having.len());
    for &(k, info) in having {
        let (segment, _) = sources[k];
        read.push((k, segment.docs(&info)?, segment.positions(&info)?, info.docs));
    }
    let mut streams = Vec::with_capacity(read.len());
    for (k, doc_bytes, position_bytes, count) in &read {
        let mut reader = DocsReader::new(doc_bytes, *count);
        let first = reader.next_posting().map_err(|c| sources[*k].0.corrupt(c))?;
        streams.push((*k, reader, PositionsReader::new(position_bytes), first));
    }
    while let Some(s) =
        (0..streams.len()).filter(|&s| streams[s].3.is_some()).min_by_key(|&s| streams[s].3.map(|p| p.row))
    {
        let (k, reader, at, current) = &mut streams[s];
        let (segment, deleted) = sources[*k];
        let Some(p) = *current else { break };
        let corrupt = |c: Corrupt| segment.corrupt(c);
        if deleted.contains(p.row) {
            at.skip(p.occurrences()).map_err(corrupt)?;
        } else {
            if docs.last().is_some_and(|last| last >= p.row) {
                return Err(TextError::DuplicateRow { row: p.row });
            }
            docs.push(p.row, p.tf);
            positions.extend_from_slice(at.raw(p.occurrences()).map_err(corrupt)?);
        }
        *current = reader.next_posting().map_err(corrupt)?;
        if current.is_none() && !at.is_empty() {
            return Err(corrupt(Corrupt("a term's positions go on past its documents")));
        }
    }
    Ok(())
}

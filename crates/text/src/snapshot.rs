//! What a query reads: the index's live segments and deleted rows as they stood when the snapshot was taken
//! ([`crate::TextIndex::snapshot`]). A snapshot stays whole while the index changes (a merge's old files are
//! still read through the snapshot's open files), can be shared between threads, and answers:
//! - the rows having a phrase, with its frequency in each field ([`Snapshot::phrase`]);
//! - the rows having every phrase of a query, with each phrase's frequencies, and each phrase's rows in the
//!   whole index, which bm25's inverse document frequency reads ([`Snapshot::query`]);
//! - the rows and tokens per field of the whole index, as FTS5 counts them for bm25 ([`Snapshot::statistics`]),
//!   and each row's tokens per field ([`Snapshot::field_sizes`]);
//! - the terms in order, with their documents ([`Snapshot::terms`], [`Snapshot::doc_count`]).

use std::sync::Arc;

use roaring::RoaringTreemap;

use crate::error::TextError;
use crate::phrase::{rows_having, Hit, Phrase};
use crate::segment::Segment;
use crate::terms::Terms;

/// A live segment with its deleted rows, and what is live of it.
#[derive(Debug)]
pub(crate) struct Part {
    pub segment: Arc<Segment>,
    pub deleted: Arc<RoaringTreemap>,
    /// Live documents.
    pub rows: u64,
    /// Tokens per field over the live documents.
    pub tokens: [u64; 3],
}

impl Part {
    /// `segment` with `deleted` (rows of it) deleted.
    pub(crate) fn new(segment: Arc<Segment>, deleted: Arc<RoaringTreemap>) -> Part {
        let mut tokens = segment.tokens();
        let mut rows = segment.rows.len() as u64;
        for row in deleted.iter() {
            if let Some(d) = segment.doc_of(row) {
                rows -= 1;
                for (sum, &s) in tokens.iter_mut().zip(&segment.sizes[d]) {
                    *sum -= u64::from(s);
                }
            }
        }
        Part { segment, deleted, rows, tokens }
    }
}

/// The numbers bm25 reads of the whole index, as FTS5 keeps them: the live rows and their tokens per field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Statistics {
    pub rows: u64,
    /// Tokens of every live row, per field (title, description, body).
    pub tokens: [u64; 3],
}

/// The rows having a phrase, increasing, each with the phrase's frequency in each field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PhraseMatches {
    pub rows: Vec<u64>,
    pub frequencies: Vec<[u32; 3]>,
}

/// The rows having every phrase of a query, increasing, with the frequencies of each phrase in each of their
/// fields, and the rows of the whole index having each phrase.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryMatches {
    pub rows: Vec<u64>,
    /// Row after row, phrase after phrase: the frequencies of phrase `p` in `rows[r]` are at `r * phrases + p`.
    pub frequencies: Vec<[u32; 3]>,
    /// Per phrase, the live rows of the index having it (whether or not they have the other phrases).
    pub phrase_rows: Vec<u64>,
}

impl QueryMatches {
    /// The frequencies of phrase `p` in the `r`-th row matched.
    pub fn frequency(&self, r: usize, p: usize) -> [u32; 3] {
        let phrases = self.phrase_rows.len();
        self.frequencies[r * phrases + p]
    }
}

/// The index as it stood when the snapshot was taken; see the module's documentation.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    parts: Vec<Arc<Part>>,
    statistics: Statistics,
}

impl Snapshot {
    pub(crate) fn new(parts: Vec<Arc<Part>>) -> Snapshot {
        let mut statistics = Statistics::default();
        for part in &parts {
            statistics.rows += part.rows;
            for (sum, t) in statistics.tokens.iter_mut().zip(part.tokens) {
                *sum += t;
            }
        }
        Snapshot { parts, statistics }
    }

    pub(crate) fn parts(&self) -> &[Arc<Part>] {
        &self.parts
    }

    /// Reads every byte of every segment and checks it (queries check only what they read).
    pub fn verify(&self) -> Result<(), TextError> {
        for part in &self.parts {
            crate::verify::verify_segment(&part.segment)?;
        }
        Ok(())
    }

    /// The live rows and their tokens per field.
    pub fn statistics(&self) -> Statistics {
        self.statistics
    }

    /// Rows deleted from the segments and not yet merged away.
    pub fn deleted(&self) -> u64 {
        self.parts.iter().map(|p| p.deleted.len()).sum()
    }

    /// Segments read by each query.
    pub fn segments(&self) -> usize {
        self.parts.len()
    }

    /// The tokens of each field of `row` (title, description, body), `None` for a row the index does not hold.
    pub fn field_sizes(&self, row: u64) -> Option<[u32; 3]> {
        self.parts.iter().find_map(|part| {
            let d = part.segment.doc_of(row)?;
            (!part.deleted.contains(row)).then(|| part.segment.sizes[d])
        })
    }

    /// [`Snapshot::field_sizes`] of each of `rows`, which are in ascending order: each segment's rows walked once
    /// beside those of `rows` in its range, instead of a search of every segment for every row (2.5 s for a
    /// million rows in an index of fifty segments).
    pub fn field_sizes_of(&self, rows: &[u64]) -> Vec<Option<[u32; 3]>> {
        let mut sizes = vec![None; rows.len()];
        for part in &self.parts {
            let held = &part.segment.rows;
            let (Some(&first), Some(&last)) = (held.first(), held.last()) else { continue };
            let (from, to) = (rows.partition_point(|&r| r < first), rows.partition_point(|&r| r <= last));
            let mut d = 0;
            for (k, &row) in rows.iter().enumerate().take(to).skip(from) {
                while d < held.len() && held[d] < row {
                    d += 1;
                }
                // As in `field_sizes`, the first segment holding the row live answers.
                if sizes[k].is_none() && held.get(d) == Some(&row) && !part.deleted.contains(row) {
                    sizes[k] = Some(part.segment.sizes[d]);
                }
            }
        }
        sizes
    }

    /// The live rows having `phrase`, with its frequency in each of their fields.
    pub fn phrase(&self, phrase: &Phrase) -> Result<PhraseMatches, TextError> {
        let hits = self.hits(phrase)?;
        let (rows, frequencies) = hits.into_iter().unzip();
        Ok(PhraseMatches { rows, frequencies })
    }

    /// The live rows having `phrase`, counted.
    pub fn phrase_rows(&self, phrase: &Phrase) -> Result<u64, TextError> {
        Ok(self.hits(phrase)?.len() as u64)
    }

    fn hits(&self, phrase: &Phrase) -> Result<Vec<Hit>, TextError> {
        let mut hits = Vec::new();
        for part in &self.parts {
            rows_having(&part.segment, &part.deleted, phrase, &mut hits)?;
        }
        if self.parts.len() > 1 {
            hits.sort_unstable_by_key(|h| h.0);
        }
        Ok(hits)
    }

    /// The live rows having every one of `phrases` (none for no phrase), with each phrase's frequencies in them
    /// and each phrase's rows in the whole index.
    pub fn query(&self, phrases: &[Phrase]) -> Result<QueryMatches, TextError> {
        let lists = phrases.iter().map(|p| self.hits(p)).collect::<Result<Vec<_>, _>>()?;
        let phrase_rows: Vec<u64> = lists.iter().map(|l| l.len() as u64).collect();
        let Some(shortest) = (0..lists.len()).min_by_key(|&k| lists[k].len()) else {
            return Ok(QueryMatches::default());
        };
        let mut next = vec![0usize; lists.len()];
        let mut rows = Vec::new();
        let mut frequencies = Vec::new();
        'rows: for &(row, _) in &lists[shortest] {
            for (k, list) in lists.iter().enumerate() {
                let at = &mut next[k];
                *at += list[*at..].partition_point(|h| h.0 < row);
                if list.get(*at).is_none_or(|h| h.0 != row) {
                    continue 'rows;
                }
            }
            rows.push(row);
            frequencies.extend(lists.iter().zip(&next).map(|(list, &at)| list[at].1));
        }
        Ok(QueryMatches { rows, frequencies, phrase_rows })
    }

    /// The documents having `term` (a term as the index holds it: folded), from the dictionaries: rows deleted
    /// since their segment was written are counted until a merge drops them.
    pub fn doc_count(&self, term: &[u8]) -> Result<u64, TextError> {
        let mut count = 0;
        for part in &self.parts {
            count += part.segment.term(term)?.map_or(0, |info| info.docs);
        }
        Ok(count)
    }

    /// Every term, in byte order, with its documents as [`Snapshot::doc_count`] counts them.
    pub fn terms(&self) -> Terms<'_> {
        let segments: Vec<&Segment> = self.parts.iter().map(|p| &*p.segment).collect();
        Terms::new(&segments, None)
    }

    /// The terms starting with `prefix`, in byte order, with their documents.
    pub fn terms_with_prefix(&self, prefix: &[u8]) -> Terms<'_> {
        let segments: Vec<&Segment> = self.parts.iter().map(|p| &*p.segment).collect();
        Terms::new(&segments, Some(prefix))
    }
}

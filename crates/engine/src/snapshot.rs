//! A persisted copy of a search space's in-memory index, so that opening a large store is ready in a
//! fraction of the time a rebuild from the document tables takes (one read of a few blobs instead of a
//! scan of every annotation).
//!
//! A snapshot is only a cache: it is stamped with the generations it was built from and the format of
//! this code, and is ignored (and later replaced) when either differs or when it cannot be read. It is
//! written in its own short transaction after a build, and never holds up a search: a failure to write
//! it is logged and forgotten. One row per part (the documents, then one per field) keeps each blob, and
//! so the memory needed to write or read it, small.

use std::collections::HashMap;

use roaring::RoaringBitmap;
use rusqlite::{params, Connection, TransactionBehavior};

use super::field_index::{FacetValue, FieldIndex};
use super::generation::{read_generation, Generation};
use super::hierarchy::ValueKey;
use super::index::SpaceIndex;
use super::term_lists::{CommonTerms, TermList};
use crate::error::EngineError;

/// Bumped whenever the layout below or the meaning of the index changes.
const FORMAT: i64 = 6;

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn u32s(&mut self, v: &[u32]) {
        self.u32(v.len() as u32);
        self.0.reserve(v.len() * 4);
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes)
    }
    fn str(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        self.take(n).and_then(|b| std::str::from_utf8(b).ok()).map(str::to_owned)
    }
    fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.u32()? as usize;
        let bytes = self.take(n.checked_mul(4)?)?;
        Some(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }
}

fn encode_field(field: &FieldIndex) -> Vec<u8> {
    let mut w = Writer(Vec::new());
    w.str(&field.id);
    w.u32(field.values.len() as u32);
    for v in &field.values {
        w.str(&v.label);
        match &v.uri {
            Some(uri) => {
                w.u32(1);
                w.str(uri);
            }
            None => w.u32(0),
        }
        w.u32s(&v.parents);
        w.u32s(&v.children);
        w.u32s(&v.ancestors);
        w.u32(v.docs.serialized_size() as u32);
        // Writing into a Vec cannot fail.
        let _ = v.docs.serialize_into(&mut w.0);
    }
    w.u32s(&field.offsets);
    w.u32s(&field.direct);
    w.0
}

fn decode_field(bytes: &[u8]) -> Option<FieldIndex> {
    let mut r = Reader(bytes);
    let id = r.str()?;
    let count = r.u32()? as usize;
    let mut values = Vec::with_capacity(count);
    let mut by_key = HashMap::with_capacity(count);
    for i in 0..count {
        let label = r.str()?;
        let uri = if r.u32()? == 1 { Some(r.str()?) } else { None };
        let (parents, children, ancestors) = (r.u32s()?, r.u32s()?, r.u32s()?);
        let size = r.u32()? as usize;
        let docs = RoaringBitmap::deserialize_unchecked_from(r.take(size)?).ok()?;
        by_key.insert(ValueKey::of(&label, uri.as_deref()), i as u32);
        values.push(FacetValue { label_lower: label.to_lowercase(), label, uri, docs, children, parents, ancestors });
    }
    let (offsets, direct) = (r.u32s()?, r.u32s()?);
    let sound = offsets.last().is_some_and(|&end| end as usize == direct.len())
        && direct.iter().all(|&v| (v as usize) < values.len());
    sound.then(|| FieldIndex::from_parts(id, values, by_key, offsets, direct))
}

fn encode_term(term: &str, list: &TermList) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(64 + list.docs.serialized_size() + list.small.len()));
    w.str(term);
    w.u64(list.store_rows);
    w.u32(list.docs.serialized_size() as u32);
    // Writing into a Vec cannot fail.
    let _ = list.docs.serialize_into(&mut w.0);
    w.u32(list.small.len() as u32);
    w.0.extend_from_slice(&list.small);
    let mut large: Vec<(u32, u32)> = list.large.iter().map(|(&p, &f)| (p, f)).collect();
    large.sort_unstable();
    w.u32s(&large.iter().flat_map(|&(p, f)| [p, f]).collect::<Vec<u32>>());
    w.0
}

fn decode_term(bytes: &[u8]) -> Option<(String, TermList)> {
    let mut r = Reader(bytes);
    let term = r.str()?;
    let store_rows = r.u64()?;
    let size = r.u32()? as usize;
    let docs = RoaringBitmap::deserialize_unchecked_from(r.take(size)?).ok()?;
    let count = r.u32()? as usize;
    let small = r.take(count)?.to_vec();
    let pairs = r.u32s()?;
    let large: HashMap<u32, u32> = pairs.chunks_exact(2).map(|p| (p[0], p[1])).collect();
    let sound = small.len() as u64 == docs.len() && pairs.len() % 2 == 0;
    sound.then_some((term, TermList { docs, small, large, store_rows }))
}

/// A snapshot's first part: its document count, row ids, text lengths, the field count, and the common terms'
/// generations and count.
type Head = (u32, Vec<i64>, Vec<u32>, u32, i64, u32);

/// The snapshot of `space` if one matches `generation` and this code's format.
pub(crate) fn load(conn: &Connection, space: &str, generation: Generation) -> Result<Option<SpaceIndex>, EngineError> {
    let mut stmt = conn.prepare_cached(
        "SELECT part, data FROM index_snapshots
         WHERE search_space = ?1 AND generation = ?2 AND global_generation = ?3 AND format = ?4 ORDER BY part",
    )?;
    let mut rows = stmt.query(params![space, generation.0, generation.1, FORMAT])?;
    let mut head: Option<Head> = None;
    let mut fields = Vec::new();
    let mut common = CommonTerms::default();
    while let Some(row) = rows.next()? {
        let part: i64 = row.get(0)?;
        let rusqlite::types::ValueRef::Blob(data) = row.get_ref(1)? else { return Ok(None) };
        if part == 0 {
            let mut r = Reader(data);
            let parsed = (|| {
                let n = r.u32()?;
                let raw = r.take((n as usize).checked_mul(8)?)?;
                let rowids = raw.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect();
                let text_lengths = r.u32s()?;
                (text_lengths.len() == n as usize).then_some(())?;
                Some((n, rowids, text_lengths, r.u32()?, r.u64()? as i64, r.u32()?))
            })();
            let Some(parsed) = parsed else { return Ok(None) };
            head = Some(parsed);
        } else if head.as_ref().is_some_and(|h| part <= i64::from(h.3)) {
            let Some(field) = decode_field(data) else { return Ok(None) };
            fields.push(field);
        } else {
            let Some((term, list)) = decode_term(data) else { return Ok(None) };
            common.lists.insert(term, list);
        }
    }
    let Some((n, rowids, text_lengths, field_count, generations, terms)) = head else {
        return Ok(None);
    };
    let documents = |docs: &RoaringBitmap| docs.max().is_none_or(|last| last < n);
    if fields.len() != field_count as usize
        || fields.iter().any(|f| f.offsets.len() != n as usize + 1)
        || common.lists.len() != terms as usize
        || common.lists.values().any(|l| !documents(&l.docs))
    {
        return Ok(None);
    }
    common.generations = generations;
    let mut index = SpaceIndex::from_parts(space, generation, rowids, fields, text_lengths);
    index.common = common;
    Ok(Some(index))
}

/// Stores `index` as the snapshot of its search space, unless the store changed since it was built.
pub(crate) fn save(conn: &mut Connection, index: &SpaceIndex) -> Result<(), EngineError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if read_generation(&tx, &index.space)? != index.generation {
        return Ok(());
    }
    tx.prepare_cached("DELETE FROM index_snapshots WHERE search_space = ?1")?.execute([&index.space])?;
    let mut head = Writer(Vec::with_capacity(12 + index.rowids.len() * 12));
    head.u32(index.rowids.len() as u32);
    for r in &index.rowids {
        head.0.extend_from_slice(&r.to_le_bytes());
    }
    head.u32s(&(0..index.rowids.len() as u32).map(|d| index.text_length(d)).collect::<Vec<u32>>());
    head.u32(index.fields.len() as u32);
    head.u64(index.common.generations as u64);
    head.u32(index.common.lists.len() as u32);
    let mut insert = tx.prepare_cached(
        "INSERT INTO index_snapshots (search_space, part, generation, global_generation, format, data)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let (g, global) = index.generation;
    insert.execute(params![index.space, 0, g, global, FORMAT, head.0])?;
    for (i, field) in index.fields.iter().enumerate() {
        insert.execute(params![index.space, i as i64 + 1, g, global, FORMAT, encode_field(field)])?;
    }
    let mut terms: Vec<(&String, &TermList)> = index.common.lists.iter().collect();
    terms.sort_unstable_by_key(|t| t.0);
    for (i, (term, list)) in terms.into_iter().enumerate() {
        let part = (index.fields.len() + 1 + i) as i64;
        insert.execute(params![index.space, part, g, global, FORMAT, encode_term(term, list)])?;
    }
    drop(insert);
    tx.commit()?;
    Ok(())
}

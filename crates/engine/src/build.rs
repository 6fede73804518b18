//! Building a search space's [`SpaceIndex`] from the store: one scan of the space's documents, their facet lists
//! into a builder per facet field (with the concept hierarchy closed over), the documents then put in result
//! order, and the text sizes the full-text index counted, all inside one read transaction.

use std::borrow::Cow;

use roaring::RoaringBitmap;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Row};
use rustc_hash::FxHashMap;
use serde::Deserialize;
use studio_model::ALL_CONCEPTS_FIELD;
use studio_text::Snapshot;

use super::common_terms;
use super::field_index::{FacetValue, FieldIndex, CONCEPT_PREFIX};
use super::generation::read_generation;
use super::hierarchy::{Hierarchy, ValueKey};
use super::index::SpaceIndex;
use super::text_index;
use super::tuning::{EnginePath, Tuned};
use crate::error::EngineError;

impl SpaceIndex {
    /// Builds the index of `space` from the store, inside one read transaction, keeping the lists of the terms
    /// `tuned` calls common.
    pub(crate) fn build(conn: &mut Connection, space: &str, tuned: Tuned) -> Result<SpaceIndex, EngineError> {
        let tx = conn.transaction()?;
        let generation = read_generation(&tx, space)?;
        let mut labels: Vec<(String, String)> = tx
            .prepare_cached("SELECT field, label FROM facet_fields WHERE search_space = ?1 ORDER BY field")?
            .query_map([space], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        if labels.iter().any(|(f, _)| f.starts_with(CONCEPT_PREFIX)) {
            labels.push((ALL_CONCEPTS_FIELD.to_owned(), "All concepts".to_owned()));
        }
        let hierarchy = Hierarchy::load(&tx, space)?;
        let all_field = labels.iter().position(|(f, _)| f == ALL_CONCEPTS_FIELD);
        let mut builders: Vec<FieldBuilder> = labels.iter().map(|(f, _)| FieldBuilder::new(f)).collect();
        let field_by_id: FxHashMap<String, usize> = labels.iter().enumerate().map(|(i, (f, _))| (f.clone(), i)).collect();
        // One scan of the space's documents: each one's row, id and date, and every refiner of its facet list at
        // any depth (the derived all-concepts group is made here again, from the concept fields). Until the
        // documents are put in result order, a document is numbered by its place in the scan.
        let mut docs: Vec<(i64, String, f64)> = Vec::new();
        {
            let mut stmt =
                tx.prepare_cached("SELECT num, id, date, facet_list FROM documents WHERE search_space = ?1")?;
            let mut rows = stmt.query([space])?;
            while let Some(row) = rows.next()? {
                let scanned = u32::try_from(docs.len()).map_err(|_| EngineError::TooManyDocuments(space.to_owned()))?;
                docs.push((row.get(0)?, row.get(1)?, row.get(2)?));
                // A facet list that cannot be read annotates nothing: the document is still found by its text.
                let groups: Vec<StoredGroup> =
                    text(row, 3)?.and_then(|j| serde_json::from_str(j).ok()).unwrap_or_default();
                for group in groups.iter().filter(|g| g.field != ALL_CONCEPTS_FIELD) {
                    let Some(&fi) = field_by_id.get(&*group.field) else { continue };
                    let concept = builders[fi].concept;
                    let all = all_field.filter(|_| concept);
                    annotate(&mut builders, fi, all, scanned, &group.facets, &hierarchy);
                }
            }
        }
        if u32::try_from(docs.len()).is_err() {
            return Err(EngineError::TooManyDocuments(space.to_owned()));
        }
        let mut order: Vec<u32> = (0..docs.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&docs[a as usize], &docs[b as usize]);
            b.2.total_cmp(&a.2).then_with(|| a.1.cmp(&b.1))
        });
        let mut dense_of = vec![0u32; docs.len()];
        for (dense, &scanned) in order.iter().enumerate() {
            dense_of[scanned as usize] = dense as u32;
        }
        for builder in &mut builders {
            for pair in &mut builder.pairs {
                pair.0 = dense_of[pair.0 as usize];
            }
        }
        let n = docs.len() as u32;
        let rowids: Vec<i64> = order.iter().map(|&k| docs[k as usize].0).collect();
        drop(docs);
        let text_lengths = text_lengths(&text_index::snapshot(&tx)?, &rowids);
        tx.commit()?;
        let fields = builders.into_iter().map(|b| b.finish(n, &hierarchy)).collect();
        let mut index = SpaceIndex::from_parts(space, generation, rowids, fields, text_lengths);
        index.common = common_terms::build(conn, &index, tuned.tuning.common_terms_fewest(u64::from(n)))?;
        if !index.common.lists.is_empty() {
            tuned.taken.note(EnginePath::CommonTermsListed);
        }
        Ok(index)
    }
}

/// A facet group as a document's stored facet list holds it, its strings borrowed from the row where they need no
/// unescaping.
#[derive(Deserialize)]
struct StoredGroup<'a> {
    #[serde(borrow)]
    field: Cow<'a, str>,
    #[serde(borrow, default)]
    facets: Vec<StoredRefiner<'a>>,
}

/// A refiner of a stored facet list, with the refiners below it.
#[derive(Deserialize)]
struct StoredRefiner<'a> {
    #[serde(borrow, default)]
    label: Cow<'a, str>,
    #[serde(borrow, default)]
    value: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    children: Option<Vec<StoredRefiner<'a>>>,
}

/// Annotates document `doc` with `refiners` of field `fi` at any depth, and, for a concept field, the
/// all-concepts field `all` with those of them that have a concept.
fn annotate(
    builders: &mut [FieldBuilder],
    fi: usize,
    all: Option<usize>,
    doc: u32,
    refiners: &[StoredRefiner],
    hierarchy: &Hierarchy,
) {
    for r in refiners {
        let value = r.value.as_deref().filter(|v| !v.is_empty());
        builders[fi].annotate(doc, &r.label, value, hierarchy);
        if let (Some(all), Some(_)) = (all, value) {
            builders[all].annotate(doc, &r.label, value, hierarchy);
        }
        if let Some(children) = &r.children {
            annotate(builders, fi, all, doc, children, hierarchy);
        }
    }
}

/// Per dense number (as in `rowids`), the tokens the full-text index counted in the document's fields; a row it
/// does not hold counts as empty.
fn text_lengths(text: &Snapshot, rowids: &[i64]) -> Vec<u32> {
    rowids
        .iter()
        .map(|&row| {
            let sizes = text.field_sizes(row as u64).unwrap_or_default();
            u32::try_from(sizes.iter().map(|&s| u64::from(s)).sum::<u64>()).unwrap_or(u32::MAX)
        })
        .collect()
}

/// Collects the annotations of one field while the index is built.
struct FieldBuilder {
    id: String,
    concept: bool,
    values: Vec<(String, Option<String>)>,
    by_uri: FxHashMap<String, u32>,
    by_label: FxHashMap<String, u32>,
    pairs: Vec<(u32, u32)>,
}

impl FieldBuilder {
    fn new(id: &str) -> Self {
        FieldBuilder {
            id: id.to_owned(),
            concept: id.starts_with(CONCEPT_PREFIX),
            values: Vec::new(),
            by_uri: FxHashMap::default(),
            by_label: FxHashMap::default(),
            pairs: Vec::new(),
        }
    }

    /// The value keyed by `uri` (when non-empty) or else by `label`, added when new with the label `named`
    /// gives (asked only then: a concept's is looked up in the scheme).
    fn value(&mut self, label: &str, uri: Option<&str>, named: impl FnOnce() -> String) -> u32 {
        let uri = uri.filter(|u| !u.is_empty());
        let found = match uri {
            Some(u) => self.by_uri.get(u),
            None => self.by_label.get(label),
        };
        if let Some(&v) = found {
            return v;
        }
        let v = self.values.len() as u32;
        self.values.push((named(), uri.map(str::to_owned)));
        match uri {
            Some(u) => self.by_uri.insert(u.to_owned(), v),
            None => self.by_label.insert(label.to_owned(), v),
        };
        v
    }

    fn annotate(&mut self, doc: u32, label: &str, value: Option<&str>, hierarchy: &Hierarchy) {
        let concept = self.concept;
        let v = self.value(label, value, || match value {
            Some(uri) if concept => hierarchy.label(uri).unwrap_or(label).to_owned(),
            _ => label.to_owned(),
        });
        self.pairs.push((doc, v));
    }

    /// Adds every broader concept of the field's concepts as a value (transitively) and returns the
    /// (narrower, broader) links between values.
    fn close_hierarchy(&mut self, hierarchy: &Hierarchy) -> Vec<(u32, u32)> {
        let mut links = Vec::new();
        let mut next = 0;
        while next < self.values.len() {
            let child = next as u32;
            next += 1;
            let Some(uri) = self.values[child as usize].1.clone() else { continue };
            for broader in hierarchy.broader(&uri) {
                let label = hierarchy.label(broader).unwrap_or(broader);
                let parent = self.value(label, Some(broader), || label.to_owned());
                links.push((child, parent));
            }
        }
        links
    }

    fn finish(mut self, n: u32, hierarchy: &Hierarchy) -> FieldIndex {
        let links = if self.concept { self.close_hierarchy(hierarchy) } else { Vec::new() };
        let count = self.values.len();
        let mut parents: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); count];
        for (child, parent) in links {
            if child != parent && !parents[child as usize].contains(&parent) {
                parents[child as usize].push(parent);
                children[parent as usize].push(child);
            }
        }
        let ancestors: Vec<Vec<u32>> = (0..count as u32).map(|v| ancestors_of(v, &parents)).collect();
        self.pairs.sort_unstable();
        self.pairs.dedup();
        let mut per_value: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut offsets = Vec::with_capacity(n as usize + 1);
        let mut direct = Vec::with_capacity(self.pairs.len());
        let mut p = 0;
        for doc in 0..n {
            offsets.push(direct.len() as u32);
            while p < self.pairs.len() && self.pairs[p].0 == doc {
                let v = self.pairs[p].1;
                direct.push(v);
                per_value[v as usize].push(doc);
                for &a in &ancestors[v as usize] {
                    per_value[a as usize].push(doc);
                }
                p += 1;
            }
        }
        offsets.push(direct.len() as u32);
        let values = self
            .values
            .into_iter()
            .zip(per_value)
            .zip(parents.into_iter().zip(children))
            .zip(ancestors)
            .map(|((((label, uri), mut docs), (parents, children)), ancestors)| {
                docs.sort_unstable();
                docs.dedup();
                let docs = RoaringBitmap::from_sorted_iter(docs).unwrap_or_default();
                FacetValue { label_lower: label.to_lowercase(), label, uri, docs, children, parents, ancestors }
            })
            .collect();
        let by_key = self
            .by_uri
            .into_iter()
            .map(|(u, v)| (ValueKey::Uri(u), v))
            .chain(self.by_label.into_iter().map(|(l, v)| (ValueKey::Label(l), v)))
            .collect();
        FieldIndex::from_parts(self.id, values, by_key, offsets, direct)
    }
}

/// Every value above `v`, breadth first, each once (cycles in a scheme are cut).
fn ancestors_of(v: u32, parents: &[Vec<u32>]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    let mut queue: Vec<u32> = parents[v as usize].clone();
    while let Some(a) = queue.pop() {
        if a == v || out.contains(&a) {
            continue;
        }
        out.push(a);
        queue.extend(parents[a as usize].iter().copied());
    }
    out
}

/// A text column borrowed from the row (NULL and non-text as `None`).
fn text<'r>(row: &'r Row<'_>, i: usize) -> rusqlite::Result<Option<&'r str>> {
    Ok(match row.get_ref(i)? {
        ValueRef::Text(bytes) => std::str::from_utf8(bytes).ok(),
        _ => None,
    })
}

//! Collects the annotations of each facet field while an index is built, and makes the field's index of them: its
//! values with the concept hierarchy closed over, each value's documents as a bitmap, and each document's values.

use roaring::RoaringBitmap;
use rustc_hash::FxHashMap;

use super::field_index::{FacetValue, FieldIndex, CONCEPT_PREFIX};
use super::hierarchy::{Hierarchy, ValueKey};

/// Collects the annotations of one field while the index is built.
pub(crate) struct FieldBuilder {
    id: String,
    pub(crate) concept: bool,
    pub(crate) values: Vec<(String, Option<String>)>,
    by_uri: FxHashMap<String, u32>,
    by_label: FxHashMap<String, u32>,
    pub(crate) pairs: Vec<(u32, u32)>,
}

impl FieldBuilder {
    pub(crate) fn new(id: &str) -> Self {
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

    pub(crate) fn annotate(&mut self, doc: u32, label: &str, value: Option<&str>, hierarchy: &Hierarchy) {
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

    pub(crate) fn finish(mut self, n: u32, hierarchy: &Hierarchy) -> FieldIndex {
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

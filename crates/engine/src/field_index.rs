//! One facet field of a search space's index: its values (each with the documents it has, directly or through
//! a descendant, and its place in the hierarchy) and, per document, its direct values, with what counting
//! over them reads ([`super::index::SpaceIndex`] holds one per field).

use std::collections::HashMap;

use roaring::RoaringBitmap;
use studio_model::FacetKind;
pub(crate) use studio_model::CONCEPT_PREFIX;

use super::hierarchy::ValueKey;

/// What kind of values a field holds, from its id's prefix.
pub(crate) fn kind_of(field: &str) -> FacetKind {
    if field.starts_with(CONCEPT_PREFIX) {
        FacetKind::Concept
    } else if field.starts_with("dyn_flt_") {
        FacetKind::Numeric
    } else {
        FacetKind::Literal
    }
}

/// One value of a facet field.
#[derive(Debug)]
pub(crate) struct FacetValue {
    pub label: String,
    /// The label lower-cased, for alphabetical order (computed once, not per comparison).
    pub label_lower: String,
    /// The concept URI (or a literal refiner's value); `None` for literal values keyed by label.
    pub uri: Option<String>,
    /// Documents annotated with this value or any of its descendants.
    pub docs: RoaringBitmap,
    pub children: Vec<u32>,
    pub parents: Vec<u32>,
    /// Every value above this one, each once.
    pub ancestors: Vec<u32>,
}

/// One facet field of a search space.
#[derive(Debug)]
pub(crate) struct FieldIndex {
    pub id: String,
    pub values: Vec<FacetValue>,
    by_key: HashMap<ValueKey, u32>,
    /// Per document (dense number), its direct values: `direct[offsets[d]..offsets[d + 1]]`.
    pub(crate) offsets: Vec<u32>,
    pub(crate) direct: Vec<u32>,
    /// Values counted per document when walking documents: direct values and their ancestors, on average.
    pub(crate) values_per_doc: f64,
    /// Per value, itself and its ancestors: `closure[closure_offsets[v]..closure_offsets[v + 1]]`, in one
    /// array, so that walking documents does not chase each value's own list.
    closure_offsets: Vec<u32>,
    closure: Vec<u32>,
    /// True when no value has an ancestor (a document's direct values then count once each).
    pub(crate) flat: bool,
    /// Every value, those with the most documents first (the order in which a group showing the values
    /// with the most documents counts them); empty for a field without a hierarchy, which is never cut.
    pub(crate) by_size: Vec<u32>,
    /// Every value in alphabetical order as groups sort labels: lower-cased label, label, URI; empty for a
    /// field without a hierarchy.
    pub(crate) by_name: Vec<u32>,
    /// Per value, the documents it has (those of its bitmap): in one array, as a count over every document
    /// reads them, instead of ten thousand bitmaps' headers scattered in memory.
    pub(crate) sizes: Vec<u64>,
    /// Per value, the place of its label in alphabetical order (lower-cased label, then label), equal labels
    /// sharing one: groups sort by it without reading the labels.
    pub(crate) label_rank: Vec<u32>,
    /// One bit per document: set when two of its direct values have a value above them (or one of them) in
    /// common, so that counting it must mark what it counted (see `counting::Tally`).
    sharing: Vec<u64>,
}

impl FieldIndex {
    /// A field from its parts (as a snapshot holds them).
    pub(crate) fn from_parts(
        id: String,
        values: Vec<FacetValue>,
        by_key: HashMap<ValueKey, u32>,
        offsets: Vec<u32>,
        direct: Vec<u32>,
    ) -> FieldIndex {
        let walked: usize = direct.iter().map(|&v| 1 + values.get(v as usize).map_or(0, |x| x.ancestors.len())).sum();
        let values_per_doc = walked as f64 / offsets.len().saturating_sub(1).max(1) as f64;
        let mut closure_offsets = Vec::with_capacity(values.len() + 1);
        let mut closure = Vec::new();
        for (v, value) in values.iter().enumerate() {
            closure_offsets.push(closure.len() as u32);
            closure.push(v as u32);
            closure.extend(&value.ancestors);
        }
        closure_offsets.push(closure.len() as u32);
        let flat = values.iter().all(|v| v.ancestors.is_empty());
        let documents = offsets.len().saturating_sub(1);
        let mut sharing = vec![0u64; documents.div_ceil(64)];
        if !flat {
            // The last document each value was reached from.
            let mut reached = vec![u32::MAX; values.len()];
            for (d, bounds) in offsets.windows(2).enumerate() {
                let mine = direct.get(bounds[0] as usize..bounds[1] as usize).unwrap_or(&[]);
                if mine.len() < 2 {
                    continue;
                }
                let from = |v: u32| closure_offsets.get(v as usize..v as usize + 2);
                let mut shared = false;
                for bounds in mine.iter().filter_map(|&v| from(v)) {
                    for &w in &closure[bounds[0] as usize..bounds[1] as usize] {
                        shared |= reached[w as usize] == d as u32;
                        reached[w as usize] = d as u32;
                    }
                }
                if shared {
                    sharing[d / 64] |= 1 << (d % 64);
                }
            }
        }
        let sizes: Vec<u64> = values.iter().map(|v| v.docs.len()).collect();
        let mut alphabetical: Vec<u32> = (0..values.len() as u32).collect();
        alphabetical.sort_by(|&a, &b| {
            let (a, b) = (&values[a as usize], &values[b as usize]);
            (&a.label_lower, &a.label, &a.uri).cmp(&(&b.label_lower, &b.label, &b.uri))
        });
        let mut label_rank = vec![0u32; values.len()];
        let mut rank = 0;
        for (i, pair) in alphabetical.iter().enumerate() {
            let value = &values[*pair as usize];
            if i > 0 {
                let before = &values[alphabetical[i - 1] as usize];
                rank += u32::from((&before.label_lower, &before.label) != (&value.label_lower, &value.label));
            }
            label_rank[*pair as usize] = rank;
        }
        // Only a field with a hierarchy is cut (counting::cut_of): the orders are not made for the others.
        let (by_size, by_name): (Vec<u32>, Vec<u32>) = if flat {
            (Vec::new(), Vec::new())
        } else {
            let mut by_size: Vec<u32> = (0..values.len() as u32).collect();
            by_size.sort_by_key(|&v| std::cmp::Reverse(sizes[v as usize]));
            (by_size, alphabetical)
        };
        FieldIndex {
            id,
            values,
            by_key,
            offsets,
            direct,
            values_per_doc,
            closure_offsets,
            closure,
            flat,
            by_size,
            by_name,
            sizes,
            label_rank,
            sharing,
        }
    }

    /// Whether two direct values of `doc` have a value above them (or one of them) in common.
    #[inline]
    pub(crate) fn shares_ancestors(&self, doc: u32) -> bool {
        self.sharing.get(doc as usize / 64).is_some_and(|bits| bits >> (doc % 64) & 1 == 1)
    }

    /// The documents of the search space (every one has an entry here, with or without values).
    #[inline]
    pub(crate) fn documents(&self) -> u64 {
        self.offsets.len().saturating_sub(1) as u64
    }

    /// A value and every value above it.
    #[inline]
    pub(crate) fn closure(&self, value: u32) -> &[u32] {
        let v = value as usize;
        &self.closure[self.closure_offsets[v] as usize..self.closure_offsets[v + 1] as usize]
    }

    /// The values a document is annotated with directly (not their ancestors).
    #[inline]
    pub fn direct_values(&self, doc: u32) -> &[u32] {
        let (a, b) = (self.offsets[doc as usize] as usize, self.offsets[doc as usize + 1] as usize);
        &self.direct[a..b]
    }

    /// The value with this URI, if any.
    pub fn by_uri(&self, uri: &str) -> Option<u32> {
        self.by_key.get(&ValueKey::Uri(uri.to_owned())).copied()
    }

    /// Values whose label equals `label`.
    pub fn by_label<'a>(&'a self, label: &'a str) -> impl Iterator<Item = u32> + 'a {
        self.values.iter().enumerate().filter(move |(_, v)| v.label == label).map(|(i, _)| i as u32)
    }
}

//! The brute-force oracle: the search rules of docs/api.md (Search, Selected facets, Facets in the answer) computed the slow, obvious way over the plain corpus model,
//! including FTS5's bm25 formula (k1 = 1.2, b = 0.75, column weights 5, 2, 1).

use std::cmp::Ordering;
use std::collections::BTreeSet;

use studio_model::{FacetGroup, FacetSetting, Refiner, SelectedFacet};

use super::corpus::*;

/// One clause of a query: tokens in a row, the last optionally a prefix.
#[derive(Clone, Debug)]
pub struct Clause {
    pub tokens: Vec<String>,
    pub prefix: bool,
}

pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('é', "e"))
        .collect()
}

fn hits(column: &[String], clause: &Clause) -> usize {
    let k = clause.tokens.len();
    if k == 0 || column.len() < k {
        return 0;
    }
    (0..=column.len() - k)
        .filter(|&i| {
            clause.tokens.iter().enumerate().all(|(j, t)| {
                if clause.prefix && j == k - 1 {
                    column[i + j].starts_with(t.as_str())
                } else {
                    column[i + j] == *t
                }
            })
        })
        .count()
}

fn columns(d: &Doc) -> [Vec<String>; 3] {
    [tokens(&d.title), tokens(&d.description), tokens(&d.content)]
}

/// bm25 of every document (all spaces, as FTS5 sees them) for a non-empty query; `None` when a clause misses.
pub fn scores(docs: &[Doc], clauses: &[Clause]) -> Vec<Option<f64>> {
    let cols: Vec<[Vec<String>; 3]> = docs.iter().map(columns).collect();
    let n = docs.len() as i64;
    let total: usize = cols.iter().map(|c| c.iter().map(Vec::len).sum::<usize>()).sum();
    let avgdl = total as f64 / n as f64;
    let idf: Vec<f64> = clauses
        .iter()
        .map(|c| {
            let hit = cols.iter().filter(|cs| cs.iter().any(|col| hits(col, c) > 0)).count() as i64;
            let idf = (((n - hit) as f64 + 0.5) / (hit as f64 + 0.5)).ln();
            if idf <= 0.0 {
                1e-6
            } else {
                idf
            }
        })
        .collect();
    let weights = [5.0, 2.0, 1.0];
    cols.iter()
        .map(|cs| {
            let freq: Vec<f64> = clauses
                .iter()
                .map(|c| cs.iter().zip(weights).map(|(col, w)| hits(col, c) as f64 * w).sum::<f64>())
                .collect();
            if freq.contains(&0.0) {
                return None;
            }
            let d = cs.iter().map(Vec::len).sum::<usize>() as f64;
            let (k1, b) = (1.2, 0.75);
            let mut score = 0.0;
            for (i, f) in freq.iter().enumerate() {
                score += idf[i] * ((f * (k1 + 1.0)) / (f + k1 * (1.0 - b + b * d / avgdl)));
            }
            Some(-score)
        })
        .collect()
}

/// A facet field as the oracle sees it: every value with label, uri, parents and document set.
pub struct Field {
    pub id: String,
    pub values: Vec<Value>,
}

/// (label, uri, parent values, documents having it or a descendant)
pub type Value = (String, Option<String>, Vec<usize>, BTreeSet<usize>);

impl Field {
    fn children(&self, v: usize) -> Vec<usize> {
        (0..self.values.len()).filter(|&c| self.values[c].2.contains(&v)).collect()
    }
}

/// Builds one field over the documents of space `s` (indices into `docs`).
pub fn field(c: &Corpus, id: &str) -> Option<Field> {
    let docs: Vec<(usize, &Doc)> = c.docs.iter().enumerate().filter(|(_, d)| d.space == "s").collect();
    let mut values: Vec<Value> = Vec::new();
    let topic_docs =
        |t: usize| -> BTreeSet<usize> { docs.iter().filter(|(_, d)| d.topics.contains(&t)).map(|(i, _)| *i).collect() };
    let place_docs =
        |p: usize| -> BTreeSet<usize> { docs.iter().filter(|(_, d)| d.places.contains(&p)).map(|(i, _)| *i).collect() };
    let mut concepts: Vec<(String, String, Vec<String>, BTreeSet<usize>)> = Vec::new();
    if id == "dyn_uri_topic" || id == "dyn_uri_all_concepts" {
        let mut used: BTreeSet<usize> = docs.iter().flat_map(|(_, d)| d.topics.clone()).collect();
        loop {
            let more: BTreeSet<usize> = used.iter().flat_map(|&t| c.topic_parents[t].clone()).collect();
            if more.is_subset(&used) {
                break;
            }
            used.extend(more);
        }
        for t in used {
            concepts.push((
                topic_uri(t),
                topic_label(t),
                c.topic_parents[t].iter().map(|&p| topic_uri(p)).collect(),
                topic_docs(t),
            ));
        }
    }
    if id == "dyn_uri_place" || id == "dyn_uri_all_concepts" {
        let used: BTreeSet<usize> = docs.iter().flat_map(|(_, d)| d.places.clone()).collect();
        for p in used {
            concepts.push((
                place_uri(p),
                place_label(p),
                PLACE_PARENT[p].iter().map(|&q| place_uri(q)).collect(),
                place_docs(p),
            ));
        }
    }
    let uris: Vec<String> = concepts.iter().map(|c| c.0.clone()).collect();
    for (uri, label, parents, own) in concepts {
        let parents = parents.iter().filter_map(|p| uris.iter().position(|u| u == p)).collect();
        values.push((label, Some(uri), parents, own));
    }
    let literal = |get: &dyn Fn(&Doc) -> Vec<String>| -> Vec<Value> {
        let labels: BTreeSet<String> = docs.iter().flat_map(|(_, d)| get(d)).collect();
        labels
            .into_iter()
            .map(|l| {
                let own = docs.iter().filter(|(_, d)| get(d).contains(&l)).map(|(i, _)| *i).collect();
                (l, None, Vec::new(), own)
            })
            .collect()
    };
    match id {
        "dyn_lit_author" => values = literal(&|d: &Doc| d.authors.clone()),
        "dyn_flt_sentiment" if c.sentiment_field => values = literal(&|d: &Doc| d.sentiment.iter().cloned().collect()),
        "dyn_uri_topic" | "dyn_uri_place" | "dyn_uri_all_concepts" => {}
        _ => return None,
    }
    // Each concept's set also holds its descendants' documents.
    let n = values.len();
    let mut closed: Vec<BTreeSet<usize>> = values.iter().map(|v| v.3.clone()).collect();
    for _ in 0..n {
        for v in 0..n {
            for &p in &values[v].2.clone() {
                let add = closed[v].clone();
                closed[p].extend(add);
            }
        }
    }
    for (v, set) in closed.into_iter().enumerate() {
        values[v].3 = set;
    }
    Some(Field { id: id.to_owned(), values })
}

/// The values of `field` an item selects.
pub fn matched(field: &Field, item: &SelectedFacet) -> Vec<usize> {
    (0..field.values.len())
        .filter(|&v| match (&item.value, &item.label) {
            (Some(uri), _) => field.values[v].1.as_deref() == Some(uri.as_str()),
            (None, Some(label)) => field.values[v].0 == *label,
            (None, None) => false,
        })
        .collect()
}

fn compare(field: &Field, counts: &[usize], s: &FacetSetting, a: usize, b: usize) -> Ordering {
    let (va, vb) = (&field.values[a], &field.values[b]);
    let label = va.0.to_lowercase().cmp(&vb.0.to_lowercase()).then(va.0.cmp(&vb.0));
    let primary = if s.sorting == "alphabetical" { label } else { counts[a].cmp(&counts[b]) };
    let primary = if s.sorting_order == "asc" { primary } else { primary.reverse() };
    let rest = if s.sorting == "alphabetical" { Ordering::Equal } else { label };
    primary.then(rest).then(va.1.cmp(&vb.1))
}

/// The facet group of one setting over `scope`, with `selected` values of this field.
pub fn group(field: &Field, s: &FacetSetting, scope: &BTreeSet<usize>, selected: &[usize]) -> FacetGroup {
    let counts: Vec<usize> = field.values.iter().map(|v| v.3.intersection(scope).count()).collect();
    let hier = s.facet_mode == "hierarchical";
    let mut shown = BTreeSet::new();
    #[allow(clippy::too_many_arguments)]
    fn level(
        f: &Field,
        counts: &[usize],
        s: &FacetSetting,
        sel: &[usize],
        cands: Vec<usize>,
        depth: usize,
        hier: bool,
        shown: &mut BTreeSet<usize>,
    ) -> Vec<Refiner> {
        let mut list: Vec<usize> = cands.into_iter().filter(|&v| counts[v] > 0 || sel.contains(&v)).collect();
        list.sort_by(|&a, &b| compare(f, counts, s, a, b));
        let mut out = Vec::new();
        for (rank, v) in list.into_iter().enumerate() {
            if rank >= s.maximum_terms as usize && !sel.contains(&v) {
                continue;
            }
            shown.insert(v);
            let kids = f.children(v);
            let children = (hier && depth < s.hierarchical_depth as usize && !kids.is_empty())
                .then(|| level(f, counts, s, sel, kids, depth + 1, hier, shown));
            out.push(Refiner {
                count: counts[v] as i64,
                label: f.values[v].0.clone(),
                value: f.values[v].1.clone(),
                children,
            });
        }
        out
    }
    let roots: Vec<usize> = (0..field.values.len()).filter(|&v| !hier || field.values[v].2.is_empty()).collect();
    let mut facets = level(field, &counts, s, selected, roots, 1, hier, &mut shown);
    let mut hidden: Vec<usize> = selected.iter().copied().filter(|v| !shown.contains(v)).collect();
    hidden.sort_by(|&a, &b| compare(field, &counts, s, a, b));
    hidden.dedup();
    for v in hidden {
        facets.push(Refiner {
            count: counts[v] as i64,
            label: field.values[v].0.clone(),
            value: field.values[v].1.clone(),
            children: None,
        });
    }
    FacetGroup { field: field.id.clone(), label: s.title.clone(), facets }
}

/// A field's facet health counted over the documents of space `s`: documents carrying it, values used, and
/// values per level from the top (values without a broader one), each level's narrower values once.
pub fn health(c: &Corpus, id: &str) -> (i64, i64, i32, Vec<i64>, i64) {
    let Some(field) = field(c, id) else { return (0, 0, 0, Vec::new(), 0) };
    let used: Vec<usize> = (0..field.values.len()).filter(|&v| !field.values[v].3.is_empty()).collect();
    let carrying: BTreeSet<usize> = used.iter().flat_map(|&v| field.values[v].3.iter().copied()).collect();
    let mut level: BTreeSet<usize> = used.iter().copied().filter(|&v| field.values[v].2.is_empty()).collect();
    let largest = level.iter().map(|&v| field.values[v].3.len() as i64).max().unwrap_or(0);
    let mut by_depth = Vec::new();
    while !level.is_empty() {
        by_depth.push(level.len() as i64);
        level = level.iter().flat_map(|&v| field.children(v)).filter(|v| used.contains(v)).collect();
    }
    (carrying.len() as i64, used.len() as i64, by_depth.len() as i32, by_depth, largest)
}

/// bm25 of every document (all spaces, as FTS5 sees them) for `"a" OR "b" OR …` of single words, the words'
/// parts added in the order of `terms` as the engine adds them; `None` for a document with none of them.
pub fn scores_of_any(docs: &[Doc], terms: &[String]) -> Vec<Option<f64>> {
    let cols: Vec<[Vec<String>; 3]> = docs.iter().map(columns).collect();
    let n = docs.len() as f64;
    let total: usize = cols.iter().map(|c| c.iter().map(Vec::len).sum::<usize>()).sum();
    let avgdl = total as f64 / n;
    let clauses: Vec<Clause> = terms.iter().map(|t| Clause { tokens: vec![t.clone()], prefix: false }).collect();
    let idf: Vec<f64> = clauses
        .iter()
        .map(|c| {
            let hit = cols.iter().filter(|cs| cs.iter().any(|col| hits(col, c) > 0)).count() as f64;
            let idf = ((n - hit + 0.5) / (hit + 0.5)).ln();
            if idf <= 0.0 {
                1e-6
            } else {
                idf
            }
        })
        .collect();
    let weights = [5.0, 2.0, 1.0];
    let (k1, b) = (1.2, 0.75);
    cols.iter()
        .map(|cs| {
            let freq: Vec<f64> = clauses
                .iter()
                .map(|c| cs.iter().zip(weights).map(|(col, w)| hits(col, c) as f64 * w).sum::<f64>())
                .collect();
            if freq.iter().all(|&f| f == 0.0) {
                return None;
            }
            let norm = k1 * (1.0 - b + b * cs.iter().map(Vec::len).sum::<usize>() as f64 / avgdl);
            let sum: f64 = freq.iter().zip(&idf).map(|(&f, &idf)| idf * (f * (k1 + 1.0)) / (f + norm)).sum();
            Some(-sum)
        })
        .collect()
}

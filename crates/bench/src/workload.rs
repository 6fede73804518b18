//! The benchmark's query mix and the configuration it searches with: ten facet groups over the eight
//! fields (two hierarchical, shown two levels deep), searches of one or two words with three selected
//! facets, and facet-only queries with two. Every engine of the comparison answers the same [`Query`].

use std::collections::HashMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use studio_model::{Config, FacetSetting, Refiner, SearchRequest, SearchResponse, SelectedFacet, ALL_CONCEPTS_FIELD};

use crate::corpus::{SynthCorpus, BENCH_SPACE, FIELDS, WORKLOAD_STREAM};

/// One facet group of the benchmark configuration.
#[derive(Debug, Clone)]
pub struct Group {
    /// The field id (one of [`FIELDS`] or `dyn_uri_all_concepts`).
    pub field: String,
    pub hierarchical: bool,
    pub alphabetical: bool,
    pub maximum: usize,
}

/// The ten groups, in the order the configuration shows them.
pub fn groups() -> Vec<Group> {
    let g = |field: &str, hierarchical: bool, alphabetical: bool| Group {
        field: field.to_owned(),
        hierarchical,
        alphabetical,
        maximum: 10,
    };
    let mut out = vec![g(FIELDS[0], true, false), g(FIELDS[1], true, false)];
    out.extend(FIELDS[2..].iter().map(|f| g(f, false, false)));
    out.push(g(ALL_CONCEPTS_FIELD, false, false));
    // The author field a second time, A–Z, as a "browse authors" panel would show it.
    out.push(g(FIELDS[2], false, true));
    out
}

/// The configuration every search of the benchmark uses: ten results per page and [`groups`].
pub fn bench_config() -> Config {
    let mut config = Config { title: "Benchmark".into(), search_space: BENCH_SPACE.into(), ..Default::default() };
    config.result.items_per_page = 10;
    config.filter.facets_to_show = groups()
        .iter()
        .map(|g| FacetSetting {
            uri: g.field.clone(),
            ref_id: g.field.clone(),
            title: g.field.clone(),
            facet_mode: if g.hierarchical { "hierarchical" } else { "flat" }.into(),
            hierarchical_depth: 2,
            maximum_terms: g.maximum as i32,
            sorting: if g.alphabetical { "alphabetical" } else { "count" }.into(),
            sorting_order: if g.alphabetical { "asc" } else { "desc" }.into(),
            ..Default::default()
        })
        .collect();
    config
}

/// One search: words that must all match (none for a facet-only query) and selected facets as
/// (field index into [`FIELDS`], concept URI or literal label).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Query {
    pub words: Vec<String>,
    pub selected: Vec<(usize, String)>,
}

impl Query {
    /// The same query as a search request of the API.
    pub fn request(&self) -> SearchRequest {
        let mut r = SearchRequest { input: Some(self.words.join(" ")), ..Default::default() };
        for (f, v) in &self.selected {
            let (label, value) = if *f < 2 { (None, Some(v.clone())) } else { (Some(v.clone()), None) };
            r.selected_facets.push(SelectedFacet { field: FIELDS[*f].to_owned(), label, value });
        }
        r
    }

    /// The same words with no facet selected (what the preview sends while a designer types).
    pub fn words_alone(&self) -> SearchRequest {
        SearchRequest { selected_facets: Vec::new(), ..self.request() }
    }
}

/// The queries of one run.
pub struct Workload {
    pub searches: Vec<Query>,
    pub facet_only: Vec<Query>,
    /// Document ids for getSimilar and getRecommendations.
    pub documents: Vec<String>,
}

/// A word of middle frequency: ranks between 30 and 3,000, log-uniform, so that a query matches from
/// well under 1 % to about a third of the documents.
fn word(corpus: &SynthCorpus, rng: &mut ChaCha8Rng) -> String {
    let rank = (30.0 * 100f64.powf(rng.gen::<f64>())) as usize;
    corpus.words[rank].clone()
}

fn topic(corpus: &SynthCorpus, rng: &mut ChaCha8Rng) -> String {
    // A top or middle concept: selecting one matches its narrower concepts' documents too.
    let candidates: Vec<&str> = corpus.topics.iter().filter(|c| c.path.len() <= 2).map(|c| c.uri.as_str()).collect();
    let pick = if rng.gen_bool(0.5) { rng.gen_range(0..24) } else { rng.gen_range(0..candidates.len()) };
    candidates[pick.min(candidates.len() - 1)].to_owned()
}

/// Draws made to find a query of a kind not drawn before, per query asked for, before a small corpus (whose
/// every query was drawn) is left with fewer.
const DRAWS_PER_QUERY: usize = 50;

/// Keeps drawing with `draw(i)` (`i` counting the distinct values so far) until `runs` distinct values are
/// drawn, or [`DRAWS_PER_QUERY`] × `runs` draws were made.
fn distinct<T: Clone + Eq + std::hash::Hash>(runs: usize, mut draw: impl FnMut(usize) -> T) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(runs);
    for _ in 0..runs * DRAWS_PER_QUERY {
        if out.len() == runs {
            break;
        }
        let value = draw(out.len());
        if seen.insert(value.clone()) {
            out.push(value);
        }
    }
    out
}

impl Workload {
    /// `runs` distinct queries of each kind (and `runs` distinct documents) for a corpus of `docs` documents;
    /// fewer only where the corpus has fewer to draw.
    pub fn new(corpus: &SynthCorpus, docs: usize, runs: usize) -> Workload {
        let mut rng = corpus.rng(WORKLOAD_STREAM);
        let regions: Vec<&str> = corpus.places.iter().filter(|c| c.path.len() == 1).map(|c| c.uri.as_str()).collect();
        let searches = distinct(runs, |i| {
            let words = (0..1 + i % 2).map(|_| word(corpus, &mut rng)).collect();
            let second = match i % 3 {
                0 => (3, ["News", "Analysis", "Report"][rng.gen_range(0..3)].to_owned()),
                1 => (4, ["en", "de", "fr"][rng.gen_range(0..3)].to_owned()),
                _ => (6, ["0.0", "0.5", "-0.5"][rng.gen_range(0..3)].to_owned()),
            };
            let third = if i % 2 == 0 {
                (1, regions[rng.gen_range(0..regions.len())].to_owned())
            } else {
                (7, rng.gen_range(2015..2026).to_string())
            };
            Query { words, selected: vec![(0, topic(corpus, &mut rng)), second, third] }
        });
        let facet_only = distinct(runs, |i| {
            let second = if i % 2 == 0 {
                (4, ["en", "de", "fr", "es"][rng.gen_range(0..4)].to_owned())
            } else {
                (7, rng.gen_range(2010..2026).to_string())
            };
            Query { words: Vec::new(), selected: vec![(0, topic(corpus, &mut rng)), second] }
        });
        let documents = distinct(runs.min(docs), |_| corpus.doc(rng.gen_range(0..docs.max(1))).id);
        Workload { searches, facet_only, documents }
    }

    /// The fewest distinct queries of any kind: every percentile of the run comes from at least this many.
    pub fn distinct(&self) -> usize {
        self.searches.len().min(self.facet_only.len()).min(self.documents.len())
    }
}

/// What the comparison checks: the total, and per group the count of each value (concept URI or
/// literal label). An engine may report more values than another shows; shown ones must agree.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    pub total: u64,
    pub groups: Vec<HashMap<String, u64>>,
}

impl Answer {
    /// The counts our engine shows in a search response.
    pub fn of_response(response: &SearchResponse) -> Answer {
        fn walk(refiners: &[Refiner], out: &mut HashMap<String, u64>) {
            for r in refiners {
                out.insert(r.value.clone().unwrap_or_else(|| r.label.clone()), r.count.max(0) as u64);
                walk(r.children.as_deref().unwrap_or(&[]), out);
            }
        }
        let groups = response
            .facets
            .iter()
            .map(|g| {
                let mut m = HashMap::new();
                walk(&g.facets, &mut m);
                m
            })
            .collect();
        Answer { total: response.total.max(0) as u64, groups }
    }

    /// The first difference between this (reference) answer and `other`, if any.
    pub fn difference(&self, other: &Answer) -> Option<String> {
        if self.total != other.total {
            return Some(format!("total {} ≠ {}", self.total, other.total));
        }
        for (g, shown) in self.groups.iter().enumerate() {
            for (value, count) in shown {
                let theirs = other.groups.get(g).and_then(|m| m.get(value)).copied().unwrap_or(0);
                if theirs != *count {
                    return Some(format!("group {g}, value {value}: count {count} ≠ {theirs}"));
                }
            }
        }
        None
    }
}

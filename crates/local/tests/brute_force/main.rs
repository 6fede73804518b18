//! The engine against a brute-force oracle: for many random corpora (hierarchical concepts, a second
//! search space, re-imported ids) and random queries, selections and facet settings, the total, the page
//! of ids and every facet group agree exactly; with the engine's default thresholds, and with thresholds so
//! low ([`LOWERED`]) that these small corpora take every path a large store takes, each of which the run
//! must have taken ([`SEARCH_PATHS`], [`SIMILAR_PATHS`]).

mod corpus;
mod explain;
mod oracle;

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use corpus::*;
use oracle::Clause;
use studio_local::{import_concepts, import_documents, EnginePath, SearchEngine, Store, Tuning};
use studio_model::{Config, FacetSetting, SearchRequest, SelectedFacet};

/// Thresholds under which a corpus of a few dozen documents takes the paths of a large store: words in 30 % of
/// the documents get common-term lists, any counting is shared with a second thread and its walks split in
/// halves, the packed values are made ahead, and the `text` plugin considers few terms and keeps fewer.
pub const LOWERED: Tuning = Tuning {
    common_terms_documents: 1,
    common_terms_share: 0.3,
    counting_threads: 2,
    shared_work: 1.0,
    pack_ahead: 1,
    text_terms: 3,
    text_terms_considered: 6,
    text_term_documents: Tuning::DEFAULT.text_term_documents,
};

/// The paths the search comparison must take with [`LOWERED`].
const SEARCH_PATHS: &[EnginePath] = &[
    EnginePath::CommonTermsListed,
    EnginePath::CommonTermsOnly,
    EnginePath::CommonTermsAndOneWalked,
    EnginePath::CountingSecondThread,
    EnginePath::CountingWalkHalved,
    EnginePath::CountingTogetherHalved,
    EnginePath::CountingTogether,
    EnginePath::PackedAhead,
    EnginePath::KeptMatchesReused,
];

/// The paths the similar documents' comparison must take with [`LOWERED`].
pub const SIMILAR_PATHS: &[EnginePath] =
    &[EnginePath::TextRowsFromLists, EnginePath::TextTermsCut, EnginePath::TextDocumentsPassedOver];

/// Times each path was taken, over the engines of a run.
#[derive(Default, Debug)]
pub struct Taken(HashMap<EnginePath, u64>);

impl Taken {
    /// Adds what `engine` took.
    pub fn add(&mut self, engine: &SearchEngine) {
        for path in EnginePath::ALL {
            *self.0.entry(path).or_default() += engine.paths_taken().count(path);
        }
    }

    /// The times `path` was taken.
    pub fn count(&self, path: EnginePath) -> u64 {
        self.0.get(&path).copied().unwrap_or(0)
    }

    /// Fails unless each of `paths` was taken.
    pub fn assert_took(&self, paths: &[EnginePath]) {
        let never: Vec<&EnginePath> = paths.iter().filter(|p| self.0.get(p).copied().unwrap_or(0) == 0).collect();
        assert!(never.is_empty(), "paths never taken: {never:?} (taken: {:?})", self.0);
    }
}

/// Each path of the engine is one the comparisons with lowered thresholds must take.
#[test]
fn every_path_is_checked() {
    for path in EnginePath::ALL {
        assert!(SEARCH_PATHS.contains(&path) || SIMILAR_PATHS.contains(&path), "{path:?} is checked by no run");
    }
}

const FIELDS: &[&str] =
    &["dyn_uri_topic", "dyn_uri_place", "dyn_lit_author", "dyn_flt_sentiment", "dyn_uri_all_concepts"];

fn random_query(rng: &mut Rng) -> (String, Vec<Clause>) {
    let mut input = Vec::new();
    let mut clauses = Vec::new();
    for _ in 0..rng.below(4) {
        let w = rng.pick(WORDS).to_string();
        let w2 = rng.pick(WORDS).to_string();
        match rng.below(6) {
            0 => {
                input.push(format!("\"{w} {w2}\""));
                clauses.push(Clause { tokens: oracle::tokens(&format!("{w} {w2}")), prefix: false });
            }
            1 => {
                let cut: String = w.chars().take(2 + rng.below(3)).collect();
                input.push(format!("{cut}*"));
                clauses.push(Clause { tokens: oracle::tokens(&cut), prefix: true });
            }
            2 => {
                // Words joined by punctuation are separate words.
                input.push(format!("{w}-{w2}"));
                clauses.push(Clause { tokens: oracle::tokens(&w), prefix: false });
                clauses.push(Clause { tokens: oracle::tokens(&w2), prefix: false });
            }
            3 => {
                input.push(w.to_uppercase());
                clauses.push(Clause { tokens: oracle::tokens(&w), prefix: false });
            }
            4 => input.push(rng.pick(&["*", "\"\"", "--", "(", ":", "^"]).to_string()),
            5 if rng.chance(30) => {
                let op = rng.pick(&["NEAR(", "OR", "AND", "NOT", "title:alpha"]);
                input.push(op.to_string());
                for t in oracle::tokens(op) {
                    clauses.push(Clause { tokens: vec![t], prefix: false });
                }
            }
            _ => {
                input.push(w.clone());
                clauses.push(Clause { tokens: oracle::tokens(&w), prefix: false });
            }
        }
    }
    if rng.chance(20) {
        // A quote without a partner (only ever the last one, so that earlier quotes pair up) is literal.
        let w = rng.pick(WORDS);
        input.push(format!("\"{w}"));
        clauses.push(Clause { tokens: oracle::tokens(w), prefix: false });
    }
    (input.join(" "), clauses)
}

fn random_selection(rng: &mut Rng, c: &Corpus) -> Vec<SelectedFacet> {
    let mut out = Vec::new();
    for _ in 0..rng.below(3) {
        let field = if rng.chance(5) { "dyn_lit_unknown".to_string() } else { rng.pick(FIELDS).to_string() };
        let (label, value) = match (field.as_str(), rng.below(10)) {
            (_, 0) => (None, Some("urn:none".to_string())),
            (_, 1) => (None, None),
            ("dyn_lit_author", _) => (Some(rng.pick(AUTHORS).to_string()), None),
            ("dyn_flt_sentiment", _) => (Some(rng.pick(SENTIMENTS).to_string()), None),
            ("dyn_uri_place", k) if k < 4 => (Some(place_label(rng.below(PLACE_PARENT.len()))), None),
            ("dyn_uri_place", _) => (None, Some(place_uri(rng.below(PLACE_PARENT.len())))),
            (_, k) if k < 3 => (Some(topic_label(rng.below(TOPICS))), None),
            _ => (Some("ignored when value is set".into()), Some(topic_uri(rng.below(TOPICS)))),
        };
        out.push(SelectedFacet { field, label, value });
    }
    let _ = c;
    out
}

fn random_config(rng: &mut Rng) -> Config {
    let mut config = Config { search_space: "s".into(), ..Default::default() };
    config.result.items_per_page = 1 + rng.below(7) as i32;
    let mut fields: Vec<String> = FIELDS.iter().map(|f| f.to_string()).collect();
    fields.push("dyn_lit_nothing".into());
    for (i, f) in fields.into_iter().enumerate() {
        let uri = if rng.chance(30) { format!("urn:searchstudio:field:{f}") } else { f };
        config.filter.facets_to_show.push(FacetSetting {
            ref_id: uri.clone(),
            uri,
            title: format!("Facet {i}"),
            show: rng.chance(85),
            facet_mode: rng.pick(&["flat", "hierarchical"]).into(),
            hierarchical_depth: 1 + rng.below(4) as i32,
            maximum_terms: 1 + rng.below(6) as i32,
            sorting: rng.pick(&["count", "alphabetical"]).into(),
            sorting_order: rng.pick(&["asc", "desc"]).into(),
            ..Default::default()
        });
    }
    config
}

pub(crate) fn load(c: &Corpus) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_dir(dir.path()).unwrap();
    import_concepts(&store, c.concept_lines.join("\n").as_bytes(), &mut |_| {}).unwrap();
    for (space, line) in &c.doc_lines {
        let report = import_documents(&store, space, line.as_bytes(), &mut |_| {}).unwrap();
        assert_eq!(report.imported, 1, "{:?}", report.errors);
    }
    (dir, store)
}

#[test]
fn engine_agrees_with_brute_force() {
    let checked_ranked = compare_searches(0..60, Tuning::default(), &mut Taken::default());
    assert!(checked_ranked > 50, "the runs compared enough ranked pages ({checked_ranked})");
}

/// With thresholds lowered, the engine takes each path of a large store, and still agrees.
#[test]
fn engine_with_lowered_thresholds_agrees_with_brute_force() {
    let mut taken = Taken::default();
    let checked_ranked = compare_searches(100..160, LOWERED, &mut taken);
    assert!(checked_ranked > 50, "the runs compared enough ranked pages ({checked_ranked})");
    taken.assert_took(SEARCH_PATHS);
}

/// With one counting thread (as the benchmark times the engine), no work is shared however large, and the
/// answers agree.
#[test]
fn engine_on_one_counting_thread_agrees_with_brute_force() {
    let mut taken = Taken::default();
    compare_searches(200..215, Tuning { counting_threads: 1, ..LOWERED }, &mut taken);
    for path in [EnginePath::CountingSecondThread, EnginePath::CountingWalkHalved, EnginePath::CountingTogetherHalved] {
        assert_eq!(taken.count(path), 0, "{path:?} on one thread");
    }
    taken.assert_took(&[EnginePath::CountingTogether, EnginePath::CommonTermsOnly]);
}

/// Compares the engine's searches with `tuning` against the oracle's over the corpora of `seeds`, noting the
/// paths taken in `taken`; returns how many ranked pages of several documents were compared.
fn compare_searches(seeds: Range<u64>, tuning: Tuning, taken: &mut Taken) -> usize {
    let mut checked_ranked = 0;
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let c = corpus(&mut rng);
        let (_dir, store) = load(&c);
        let engine = SearchEngine::with_tuning(tuning);
        let mut conn = store.conn().unwrap();
        let in_space: Vec<usize> = (0..c.docs.len()).filter(|&i| c.docs[i].space == "s").collect();
        let mut previous = None;
        for q in 0..15 {
            // Every third search repeats the words of the one before with another selection and page, as a
            // designer clicking refiners does: the engine answers it from the text matches it kept.
            let (input, clauses) = match previous.take() {
                Some(words) if q % 3 == 2 => words,
                _ => random_query(&mut rng),
            };
            previous = Some((input.clone(), clauses.clone()));
            let selected = random_selection(&mut rng, &c);
            let config = random_config(&mut rng);
            let total_guess = in_space.len();
            let start = if rng.chance(50) { 0 } else { rng.below(total_guess + 2) };
            let request = SearchRequest {
                input: Some(input.clone()),
                selected_facets: selected.clone(),
                start: Some(start as i32),
                config: None,
            };
            let got = engine.search(&mut conn, &config, &request).unwrap();
            let ctx = format!("seed {seed} query {q}: input {input:?} selected {selected:?}");

            // Expected matches and order.
            let scores =
                if clauses.is_empty() { vec![Some(0.0); c.docs.len()] } else { oracle::scores(&c.docs, &clauses) };
            let base: BTreeSet<usize> = in_space.iter().copied().filter(|&i| scores[i].is_some()).collect();
            let mut per_field: Vec<(String, BTreeSet<usize>, Vec<usize>)> = Vec::new();
            for item in &selected {
                if !per_field.iter().any(|f| f.0 == item.field) {
                    per_field.push((item.field.clone(), BTreeSet::new(), Vec::new()));
                }
                let entry = per_field.iter_mut().find(|f| f.0 == item.field).unwrap();
                if let Some(field) = oracle::field(&c, &item.field) {
                    for v in oracle::matched(&field, item) {
                        entry.1.extend(field.values[v].3.iter().copied());
                        if !entry.2.contains(&v) {
                            entry.2.push(v);
                        }
                    }
                }
            }
            let result: BTreeSet<usize> =
                base.iter().copied().filter(|d| per_field.iter().all(|f| f.1.contains(d))).collect();
            assert_eq!(got.total, result.len() as i64, "total, {ctx}");
            let mut ordered: Vec<usize> = result.into_iter().collect();
            ordered.sort_by(|&a, &b| {
                let (da, db) = (&c.docs[a], &c.docs[b]);
                let by_score = if clauses.is_empty() {
                    std::cmp::Ordering::Equal
                } else {
                    scores[a].unwrap().total_cmp(&scores[b].unwrap())
                };
                by_score.then(db.date.total_cmp(&da.date)).then(da.id.cmp(&db.id))
            });
            let page: Vec<&str> = ordered
                .iter()
                .skip(start)
                .take(config.result.items_per_page as usize)
                .map(|&i| c.docs[i].id.as_str())
                .collect();
            let got_page: Vec<&str> = got.result.iter().map(|d| d.id.as_str()).collect();
            assert_eq!(got_page, page, "page, {ctx}");
            if !clauses.is_empty() && page.len() > 1 {
                checked_ranked += 1;
            }

            // Expected facet groups.
            let shown: Vec<&FacetSetting> = config.filter.facets_to_show.iter().filter(|s| s.show).collect();
            assert_eq!(got.facets.len(), shown.len(), "{ctx}");
            for (s, group) in shown.into_iter().zip(&got.facets) {
                let id = s.uri.strip_prefix("urn:searchstudio:field:").unwrap_or(&s.uri);
                let Some(field) = oracle::field(&c, id) else {
                    assert_eq!(group.field, s.uri, "{ctx}");
                    assert!(group.facets.is_empty(), "{ctx}");
                    continue;
                };
                let mut scope = base.clone();
                let mut sel: Vec<usize> = Vec::new();
                for f in &per_field {
                    if f.0 == id {
                        sel = f.2.clone()
                    } else {
                        scope.retain(|d| f.1.contains(d))
                    }
                }
                let expected = oracle::group(&field, s, &scope, &sel);
                assert_eq!(
                    group, &expected,
                    "facet {} ({} {} {} max {} depth {}), {ctx}",
                    id, s.facet_mode, s.sorting, s.sorting_order, s.maximum_terms, s.hierarchical_depth
                );
            }
        }
        taken.add(&engine);
    }
    checked_ranked
}

#[test]
fn facet_health_agrees_with_brute_force() {
    for seed in 0..40u64 {
        let mut rng = Rng::new(seed);
        let c = corpus(&mut rng);
        let (_dir, store) = load(&c);
        let engine = SearchEngine::new();
        let mut conn = store.conn().unwrap();
        let got = engine.facet_health(&mut conn, "s").unwrap();
        assert_eq!(got.search_space, "s");
        assert_eq!(got.documents, c.docs.iter().filter(|d| d.space == "s").count() as i64, "seed {seed}");
        let listed = studio_local::search_spaces(&conn).unwrap().into_iter().find(|s| s.id == "s").unwrap();
        let fields: Vec<&str> = got.fields.iter().map(|f| f.field.as_str()).collect();
        let expected_fields: Vec<&str> = listed.fields.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(fields, expected_fields, "seed {seed}: the fields as listed");
        for f in &got.fields {
            let counted = (f.documents, f.values, f.depth, f.values_by_depth.clone(), f.largest_value_documents);
            assert_eq!(counted, oracle::health(&c, &f.field), "seed {seed}: field {}", f.field);
        }
        let unknown = engine.facet_health(&mut conn, "no-such-space").unwrap_err();
        assert!(
            matches!(unknown, studio_local::search::EngineError::NotFound(ref m) if m.contains("no-such-space")),
            "{unknown:?}"
        );
    }
}

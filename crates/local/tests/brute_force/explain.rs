//! "Why this document?" against brute force: for random corpora and source documents, each similar or
//! recommended document's reasons are exactly the shared concepts (and broader, narrower, sibling ones) or
//! authors counted from the corpus, and the text plugin's distinctive words both documents have, in the order of
//! their part of the score; the `text` plugin's documents are those the oracle ranks by bm25 over those words.
//! Asking for explanations changes no result. Run with the default thresholds and with lowered ones.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::corpus::*;
use crate::oracle;
use crate::{load, Taken, LOWERED, SIMILAR_PATHS};
use studio_local::{SearchEngine, Tuning};
use studio_model::{Config, Document, RecommendQuery, SimilarQuery, MAX_REASONS};

type Reasons = Vec<(String, String, String)>;

/// The documents of space `s` by id (the last imported version of each).
fn in_space(c: &Corpus) -> BTreeMap<&str, usize> {
    c.docs.iter().enumerate().filter(|(_, d)| d.space == "s").map(|(i, d)| (d.id.as_str(), i)).collect()
}

/// Reasons from weighted concept values of the all-concepts field that `result` carries, best first.
fn scored(c: &Corpus, weights: &BTreeMap<usize, (f64, &str)>, result: usize) -> Reasons {
    let field = oracle::field(c, "dyn_uri_all_concepts").expect("the corpus has concepts");
    let n = c.docs.iter().filter(|d| d.space == "s").count() as f64;
    let mut out: Vec<(f64, (String, String, String))> = weights
        .iter()
        .filter(|(&v, _)| field.values[v].3.contains(&result))
        .map(|(&v, &(w, kind))| {
            let value = &field.values[v];
            let idf = (1.0 + n / value.3.len().max(1) as f64).ln();
            (w * idf, (kind.to_owned(), value.1.clone().unwrap(), value.0.clone()))
        })
        .collect();
    out.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1 .1.cmp(&b.1 .1)));
    out.into_iter().take(MAX_REASONS).map(|(_, r)| r).collect()
}

/// The source's own concept values in the all-concepts field.
fn own(c: &Corpus, source: usize) -> BTreeSet<usize> {
    let field = oracle::field(c, "dyn_uri_all_concepts").unwrap();
    let d = &c.docs[source];
    let uris: BTreeSet<String> =
        d.topics.iter().map(|&t| topic_uri(t)).chain(d.places.iter().map(|&p| place_uri(p))).collect();
    (0..field.values.len()).filter(|&v| uris.contains(field.values[v].1.as_ref().unwrap())).collect()
}

fn concepts_oracle(c: &Corpus, source: usize, result: usize) -> Reasons {
    let field = oracle::field(c, "dyn_uri_all_concepts").unwrap();
    let own = own(c, source);
    let mut weights: BTreeMap<usize, (f64, &str)> = own.iter().map(|&v| (v, (1.0, "concept"))).collect();
    let mut stack: Vec<usize> = own.iter().copied().collect();
    while let Some(v) = stack.pop() {
        for &p in &field.values[v].2 {
            if let std::collections::btree_map::Entry::Vacant(e) = weights.entry(p) {
                e.insert((0.5, "broader-concept"));
                stack.push(p);
            }
        }
    }
    scored(c, &weights, result)
}

fn related_oracle(c: &Corpus, source: usize, result: usize) -> Reasons {
    let field = oracle::field(c, "dyn_uri_all_concepts").unwrap();
    let values = &field.values;
    let children = |v: usize| (0..values.len()).filter(move |&x| values[x].2.contains(&v));
    let own = own(c, source);
    // By closeness: narrower, then sibling, then broader.
    let mut rank: BTreeMap<usize, u8> = BTreeMap::new();
    let mut note = |v: usize, r: u8| {
        let known = rank.entry(v).or_insert(r);
        *known = (*known).max(r);
    };
    for &v in &own {
        for &p in &field.values[v].2 {
            note(p, 0);
            for s in children(p) {
                note(s, 1);
            }
        }
        for ch in children(v) {
            note(ch, 2);
        }
    }
    let weights: BTreeMap<usize, (f64, &str)> = rank
        .into_iter()
        .filter(|(v, _)| !own.contains(v))
        .map(|(v, r)| (v, [(0.5, "broader-concept"), (1.0, "sibling-concept"), (1.0, "narrower-concept")][r as usize]))
        .collect();
    scored(c, &weights, result)
}

fn authors_oracle(c: &Corpus, source: usize, result: usize) -> Reasons {
    let mine: BTreeSet<&String> = c.docs[source].authors.iter().collect();
    let theirs: BTreeSet<&String> = c.docs[result].authors.iter().collect();
    let shared: BTreeSet<&&String> = mine.intersection(&theirs).collect();
    shared.into_iter().take(MAX_REASONS).map(|a| ("author".to_owned(), (*a).clone(), (*a).clone())).collect()
}

fn reasons(d: &Document) -> Reasons {
    let e = d.explanation.as_ref().unwrap_or_else(|| panic!("{} has no explanation", d.id));
    e.reasons.iter().map(|r| (r.kind.clone(), r.value.clone(), r.label.clone())).collect()
}

fn words(d: &Doc) -> BTreeSet<String> {
    [&d.title, &d.description, &d.content].iter().flat_map(|t| oracle::tokens(t)).collect()
}

/// Gives every document a body of a few words from a larger vocabulary, so that many words are distinctive
/// (the corpus's own words are in too many documents for the `text` plugin to use them). A document imported
/// twice keeps the body of its last line.
fn with_rare_words(c: &mut Corpus, rng: &mut Rng) {
    let vocabulary: Vec<String> = (0..40).map(|i| format!("rare{i}")).collect();
    for (space, line) in &mut c.doc_lines {
        let mut doc: serde_json::Value = serde_json::from_str(line).unwrap();
        let content: Vec<String> = (0..rng.below(7)).map(|_| rng.pick(&vocabulary)).collect();
        let content = content.join(" ");
        doc["content"] = content.clone().into();
        *line = doc.to_string();
        if let Some(d) = c.docs.iter_mut().find(|d| d.space == *space && d.id == doc["id"]) {
            d.content = content;
        }
    }
}

/// The `text` plugin's words of `source` with their weights, best first: of its words of three letters or
/// more (the corpus has no stopword), the `text_terms_considered` most frequent (equal counts by word), by
/// count times ln(documents / documents with the word), among words that at least two but at most a quarter
/// of the store's documents have (and, past `text_term_documents` documents, at most a twentieth); the
/// `text_terms` best.
fn distinctive(c: &Corpus, source: usize, tuning: &Tuning) -> Vec<(f64, String)> {
    let d = &c.docs[source];
    let mut tf: BTreeMap<String, u32> = BTreeMap::new();
    for t in [&d.title, &d.description, &d.content].iter().flat_map(|t| oracle::tokens(t)) {
        if t.chars().count() >= 3 {
            *tf.entry(t).or_default() += 1;
        }
    }
    let mut frequent: Vec<(String, u32)> = tf.into_iter().collect();
    frequent.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    frequent.truncate(tuning.text_terms_considered);
    let total = c.docs.len() as f64;
    let few = tuning.text_term_documents as f64;
    let mut weighted: Vec<(f64, String)> = frequent
        .into_iter()
        .filter_map(|(term, count)| {
            let df = c.docs.iter().filter(|other| words(other).contains(&term)).count() as f64;
            (df >= 2.0 && df <= total / 4.0 && (df <= few || df <= total / 20.0))
                .then(|| (f64::from(count) * (total / df).ln(), term))
        })
        .collect();
    weighted.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    weighted.truncate(tuning.text_terms);
    weighted
}

/// The ids of the `number` documents of space `s` most similar to `source` by the `text` plugin: those having
/// any of its distinctive words, by bm25 over them, equal scores in result order (date descending, then id).
fn similar_oracle(c: &Corpus, source: usize, number: usize, tuning: &Tuning) -> Vec<String> {
    let terms: Vec<String> = distinctive(c, source, tuning).into_iter().map(|(_, t)| t).collect();
    if terms.is_empty() {
        return Vec::new();
    }
    let scores = oracle::scores_of_any(&c.docs, &terms);
    let mut ranked: Vec<(f64, usize)> = (0..c.docs.len())
        .filter(|&i| i != source && c.docs[i].space == "s")
        .filter_map(|i| Some((scores[i]?, i)))
        .collect();
    ranked.sort_by(|a, b| {
        let (da, db) = (&c.docs[a.1], &c.docs[b.1]);
        a.0.total_cmp(&b.0).then(db.date.total_cmp(&da.date)).then(da.id.cmp(&db.id))
    });
    ranked.into_iter().take(number).map(|(_, i)| c.docs[i].id.clone()).collect()
}

fn text_oracle(c: &Corpus, source: usize, result: usize, tuning: &Tuning) -> Reasons {
    let theirs = words(&c.docs[result]);
    distinctive(c, source, tuning)
        .into_iter()
        .filter(|(_, term)| theirs.contains(term))
        .take(MAX_REASONS)
        .map(|(_, term)| ("term".to_owned(), term.clone(), term))
        .collect()
}

#[test]
fn explanations_agree_with_brute_force() {
    let (explained, words_shared) = compare_similar(0..30, |_| Tuning::default(), &[20], &mut Taken::default());
    assert!(explained > 500, "enough explanations compared ({explained})");
    assert!(words_shared > 300, "enough documents similar by words compared ({words_shared})");
}

/// With thresholds lowered (and, for every other corpus, only words in at most a twentieth of the store
/// usable, as past 1,000 documents by default), the `text` plugin takes each path of a large store, and still
/// agrees; so do the explanations.
#[test]
fn explanations_with_lowered_thresholds_agree_with_brute_force() {
    let mut taken = Taken::default();
    let lowered = |seed: u64| Tuning {
        text_term_documents: if seed.is_multiple_of(2) { 1 } else { Tuning::DEFAULT.text_term_documents },
        ..LOWERED
    };
    let (explained, words_shared) = compare_similar(100..130, lowered, &[20, 2, 1], &mut taken);
    assert!(explained > 300, "enough explanations compared ({explained})");
    assert!(words_shared > 100, "enough documents similar by words compared ({words_shared})");
    taken.assert_took(SIMILAR_PATHS);
}

/// Compares the similar documents, recommendations and their explanations of an engine with the thresholds
/// `tuning` gives each seed against the oracle's, over the corpora of `seeds` (asking the `text` plugin for
/// each of `numbers` documents in turn), noting the paths taken in `taken`; returns how many explanations were
/// compared, and how many of them gave words shared.
fn compare_similar(
    seeds: Range<u64>,
    tuning_of: impl Fn(u64) -> Tuning,
    numbers: &[i32],
    taken: &mut Taken,
) -> (usize, usize) {
    let (mut explained, mut words_shared) = (0, 0);
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut c = corpus(&mut rng);
        with_rare_words(&mut c, &mut rng);
        let (_dir, store) = load(&c);
        let tuning = tuning_of(seed);
        let engine = SearchEngine::with_tuning(tuning);
        let mut conn = store.conn().unwrap();
        // The index built, the store's upkeep (which counts every term's rows ahead when the store is large
        // enough) is waited for, so that the comparison reads the kept counts where the thresholds allow them.
        engine.index(&mut conn, "s").unwrap();
        engine.settle();
        let ids = in_space(&c);
        let mut config = Config { search_space: "s".into(), ..Default::default() };
        config.details.number_of_recommendations = 20;
        config.details.number_of_similar = 3;
        for (k, (&id, &source)) in ids.iter().take(6).enumerate() {
            let ctx = format!("seed {seed} source {id}");
            let number = numbers[k % numbers.len()];
            for plugin in ["concepts", "text"] {
                let query = |explain| SimilarQuery {
                    uri: id.to_owned(),
                    number: Some(number),
                    similarity: Some(plugin.to_owned()),
                    explain,
                };
                let plain = engine.similar(&mut conn, &config, &query(false)).unwrap();
                let got = engine.similar(&mut conn, &config, &query(true)).unwrap();
                assert!(plain.iter().all(|d| d.explanation.is_none()), "{ctx}: none unless asked");
                let plain_ids: Vec<&str> = plain.iter().map(|d| d.id.as_str()).collect();
                assert_eq!(got.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), plain_ids, "{ctx}: same result");
                if plugin == "text" {
                    let expected = similar_oracle(&c, source, number as usize, &tuning);
                    assert_eq!(plain_ids, expected, "{ctx}: the text plugin's {number} most similar");
                }
                for d in &got {
                    let result = ids[d.id.as_str()];
                    assert_eq!(d.explanation.as_ref().unwrap().plugin, plugin);
                    if plugin == "concepts" {
                        assert_eq!(reasons(d), concepts_oracle(&c, source, result), "{ctx}: {plugin} {}", d.id);
                        assert!(!reasons(d).is_empty(), "{ctx}: a similar document shares something");
                    } else {
                        assert_eq!(reasons(d), text_oracle(&c, source, result, &tuning), "{ctx}: {plugin} {}", d.id);
                        words_shared += usize::from(!reasons(d).is_empty());
                    }
                    explained += 1;
                }
            }
            for recommender in ["related-concepts", "same-author"] {
                let query =
                    |explain| RecommendQuery { uri: id.to_owned(), recommender: recommender.to_owned(), explain };
                let plain = engine.recommend(&mut conn, &config, &query(false)).unwrap().result;
                let got = engine.recommend(&mut conn, &config, &query(true)).unwrap().result;
                assert_eq!(
                    got.iter().map(|d| &d.id).collect::<Vec<_>>(),
                    plain.iter().map(|d| &d.id).collect::<Vec<_>>(),
                    "{ctx}: same result"
                );
                for d in &got {
                    let result = ids[d.id.as_str()];
                    let expected = if recommender == "same-author" {
                        authors_oracle(&c, source, result)
                    } else {
                        related_oracle(&c, source, result)
                    };
                    assert_eq!(reasons(d), expected, "{ctx}: {recommender} {}", d.id);
                    explained += 1;
                }
            }
        }
        taken.add(&engine);
    }
    (explained, words_shared)
}

//! "Why this document?" against brute force: for random corpora and source documents, each similar or
//! recommended document's reasons are exactly the shared concepts (and broader, narrower, sibling ones) or
//! authors counted from the corpus, and the text plugin's distinctive words both documents have, in the order of
//! their part of the score. Asking for explanations changes no result.

use std::collections::{BTreeMap, BTreeSet};

use crate::corpus::*;
use crate::load;
use crate::oracle;
use studio_local::SearchEngine;
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

/// The `text` plugin's words of `source` with their weights, best first: its words of three letters or more
/// (the corpus has no stopword) by count times ln(documents / documents with the word), among words that at
/// least two but at most a quarter of the store's documents have (and, past 1,000 documents, at most a
/// twentieth); the 12 best.
fn distinctive(c: &Corpus, source: usize) -> Vec<(f64, String)> {
    let d = &c.docs[source];
    let mut tf: BTreeMap<String, u32> = BTreeMap::new();
    for t in [&d.title, &d.description, &d.content].iter().flat_map(|t| oracle::tokens(t)) {
        if t.chars().count() >= 3 {
            *tf.entry(t).or_default() += 1;
        }
    }
    let total = c.docs.len() as f64;
    let mut weighted: Vec<(f64, String)> = tf
        .into_iter()
        .filter_map(|(term, count)| {
            let df = c.docs.iter().filter(|other| words(other).contains(&term)).count() as f64;
            (df >= 2.0 && df <= total / 4.0 && (df <= 1000.0 || df <= total / 20.0))
                .then(|| (f64::from(count) * (total / df).ln(), term))
        })
        .collect();
    weighted.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    weighted.truncate(12);
    weighted
}

fn text_oracle(c: &Corpus, source: usize, result: usize) -> Reasons {
    let theirs = words(&c.docs[result]);
    distinctive(c, source)
        .into_iter()
        .filter(|(_, term)| theirs.contains(term))
        .take(MAX_REASONS)
        .map(|(_, term)| ("term".to_owned(), term.clone(), term))
        .collect()
}

#[test]
fn explanations_agree_with_brute_force() {
    let (mut explained, mut words_shared) = (0, 0);
    for seed in 0..30u64 {
        let mut rng = Rng::new(seed);
        let mut c = corpus(&mut rng);
        with_rare_words(&mut c, &mut rng);
        let (_dir, store) = load(&c);
        let engine = SearchEngine::new();
        let mut conn = store.conn().unwrap();
        let ids = in_space(&c);
        let mut config = Config { search_space: "s".into(), ..Default::default() };
        config.details.number_of_recommendations = 20;
        config.details.number_of_similar = 3;
        for (&id, &source) in ids.iter().take(6) {
            let ctx = format!("seed {seed} source {id}");
            for plugin in ["concepts", "text"] {
                let query = |explain| SimilarQuery {
                    uri: id.to_owned(),
                    number: Some(20),
                    similarity: Some(plugin.to_owned()),
                    explain,
                };
                let plain = engine.similar(&mut conn, &config, &query(false)).unwrap();
                let got = engine.similar(&mut conn, &config, &query(true)).unwrap();
                assert!(plain.iter().all(|d| d.explanation.is_none()), "{ctx}: none unless asked");
                let plain_ids: Vec<&str> = plain.iter().map(|d| d.id.as_str()).collect();
                assert_eq!(got.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), plain_ids, "{ctx}: same result");
                for d in &got {
                    let result = ids[d.id.as_str()];
                    assert_eq!(d.explanation.as_ref().unwrap().plugin, plugin);
                    if plugin == "concepts" {
                        assert_eq!(reasons(d), concepts_oracle(&c, source, result), "{ctx}: {plugin} {}", d.id);
                        assert!(!reasons(d).is_empty(), "{ctx}: a similar document shares something");
                    } else {
                        assert_eq!(reasons(d), text_oracle(&c, source, result), "{ctx}: {plugin} {}", d.id);
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
    }
    assert!(explained > 500, "enough explanations compared ({explained})");
    assert!(words_shared > 300, "enough documents similar by words compared ({words_shared})");
}

//! Random small corpora with a hierarchical concept scheme, kept both as import lines and as a plain model
//! that the oracle reads.

use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// The seeded generator every random choice of a case is drawn from, so that a failing seed replays.
pub struct Rng(ChaCha8Rng);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0.gen_range(0..n.max(1))
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

pub const WORDS: &[&str] =
    &["alpha", "beta", "gamma", "delta", "Alpha", "café", "CAFE", "résumé", "resume", "omega", "zeta", "betamax"];
pub const AUTHORS: &[&str] = &["Ann", "bob", "Çem", "dora", "Eve", "ann"];
pub const SENTIMENTS: &[&str] = &["-0.5", "0.25", "0.9"];
pub const TOPICS: usize = 12;
/// Places form a fixed two-tree hierarchy declared only by nesting: parent of each place, if any.
pub const PLACE_PARENT: &[Option<usize>] = &[None, Some(0), Some(0), None, Some(3), Some(4)];

pub fn topic_uri(i: usize) -> String {
    format!("urn:t:{i}")
}
pub fn place_uri(i: usize) -> String {
    format!("urn:p:{i}")
}
pub fn topic_label(i: usize) -> String {
    format!("Topic {}", (b'A' + (i as u8 * 7) % 26) as char)
}
pub fn place_label(i: usize) -> String {
    format!("place {i}")
}

/// One document as the oracle sees it (after replacement by a re-import).
#[derive(Clone, Debug)]
pub struct Doc {
    pub space: &'static str,
    pub id: String,
    pub title: String,
    pub description: String,
    pub content: String,
    pub date: f64,
    /// Every annotated topic / place (direct, including the nested path's refiners).
    pub topics: Vec<usize>,
    pub places: Vec<usize>,
    pub authors: Vec<String>,
    pub sentiment: Option<String>,
}

pub struct Corpus {
    /// Broader topics of each topic (global scheme).
    pub topic_parents: Vec<Vec<usize>>,
    pub docs: Vec<Doc>,
    pub doc_lines: Vec<(&'static str, String)>,
    pub concept_lines: Vec<String>,
    /// Whether any line imported into space `s` had a sentiment group (the field then exists, even if the
    /// document carrying it was replaced since).
    pub sentiment_field: bool,
}

fn text(rng: &mut Rng, max: usize) -> String {
    let n = rng.below(max + 1);
    let mut words: Vec<String> = (0..n).map(|_| rng.pick(WORDS).to_string()).collect();
    if rng.chance(20) && !words.is_empty() {
        words[0] = format!("{}-{}", words[0], rng.pick(WORDS));
    }
    words.join(if rng.chance(20) { ", " } else { " " })
}

fn path(parents: &dyn Fn(usize) -> Option<usize>, leaf: usize) -> Vec<usize> {
    let mut p = vec![leaf];
    while let Some(up) = parents(*p.last().unwrap()) {
        if p.contains(&up) {
            break;
        }
        p.push(up);
    }
    p.reverse();
    p
}

fn nested(uris: &[(String, String)]) -> Value {
    let mut node: Option<Value> = None;
    for (uri, label) in uris.iter().rev() {
        let children = node.take().map(|n| json!([n])).unwrap_or(Value::Null);
        node = Some(json!({"count": 1, "label": label, "value": uri, "children": children}));
    }
    node.unwrap_or(Value::Null)
}

fn make_doc(rng: &mut Rng, space: &'static str, id: String, topic_parents: &[Vec<usize>]) -> (Doc, String) {
    let dates = [1_000.0, 2_000.0, 3_000.0, 4_000.0];
    let mut doc = Doc {
        space,
        id,
        title: text(rng, 4),
        description: text(rng, 6),
        content: text(rng, 8),
        date: rng.pick(&dates),
        topics: Vec::new(),
        places: Vec::new(),
        authors: Vec::new(),
        sentiment: rng.chance(70).then(|| rng.pick(SENTIMENTS).to_string()),
    };
    let mut topic_refiners = Vec::new();
    for _ in 0..rng.below(3) {
        let t = rng.below(TOPICS);
        if rng.chance(30) {
            let p = path(&|x| topic_parents[x].first().copied(), t);
            topic_refiners.push(nested(&p.iter().map(|&x| (topic_uri(x), topic_label(x))).collect::<Vec<_>>()));
            doc.topics.extend(p);
        } else {
            topic_refiners.push(json!({"count": 1, "label": topic_label(t), "value": topic_uri(t), "children": null}));
            doc.topics.push(t);
        }
    }
    let mut place_refiners = Vec::new();
    if rng.chance(70) {
        let p = path(&|x| PLACE_PARENT[x], rng.below(PLACE_PARENT.len()));
        place_refiners.push(nested(&p.iter().map(|&x| (place_uri(x), place_label(x))).collect::<Vec<_>>()));
        doc.places.extend(p);
    }
    for _ in 0..rng.below(3) {
        let a = rng.pick(AUTHORS).to_string();
        if !doc.authors.contains(&a) {
            doc.authors.push(a);
        }
    }
    let mut groups = vec![
        json!({"field": "dyn_uri_topic", "label": "Topic", "facets": topic_refiners}),
        json!({"field": "dyn_uri_place", "label": "Place", "facets": place_refiners}),
        json!({"field": "dyn_lit_author", "label": "Author",
               "facets": doc.authors.iter().map(|a| json!({"count": 1, "label": a, "value": null})).collect::<Vec<_>>()}),
        json!({"field": "dyn_uri_all_concepts", "label": "ignored", "facets": [{"label": "urn:bogus", "value": "Bogus"}]}),
    ];
    if let Some(s) = &doc.sentiment {
        groups.push(json!({"field": "dyn_flt_sentiment", "label": "Sentiment", "facets": [{"count": 1, "label": s, "value": null}]}));
    }
    let line = json!({
        "id": doc.id, "link": format!("https://x/{}", doc.id), "title": doc.title, "description": doc.description,
        "content": doc.content, "date": doc.date, "type": "User", "facetList": groups,
    });
    (doc, line.to_string())
}

/// A random corpus: about 10-50 documents in space `s`, a few in space `other`, some ids imported twice.
pub fn corpus(rng: &mut Rng) -> Corpus {
    let mut topic_parents: Vec<Vec<usize>> = vec![Vec::new(); TOPICS];
    for (t, parents) in topic_parents.iter_mut().enumerate().skip(3) {
        parents.push(rng.below(t));
        if rng.chance(10) {
            let second = rng.below(t);
            if !parents.contains(&second) {
                parents.push(second);
            }
        }
    }
    let concept_lines = (0..TOPICS)
        .map(|t| json!({"uri": topic_uri(t), "label": topic_label(t), "broader": topic_parents[t].iter().map(|&p| topic_uri(p)).collect::<Vec<_>>()}).to_string())
        .collect();
    let mut docs: Vec<Doc> = Vec::new();
    let mut doc_lines = Vec::new();
    let mut sentiment_field = false;
    let n = 10 + rng.below(40);
    for k in 0..n + 5 {
        let (space, id) = if k >= n { ("other", format!("o{k}")) } else { ("s", format!("d{:02}", rng.below(n * 2))) };
        let (doc, line) = make_doc(rng, space, id, &topic_parents);
        sentiment_field |= space == "s" && doc.sentiment.is_some();
        docs.retain(|d| !(d.space == doc.space && d.id == doc.id));
        docs.push(doc);
        doc_lines.push((space, line));
    }
    Corpus { topic_parents, docs, doc_lines, concept_lines, sentiment_field }
}

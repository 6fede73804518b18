//! Generating demo documents: a seeded ChaCha8 generator (a portable algorithm whose output is fixed by
//! its seed, so the corpus is identical on every machine) and the assembly of titles, summaries, full
//! texts, facets and images.

use rand::seq::index;
use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use studio_model::{Document, FacetGroup, Refiner};

use super::scheme::{concept_uri, Tree, REGIONS, TOPICS};
use super::words::{AUTHORS, COMPANIES, CONTEXTS, SENTENCES, TITLES};

/// The demo's random source, with the few draws the assembly below needs.
pub(crate) struct Rng(ChaCha8Rng);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number in `0..n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0.gen_range(0..n.max(1))
    }

    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// `k` distinct indices below `n`, in random order.
    pub(crate) fn distinct(&mut self, k: usize, n: usize) -> Vec<usize> {
        index::sample(&mut self.0, n, k.min(n)).into_vec()
    }

    /// A float in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        self.0.gen()
    }
}

/// First and last date of the corpus: 2019-01-01 and 2024-12-31 (epoch milliseconds).
const FIRST_DATE: f64 = 1_546_300_800_000.0;
const LAST_DATE: f64 = 1_735_603_200_000.0;

/// A leaf concept of a three-level tree, or (one time in eight) a second-level one.
fn pick_concept(rng: &mut Rng, tree: Tree) -> &'static str {
    let (_, seconds) = rng.pick(tree);
    let (second, thirds) = rng.pick(seconds);
    if rng.below(8) == 0 {
        return second;
    }
    rng.pick(thirds)
}

fn fill(template: &str, company: &str, topic: &str, place: &str, other: &str, rng: &mut Rng) -> String {
    let mut out =
        template.replace("{company}", company).replace("{place}", place).replace("{other}", &other.to_lowercase());
    out = out.replace("{topic}", &topic.to_lowercase());
    while let Some(i) = out.find("{n}") {
        out.replace_range(i..i + 3, &(2 + rng.below(60)).to_string());
    }
    let mut chars = out.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => out,
    }
}

fn refiner(label: &str, value: Option<String>) -> Refiner {
    Refiner { count: 1, label: label.to_owned(), value, children: None }
}

/// A small SVG picture (coloured background, a circle, two initials) as a `data:` URI.
fn image(rng: &mut Rng, title: &str) -> String {
    const COLOURS: &[&str] = &["#1565c0", "#2e7d32", "#ad1457", "#ef6c00", "#6a1b9a", "#00838f", "#4e342e", "#37474f"];
    let initials: String = title.split_whitespace().take(2).filter_map(|w| w.chars().next()).collect();
    let svg = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='320' height='180' viewBox='0 0 320 180'>\
         <rect width='320' height='180' fill='{}'/><circle cx='{}' cy='{}' r='{}' fill='{}' opacity='0.55'/>\
         <text x='24' y='150' font-family='sans-serif' font-size='56' fill='#fff'>{}</text></svg>",
        rng.pick(COLOURS),
        60 + rng.below(200),
        40 + rng.below(100),
        30 + rng.below(60),
        rng.pick(COLOURS),
        initials.replace(['<', '>', '&', '\''], ""),
    );
    let mut uri = String::from("data:image/svg+xml,");
    for b in svg.bytes() {
        if b.is_ascii_alphanumeric() || b" =/:.-_,'".contains(&b) {
            uri.push(if b == b' ' { ' ' } else { b as char });
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.replace(' ', "%20")
}

/// Document number `i` of the corpus of `seed`.
pub(crate) fn document(rng: &mut Rng, i: usize, space: &str) -> Document {
    let topic = pick_concept(rng, TOPICS);
    let second_topic = (rng.below(3) == 0).then(|| pick_concept(rng, TOPICS)).filter(|t| *t != topic);
    let place = pick_concept(rng, REGIONS);
    let company = rng.pick(COMPANIES);
    let mut authors = vec![rng.pick(AUTHORS)];
    if rng.below(6) == 0 {
        let second = rng.pick(AUTHORS);
        if second != authors[0] {
            authors.push(second);
        }
    }
    let other = second_topic.unwrap_or_else(|| pick_concept(rng, TOPICS));
    let title = fill(rng.pick(TITLES), company, topic, place, other, rng);
    let summary_count = 3 + rng.below(2);
    let summary: Vec<String> = rng
        .distinct(summary_count, SENTENCES.len())
        .into_iter()
        .map(|k| fill(SENTENCES[k], company, topic, place, other, rng))
        .collect();
    let body_count = 6 + rng.below(8);
    let body: Vec<String> = rng
        .distinct(body_count, SENTENCES.len())
        .into_iter()
        .map(|k| fill(SENTENCES[k], company, topic, place, other, rng))
        .collect();
    let date = (FIRST_DATE + rng.unit() * (LAST_DATE - FIRST_DATE)).floor();
    let sentiment = (rng.unit() * 2.0 - 1.0) * 0.9;
    let mut topics = vec![refiner(topic, Some(concept_uri("topic", topic)))];
    if let Some(t) = second_topic {
        topics.push(refiner(t, Some(concept_uri("topic", t))));
    }
    let group = |field: &str, label: &str, facets: Vec<Refiner>| FacetGroup {
        field: field.into(),
        label: label.into(),
        facets,
    };
    let facet_list = vec![
        group("dyn_uri_topic", "Topic", topics),
        group("dyn_uri_region", "Region", vec![refiner(place, Some(concept_uri("region", place)))]),
        group("dyn_lit_author", "Author", authors.iter().map(|a| refiner(a, None)).collect()),
        group("dyn_lit_companyname", "Company", vec![refiner(company, None)]),
        group("dyn_lit_context", "Context", vec![refiner(rng.pick(CONTEXTS), None)]),
        group("dyn_flt_sentiment", "Sentiment", vec![refiner(&format!("{sentiment:.2}"), None)]),
    ];
    let slug: String = title.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let image = (rng.below(10) < 3).then(|| image(rng, &title));
    let mut extra = serde_json::Map::new();
    extra.insert("content".into(), Value::String(body.join(" ")));
    Document {
        id: format!("https://demo.searchstudio.dev/doc/{i:06}"),
        link: format!("https://news.example.com/{}/{slug}", year(date)),
        title,
        description: summary.join(" "),
        date,
        empty: false,
        image,
        search_space_id: space.to_owned(),
        kind: "User".to_owned(),
        document_details: Vec::new(),
        facet_list,
        explanation: None,
        extra,
    }
}

/// The calendar year (UTC) of epoch milliseconds.
fn year(date: f64) -> i32 {
    use chrono::Datelike;
    chrono::DateTime::from_timestamp_millis(date as i64).map_or(2019, |d| d.year())
}

/// The JSON of a concept import line.
pub(crate) fn concept_line(c: &super::DemoConcept) -> Value {
    json!({ "uri": c.uri, "label": c.label, "broader": c.broader })
}

//! The benchmark's synthetic corpus, shaped like real annotated content rather than like the demo: a
//! vocabulary of 50,000 made-up words drawn with Zipf frequencies, a three-level topic scheme of 5,712
//! concepts and a three-level place scheme of 805, about 10,000 authors, and eight facet fields (two of
//! them hierarchical) whose values are also Zipf-distributed, with sentiment and dates.
//!
//! Everything is a pure function of the seed and the document number, so every engine of the
//! comparison (and every run) sees exactly the same documents, generated on the fly without a file:
//! each document is drawn from its own stream of the seed's ChaCha8 generator (a portable generator
//! whose output is fixed by its seed and stream), with `rand_distr`'s Zipf distribution.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Zipf};
use serde_json::{json, Value};

/// The search space the benchmark imports into.
pub const BENCH_SPACE: &str = "bench";
/// Base of every concept URI of the synthetic schemes.
pub const CONCEPT_BASE: &str = "https://bench.searchstudio.dev/c/";

/// The eight facet fields of a benchmark document; the first two are hierarchical concept fields.
pub const FIELDS: [&str; 8] = [
    "dyn_uri_topic",
    "dyn_uri_place",
    "dyn_lit_author",
    "dyn_lit_genre",
    "dyn_lit_language",
    "dyn_lit_source",
    "dyn_flt_sentiment",
    "dyn_lit_year",
];

const VOCABULARY: usize = 50_000;
const AUTHORS: usize = 10_000;
const SOURCES: usize = 400;
/// Topic scheme: 24 top concepts, 16 narrower each, up to 16 narrower again (24 + 384 + 5,304).
const TOPIC_SHAPE: [usize; 3] = [24, 16, 16];
/// Place scheme: 7 regions, 12 countries each, up to 10 cities each (7 + 84 + 714).
const PLACE_SHAPE: [usize; 3] = [7, 12, 10];
const GENRES: &[&str] = &["News", "Analysis", "Interview", "Report", "Opinion", "Press release", "Review", "Brief"];
const LANGUAGES: &[&str] = &["en", "de", "fr", "es", "it", "nl", "pt", "sv", "pl", "da", "fi", "cs"];
const SENTIMENTS: &[&str] = &["-1.0", "-0.5", "0.0", "0.5", "1.0"];
const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "ba", "de", "fi", "gu", "ha", "jo", "ku", "le", "mo", "ni",
    "pa", "qui", "ro", "su", "ta", "ve", "wa", "xi", "yo", "zu", "an", "el", "in", "or", "um", "bra", "cle", "dro",
    "fla", "gri", "pro", "sta", "tre", "vin", "lor", "mar", "sen", "tol", "ber",
];
const FIRST: &[&str] = &[
    "Ana", "Ben", "Chloé", "David", "Elena", "Farah", "Gustavo", "Hana", "Ibrahim", "Julia", "Kenji", "Laura", "Marco",
    "Nadia", "Oliver", "Priya", "Quentin", "Rosa", "Samuel", "Tara", "Umar", "Valeria", "William", "Ximena", "Yusuf",
    "Zoë", "Amara", "Björn", "Camila", "Daniel", "Emma", "Felix", "Grace", "Hugo", "Isabel", "Jonas", "Kavya", "Liam",
    "Mei", "Noah", "Olivia", "Pedro", "Rahul", "Sofia", "Tomás", "Wanjiru", "Aiko", "Bruno", "Clara", "Dmitri",
];

/// The stream of a seed's generator that builds the vocabulary, the schemes and the authors; document
/// `i` is drawn from stream `i`, and the query mix from [`WORKLOAD_STREAM`].
const SCHEME_STREAM: u64 = u64::MAX;
/// The stream of a seed's generator that draws the query mix.
pub const WORKLOAD_STREAM: u64 = u64::MAX - 1;

/// Zipf-distributed ranks `0..n`: rank `r` drawn with probability proportional to `1 / (r + 1)^s`.
pub struct Ranks {
    zipf: Zipf<f64>,
    n: usize,
}

impl Ranks {
    /// A sampler over `n` ranks (at least one) with exponent `s` (not negative).
    pub fn new(n: usize, s: f64) -> Ranks {
        let n = n.max(1);
        let zipf = Zipf::new(n as u64, s.max(0.0)).expect("at least one rank and a non-negative exponent");
        Ranks { zipf, n }
    }

    /// One rank.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> usize {
        // The distribution draws whole numbers 1..=n as floats.
        (self.zipf.sample(rng) as usize).clamp(1, self.n) - 1
    }
}

/// One concept of a synthetic scheme.
#[derive(Debug, Clone)]
pub struct SynthConcept {
    pub uri: String,
    pub label: String,
    /// Path segments from the top concept (`["t03", "m07", "l12"]`), as a tantivy facet path would hold them.
    pub path: Vec<String>,
    pub broader: Option<usize>,
}

/// One generated document, in a form every engine of the comparison can index.
#[derive(Debug, Clone)]
pub struct SynthDoc {
    pub id: String,
    pub title: String,
    pub description: String,
    pub content: String,
    pub date_ms: i64,
    /// Indexes into [`SynthCorpus::topics`] (leaf or middle concepts).
    pub topics: Vec<usize>,
    /// Indexes into [`SynthCorpus::places`].
    pub places: Vec<usize>,
    /// Literal facet values: author(s), genre, language, source, sentiment, year (fields 2..8 of [`FIELDS`]).
    pub literals: Vec<(usize, String)>,
}

/// The corpus: schemes, vocabulary and samplers. `doc(i)` is the i-th document.
pub struct SynthCorpus {
    pub seed: u64,
    pub words: Vec<String>,
    pub topics: Vec<SynthConcept>,
    pub places: Vec<SynthConcept>,
    /// Topic and place concepts that documents are annotated with (middle and leaf levels).
    topic_leaves: Vec<usize>,
    place_leaves: Vec<usize>,
    authors: Vec<String>,
    word_zipf: Ranks,
    topic_zipf: Ranks,
    place_zipf: Ranks,
    author_zipf: Ranks,
    source_zipf: Ranks,
    small_zipf: Ranks,
}

fn scheme(
    prefix: &str,
    letters: [&str; 3],
    shape: [usize; 3],
    rng: &mut ChaCha8Rng,
    words: &[String],
) -> Vec<SynthConcept> {
    let mut out: Vec<SynthConcept> = Vec::new();
    let mut add = |path: Vec<String>, broader: Option<usize>, rng: &mut ChaCha8Rng| {
        let mut word = || capital(&words[200 + rng.gen_range(0..20_000)]);
        let label = format!("{} {}", word(), word());
        out.push(SynthConcept { uri: format!("{CONCEPT_BASE}{prefix}/{}", path.join("/")), label, path, broader });
        out.len() - 1
    };
    for a in 0..shape[0] {
        let pa = vec![format!("{}{a:02}", letters[0])];
        let top = add(pa.clone(), None, rng);
        for b in 0..shape[1] {
            let mut pb = pa.clone();
            pb.push(format!("{}{b:02}", letters[1]));
            let mid = add(pb.clone(), Some(top), rng);
            // Later middle concepts have fewer narrower ones, so that the scheme is not perfectly regular.
            for c in 0..shape[2].saturating_sub(b / 3) {
                let mut pc = pb.clone();
                pc.push(format!("{}{c:02}", letters[2]));
                add(pc, Some(mid), rng);
            }
        }
    }
    out
}

fn capital(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

impl SynthCorpus {
    /// The seed's generator, at the start of `stream`.
    pub fn rng(&self, stream: u64) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(stream);
        rng
    }

    /// The corpus of one seed.
    pub fn new(seed: u64) -> SynthCorpus {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(SCHEME_STREAM);
        let mut seen = std::collections::HashSet::new();
        let mut words = Vec::with_capacity(VOCABULARY);
        while words.len() < VOCABULARY {
            let n = rng.gen_range(1..4) + usize::from(words.len() > 2_000) + usize::from(words.len() > 20_000);
            let w: String = (0..n).map(|_| SYLLABLES[rng.gen_range(0..SYLLABLES.len())]).collect();
            if w.len() >= 2 && seen.insert(w.clone()) {
                words.push(w);
            }
        }
        let topics = scheme("topic", ["t", "m", "l"], TOPIC_SHAPE, &mut rng, &words);
        let places = scheme("place", ["r", "k", "y"], PLACE_SHAPE, &mut rng, &words);
        let shuffled = |list: &[SynthConcept], rng: &mut ChaCha8Rng| {
            let mut idx: Vec<usize> = (0..list.len()).filter(|&i| list[i].broader.is_some()).collect();
            idx.shuffle(rng);
            idx
        };
        let topic_leaves = shuffled(&topics, &mut rng);
        let place_leaves = shuffled(&places, &mut rng);
        let authors = (0..AUTHORS)
            .map(|i| format!("{} {}", FIRST[i % FIRST.len()], capital(&words[300 + (i / FIRST.len()) * 7 % 40_000])))
            .collect();
        SynthCorpus {
            seed,
            word_zipf: Ranks::new(words.len(), 1.0),
            topic_zipf: Ranks::new(topic_leaves.len(), 0.9),
            place_zipf: Ranks::new(place_leaves.len(), 1.0),
            author_zipf: Ranks::new(AUTHORS, 0.8),
            source_zipf: Ranks::new(SOURCES, 1.0),
            small_zipf: Ranks::new(LANGUAGES.len(), 1.3),
            words,
            topics,
            places,
            topic_leaves,
            place_leaves,
            authors,
        }
    }

    fn text(&self, rng: &mut ChaCha8Rng, n: usize, out: &mut String) {
        for k in 0..n {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(&self.words[self.word_zipf.sample(rng)]);
        }
    }

    /// The i-th document.
    pub fn doc(&self, i: usize) -> SynthDoc {
        let mut rng = self.rng(i as u64);
        let mut title = String::new();
        let n = rng.gen_range(6..12);
        self.text(&mut rng, n, &mut title);
        let mut description = String::new();
        let n = rng.gen_range(20..45);
        self.text(&mut rng, n, &mut description);
        let mut content = String::new();
        let n = rng.gen_range(150..350);
        self.text(&mut rng, n, &mut content);
        // Dates over 2000–2025, more of them recent.
        let year_frac = 1.0 - rng.gen::<f64>().powi(2);
        let date_ms = 946_684_800_000 + (year_frac * 26.0 * 365.25 * 86_400_000.0) as i64;
        let year = 2000 + (date_ms - 946_684_800_000) / 31_557_600_000;
        let mut topics: Vec<usize> =
            (0..rng.gen_range(1..5)).map(|_| self.topic_leaves[self.topic_zipf.sample(&mut rng)]).collect();
        topics.sort_unstable();
        topics.dedup();
        let mut places: Vec<usize> =
            (0..rng.gen_range(1..3)).map(|_| self.place_leaves[self.place_zipf.sample(&mut rng)]).collect();
        places.sort_unstable();
        places.dedup();
        let mut literals = vec![(2, self.authors[self.author_zipf.sample(&mut rng)].clone())];
        if rng.gen_ratio(1, 4) {
            let second = self.authors[self.author_zipf.sample(&mut rng)].clone();
            if second != literals[0].1 {
                literals.push((2, second));
            }
        }
        literals.push((3, GENRES[self.small_zipf.sample(&mut rng) % GENRES.len()].to_owned()));
        literals.push((4, LANGUAGES[self.small_zipf.sample(&mut rng)].to_owned()));
        literals.push((5, format!("{} {}", capital(&self.words[500 + self.source_zipf.sample(&mut rng)]), "Press")));
        literals.push((6, SENTIMENTS[rng.gen_range(0..SENTIMENTS.len())].to_owned()));
        literals.push((7, year.to_string()));
        SynthDoc {
            id: format!("https://bench.searchstudio.dev/doc/{i:07}"),
            title,
            description,
            content,
            date_ms,
            topics,
            places,
            literals,
        }
    }

    /// The concept scheme as import-concepts lines (docs/api.md, Import formats).
    pub fn concept_lines(&self) -> Vec<Value> {
        let line = |list: &[SynthConcept], c: &SynthConcept| {
            let broader: Vec<&str> = c.broader.iter().map(|&b| list[b].uri.as_str()).collect();
            json!({"uri": c.uri, "label": c.label, "broader": broader})
        };
        self.topics
            .iter()
            .map(|c| line(&self.topics, c))
            .chain(self.places.iter().map(|c| line(&self.places, c)))
            .collect()
    }
}

impl SynthDoc {
    /// The document as one import line (docs/api.md, Import formats): flat concept annotations, the scheme giving
    /// their hierarchy.
    pub fn to_json(&self, corpus: &SynthCorpus) -> Value {
        let concepts = |list: &[SynthConcept], idx: &[usize]| -> Vec<Value> {
            idx.iter().map(|&i| json!({"count": 1, "label": list[i].label, "value": list[i].uri})).collect()
        };
        let mut groups = vec![
            json!({"field": FIELDS[0], "label": "Topic", "facets": concepts(&corpus.topics, &self.topics)}),
            json!({"field": FIELDS[1], "label": "Place", "facets": concepts(&corpus.places, &self.places)}),
        ];
        for (f, label) in [(2, "Author"), (3, "Genre"), (4, "Language"), (5, "Source"), (6, "Sentiment"), (7, "Year")] {
            let facets: Vec<Value> =
                self.literals.iter().filter(|(k, _)| *k == f).map(|(_, v)| json!({"count": 1, "label": v})).collect();
            groups.push(json!({"field": FIELDS[f], "label": label, "facets": facets}));
        }
        json!({
            "id": self.id, "link": self.id, "title": self.title, "description": self.description,
            "content": self.content, "date": self.date_ms, "type": "User", "facetList": groups,
        })
    }
}

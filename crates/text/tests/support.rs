//! What the tests share: a seeded corpus of texts as the oracle tests need them (a Zipf-like vocabulary, accented
//! and upper-case spellings of its words, punctuation, digits, a few words of other scripts), an index built from
//! it in several segments, and the same documents in SQLite's FTS5.

use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rusqlite::Connection;
use studio_text::TextIndex;

const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "ba", "de", "fi", "gu", "ha", "jo", "ku", "le", "mo", "an",
    "el", "in", "or", "um", "bra", "cle", "dro", "sta", "tre", "cor", "pen",
];
/// Words of other scripts, and Latin letters that do not fold to ASCII.
const OTHER_WORDS: &[&str] = &[
    "Σοφία",
    "ΣΟΦΊΑΣ",
    "Москва",
    "москвы",
    "straße",
    "STRASSE",
    "œuvre",
    "Łódź",
    "İstanbul",
    "ıi",
    "ﬁnal",
    "Æble",
    "東京",
    "ｆｕｌｌ",
    "Ⅻ",
    "x²",
    "½",
    "हिन्दी",
    "naïve",
    "Ångström",
];
const PUNCTUATION: &[&str] =
    &[" ", " ", " ", " ", ", ", ". ", " - ", "; ", " (", ") ", " 'x' ", "—", " « ", " » ", "…", "/"];

/// A document of the corpus: its row and its three fields, and the words of each field as written.
#[derive(Debug, Clone)]
pub struct Doc {
    pub row: u64,
    pub fields: [String; 3],
    pub words: [Vec<String>; 3],
}

impl Doc {
    pub fn fields(&self) -> [&str; 3] {
        [&self.fields[0], &self.fields[1], &self.fields[2]]
    }
}

/// A seeded corpus: its vocabulary (in rank order) and documents.
pub struct Corpus {
    pub vocabulary: Vec<String>,
    pub docs: Vec<Doc>,
    pub rng: ChaCha8Rng,
}

impl Corpus {
    /// `docs` documents drawn from the seed `seed`, rows increasing with gaps.
    pub fn new(seed: u64, docs: usize) -> Corpus {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut vocabulary: Vec<String> = Vec::new();
        while vocabulary.len() < 400 {
            let n = rng.gen_range(1..4);
            let word: String = (0..n).map(|_| SYLLABLES[rng.gen_range(0..SYLLABLES.len())]).collect();
            if !vocabulary.contains(&word) {
                vocabulary.push(word);
            }
        }
        let mut corpus = Corpus { vocabulary, docs: Vec::new(), rng };
        let mut row = 5u64;
        for _ in 0..docs {
            row += corpus.rng.gen_range(1..4);
            let lengths = [corpus.rng.gen_range(0..8), corpus.rng.gen_range(0..25), corpus.rng.gen_range(0..90)];
            let mut fields: [String; 3] = Default::default();
            let mut words: [Vec<String>; 3] = Default::default();
            for f in 0..3 {
                for k in 0..lengths[f] {
                    let word = corpus.word();
                    if k > 0 {
                        fields[f].push_str(PUNCTUATION[corpus.rng.gen_range(0..PUNCTUATION.len())]);
                    }
                    fields[f].push_str(&word);
                    words[f].push(word);
                }
            }
            corpus.docs.push(Doc { row, fields, words });
        }
        corpus
    }

    /// A word as a text might write it: of Zipf-like frequency, in one of its spellings.
    pub fn word(&mut self) -> String {
        let rng = &mut self.rng;
        match rng.gen_range(0..100) {
            0..=2 => OTHER_WORDS[rng.gen_range(0..OTHER_WORDS.len())].to_owned(),
            3..=5 => rng.gen_range(0..3000).to_string(),
            6 => format!("covid-{}", rng.gen_range(10..30)),
            _ => {
                let rank = (self.vocabulary.len() as f64 * rng.gen::<f64>().powf(3.0)) as usize;
                let word = self.vocabulary[rank.min(self.vocabulary.len() - 1)].clone();
                spelled(&word, rng)
            }
        }
    }
}

/// `word` in one of its spellings: as it is, capitalised, upper case, or with accents.
pub fn spelled(word: &str, rng: &mut ChaCha8Rng) -> String {
    match rng.gen_range(0..10) {
        0 => word.to_uppercase(),
        1 => {
            let mut c = word.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
        }
        2 | 3 => word
            .chars()
            .map(|c| match (c, rng.gen_range(0..3)) {
                ('a', 0) => 'á',
                ('a', 1) => 'Ä',
                ('e', 0) => 'é',
                ('e', 1) => 'È',
                ('i', 0) => 'ï',
                ('o', 0) => 'ø',
                ('o', 1) => 'Ô',
                ('u', 0) => 'ü',
                ('c', 0) => 'ç',
                ('n', 0) => 'ñ',
                (c, _) => c,
            })
            .collect(),
        _ => word.to_owned(),
    }
}

/// FTS5 with the same tokenizer as the index, in memory.
pub fn fts5() -> Connection {
    let conn = Connection::open_in_memory().expect("an in-memory database");
    conn.execute_batch(
        "CREATE VIRTUAL TABLE t USING fts5(title, description, body, tokenize = 'unicode61 remove_diacritics 2');",
    )
    .expect("an FTS5 table");
    conn
}

/// Inserts `docs` into the FTS5 table of `conn`.
pub fn fts5_insert(conn: &Connection, docs: &[Doc]) {
    let mut insert =
        conn.prepare("INSERT INTO t (rowid, title, description, body) VALUES (?1, ?2, ?3, ?4)").expect("an insert");
    for d in docs {
        insert.execute(rusqlite::params![d.row as i64, d.fields[0], d.fields[1], d.fields[2]]).expect("a row");
    }
}

/// Builds `docs` into `index` with `builders` builders on as many threads, each taking every `builders`-th
/// batch of `batch` documents and writing a segment whenever it holds about `budget` bytes.
pub fn build(index: &mut TextIndex, docs: &[Doc], builders: usize, batch: usize, budget: usize) {
    let segments = std::thread::scope(|s| {
        let handles: Vec<_> = (0..builders)
            .map(|b| {
                let mut builder = index.builder().budget(budget);
                s.spawn(move || {
                    for chunk in docs.chunks(batch).skip(b).step_by(builders) {
                        for d in chunk {
                            builder.add(d.row, d.fields()).expect("a document added");
                        }
                    }
                    builder.finish().expect("segments written")
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a builder's thread")).collect::<Vec<_>>()
    });
    index.add(segments).expect("segments made live");
}

/// The files of `dir`, by name, sorted.
pub fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a directory")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// One SQLite varint (big-endian groups of 7 bits, the ninth byte whole) and the bytes it took.
pub fn sqlite_varint(bytes: &[u8]) -> (u64, usize) {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().take(9).enumerate() {
        if i == 8 {
            return ((value << 8) | u64::from(b), 9);
        }
        value = (value << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return (value, i + 1);
        }
    }
    panic!("a varint cut short");
}

/// The SQLite varints of `bytes`.
pub fn sqlite_varints(mut bytes: &[u8]) -> Vec<u64> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let (v, n) = sqlite_varint(bytes);
        out.push(v);
        bytes = &bytes[n..];
    }
    out
}

//! The engine's own test files: a documents file and a full-text index made with the engine's schema
//! ([`crate::schema`]) and written as the store's imports write them (document rows with their facet lists, concepts
//! with their broader links, a generation per import, then the full-text index), with a seeded corpus of news of
//! the shape searches meet: common words, rarer ones, phrases, flat and hierarchical facets. And a generated
//! facet field without files, for counting over many documents ([`field`]).
//!
//! It never stands in for the store's import in a user's hands: that one's rules (bad lines, batches, a second
//! connection indexing) are the store's and are tested there.

use std::collections::HashMap;
use std::path::PathBuf;

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};
use studio_model::{Config, FacetGroup, Refiner};

use crate::field_index::{FacetValue, FieldIndex, CONCEPT_PREFIX};
use crate::text_index::{Indexer, Job};

/// The search space of the news corpus.
pub(crate) const NEWS_SPACE: &str = "news";
/// Documents in the news corpus.
pub(crate) const NEWS_DOCUMENTS: usize = 2_400;

/// A document to write: its id, text and facet values; a value of a `dyn_uri_` field is a concept, written with
/// its broader concept when it has one.
#[derive(Clone, Debug, Default)]
pub(crate) struct TestDocument {
    pub id: String,
    pub title: String,
    pub description: String,
    pub body: String,
    pub date: f64,
    /// (field, label, value, broader concept's value).
    pub facets: Vec<(String, String, Option<String>, Option<String>)>,
}

impl TestDocument {
    /// A document of a title and a body only.
    pub(crate) fn text(id: &str, title: &str, body: &str) -> TestDocument {
        TestDocument { id: id.into(), title: title.into(), body: body.into(), ..TestDocument::default() }
    }
}

/// A documents file and its full-text index in a temporary directory.
pub(crate) struct TestFiles {
    _dir: tempfile::TempDir,
    documents: PathBuf,
    text: PathBuf,
}

impl TestFiles {
    /// Empty files with the engine's schema.
    pub(crate) fn new() -> TestFiles {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let documents = dir.path().join("documents.db");
        let text = dir.path().join("text.db");
        let make = |path: &PathBuf, schema: &str, upgrades: &[&str]| {
            let conn = Connection::open(path).expect("a new file");
            conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).expect("WAL");
            conn.execute_batch(schema).expect("the schema");
            for sql in upgrades {
                conn.execute_batch(sql).expect("an upgrade");
            }
        };
        make(&documents, crate::schema::DOCUMENTS, crate::schema::DOCUMENTS_UPGRADES);
        make(&text, crate::schema::TEXT, crate::schema::TEXT_UPGRADES);
        TestFiles { _dir: dir, documents, text }
    }

    /// The files with the news corpus in [`NEWS_SPACE`].
    pub(crate) fn news() -> TestFiles {
        let files = TestFiles::new();
        files.import(NEWS_SPACE, &news_documents(NEWS_DOCUMENTS, 20_190_101));
        files
    }

    /// The full-text index's directory.
    pub(crate) fn text_dir(&self) -> PathBuf {
        crate::text_index::text_dir(&self.documents)
    }

    /// A connection as the store hands the engine one: both files attached.
    pub(crate) fn conn(&self) -> Connection {
        let conn = Connection::open_in_memory().expect("a connection");
        conn.busy_timeout(crate::BUSY_TIMEOUT).expect("a busy timeout");
        conn.execute("ATTACH DATABASE ?1 AS docs", [self.documents.to_string_lossy()]).expect("the documents");
        conn.execute("ATTACH DATABASE ?1 AS text", [self.text.to_string_lossy()]).expect("the full-text index");
        conn.execute_batch("PRAGMA foreign_keys = ON").expect("foreign keys");
        conn
    }

    /// The oracle the engine's full-text scores are held to: SQLite's FTS5 over the same documents (the
    /// tokenizer the engine's index follows), in a connection of its own with the documents file attached.
    pub(crate) fn fts5(&self) -> Connection {
        let conn = self.conn();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE temp.documents_fts USING fts5 (
                 title, description, body, content = '', tokenize = 'unicode61 remove_diacritics 2');
             INSERT INTO temp.documents_fts (rowid, title, description, body)
                 SELECT num, title, description, body FROM documents;",
        )
        .expect("FTS5 over the documents");
        conn
    }

    /// Writes the documents of `lines`, JSON Lines of the import format's `id`, `title` and `content`, as
    /// [`TestFiles::import`] does.
    pub(crate) fn import_lines(&self, space: &str, lines: &str) {
        let documents: Vec<TestDocument> = lines
            .lines()
            .map(|line| {
                let v: Value = serde_json::from_str(line).expect("a document line");
                let text = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
                TestDocument::text(&text("id"), &text("title"), &text("content"))
            })
            .collect();
        self.import(space, &documents);
    }

    /// Writes `documents` into `space` in one transaction, replacing those of the same ids, bumps the space's
    /// generation and adds their text to the full-text index.
    pub(crate) fn import(&self, space: &str, documents: &[TestDocument]) {
        let mut conn = self.conn();
        let mut indexer = Indexer::start(&self.text_dir(), &conn).expect("the full-text index's writer");
        let tx = conn.transaction().expect("a transaction");
        let mut num = crate::text_index::next_row(&tx).expect("the next row") - 1;
        for doc in documents {
            let replaced: Option<i64> = tx
                .query_row(
                    "DELETE FROM documents WHERE search_space = ?1 AND id = ?2 RETURNING num",
                    params![space, doc.id],
                    |r| r.get(0),
                )
                .optional()
                .unwrap();
            if let Some(row) = replaced {
                indexer.push(Job::Remove { row }).unwrap();
            }
            num += 1;
            let fields = [doc.title.clone(), doc.description.clone(), doc.body.clone()];
            indexer.push(Job::Add { row: num, fields }).unwrap();
            let mut groups: Vec<FacetGroup> = Vec::new();
            for (field, label, value, _) in &doc.facets {
                let refiner = Refiner { count: 1, label: label.clone(), value: value.clone(), children: None };
                match groups.iter_mut().find(|g| &g.field == field) {
                    Some(g) => g.facets.push(refiner),
                    None => {
                        groups.push(FacetGroup { field: field.clone(), label: field.clone(), facets: vec![refiner] })
                    }
                }
            }
            tx.execute(
                "INSERT INTO documents (num, search_space, id, title, description, body, link, date, image, type,
                 facet_list) VALUES (?1, ?2, ?3, ?4, ?5, ?6, '', ?7, NULL, 'User', ?8)",
                params![
                    num,
                    space,
                    doc.id,
                    doc.title,
                    doc.description,
                    doc.body,
                    doc.date,
                    crate::stored_facets::to_stored(&groups).unwrap()
                ],
            )
            .unwrap();
            for (field, label, value, broader) in &doc.facets {
                tx.execute(
                    "INSERT OR IGNORE INTO facet_fields (search_space, field, label) VALUES (?1, ?2, ?2)",
                    params![space, field],
                )
                .unwrap();
                if let (true, Some(uri)) = (field.starts_with(CONCEPT_PREFIX), value) {
                    tx.execute(
                        "INSERT OR REPLACE INTO concepts (scope, uri, label) VALUES (?1, ?2, ?3)",
                        params![space, uri, label],
                    )
                    .unwrap();
                    if let Some(broader) = broader {
                        tx.execute(
                            "INSERT OR IGNORE INTO concept_broader (scope, narrower, broader) VALUES (?1, ?2, ?3)",
                            params![space, uri, broader],
                        )
                        .unwrap();
                    }
                }
            }
        }
        tx.execute(
            "INSERT INTO generations (scope, generation) VALUES (?1, 1)
             ON CONFLICT (scope) DO UPDATE SET generation = generation + 1",
            [space],
        )
        .unwrap();
        tx.commit().unwrap();
        indexer.finish(&conn).expect("the import's text in the index");
    }
}

/// A small random source (splitmix64): the corpus is the same on every machine.
pub(crate) struct Draws(u64);

impl Draws {
    pub(crate) fn new(seed: u64) -> Draws {
        Draws(seed)
    }

    /// A number in `0..n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Broader topics and theirs narrower ones, as concepts.
const TOPICS: &[(&str, &[&str])] = &[
    ("Energy", &["Solar power", "Wind power", "Energy policy"]),
    ("Environment", &["Climate policy", "Water", "Floods"]),
    ("Transport", &["Harbours", "Railways", "Roads"]),
    ("Economy", &["Markets", "Jobs", "Trade"]),
];
const REGIONS: &[(&str, &[&str])] = &[("Europe", &["North", "South", "East", "West"]), ("Asia", &["Coast", "Inland"])];
const COMPANIES: &[&str] = &[
    "Northwind",
    "Contoso",
    "Fabrikam",
    "Tailspin",
    "Litware",
    "Adatum",
    "Proseware",
    "Wingtip",
    "Lucerne",
    "Humongous",
    "Fourth Coffee",
    "Woodgrove",
];
const AUTHORS: &[&str] =
    &["Ada Berg", "Ben Carr", "Cleo Dunn", "Dev Ekman", "Eva Falk", "Finn Gray", "Gus Holm", "Hana Ito", "Ida Juhl"];
const CONTEXTS: &[&str] = &["Report", "Interview", "Opinion", "Brief"];
const SENTENCES: &[&str] = &[
    "The city council of {place} met {company} about the gas supply.",
    "{company} said the river flood in {place} closed the harbour for a week.",
    "A new climate policy of the region puts the cost of energy at the centre of the debate.",
    "The harbour of {place} handled more ships than in any year of the decade.",
    "Solar panels and wind turbines now give most of the energy used in {place}.",
    "{company} will invest in {topic} after the vote of the city council.",
    "The water level of the river rose again, and the flood defences held.",
    "Analysts of the market expect {company} to report higher prices for energy.",
    "The energy policy debate turned to the cost of wind power for households.",
    "Workers at the harbour warned of delays to the trade of the region.",
    "The report of the commission on {topic} was published on Tuesday.",
    "Farmers in {place} asked for help after a dry summer left the fields dry.",
    "A spokesperson for {company} declined to comment on the plans for {topic}.",
    "The railway line between {place} and the coast will reopen in the spring.",
    "Prices of solar power fell for the third year, which helps the climate policy of the government.",
    "The mayor said the city council would publish a plan for the flood plain.",
    "Most of the jobs created in {place} last year were in {topic}.",
    "{company} opened an office in {place}, its first outside the capital.",
    "The storm damaged roads and the harbour wall; the sea receded by evening.",
    "Investors watched the market for signs of a turn in the price of energy.",
];
/// Syllables of the rarer words: letters only, so that every word is one of FTS5's tokens.
const SYLLABLES: &[&str] = &["ka", "lo", "mir", "ten", "vu", "sar", "pel", "dor", "gin", "bre", "zol", "nau"];

fn uri(kind: &str, label: &str) -> String {
    format!("http://example.org/{kind}/{}", label.to_lowercase().replace(' ', "-"))
}

fn fill(template: &str, company: &str, topic: &str, place: &str) -> String {
    template.replace("{company}", company).replace("{topic}", &topic.to_lowercase()).replace("{place}", place)
}

/// A rarer word: two or three syllables, the first ones drawn more often than the last.
fn rare_word(draws: &mut Draws) -> String {
    let mut word = String::new();
    for _ in 0..2 + draws.below(2) {
        let x = draws.below(SYLLABLES.len());
        word.push_str(SYLLABLES[x * x / SYLLABLES.len()]);
    }
    word
}

/// `n` news documents, fully determined by `seed`.
pub(crate) fn news_documents(n: usize, seed: u64) -> Vec<TestDocument> {
    let mut draws = Draws::new(seed);
    (0..n)
        .map(|i| {
            let (broad_topic, topics) = TOPICS[draws.below(TOPICS.len())];
            let topic = draws.pick(topics);
            let (broad_region, places) = REGIONS[draws.below(REGIONS.len())];
            let place = draws.pick(places);
            let company = draws.pick(COMPANIES);
            let sentence = |draws: &mut Draws| fill(draws.pick(SENTENCES), company, topic, place);
            let title = format!("{company}: {topic} in {place}");
            let description = (0..2).map(|_| sentence(&mut draws)).collect::<Vec<_>>().join(" ");
            let mut body: Vec<String> = (0..4 + draws.below(6)).map(|_| sentence(&mut draws)).collect();
            body.push((0..6).map(|_| rare_word(&mut draws)).collect::<Vec<_>>().join(" "));
            let mut facets = vec![
                (
                    "dyn_uri_topic".to_owned(),
                    topic.to_owned(),
                    Some(uri("topic", topic)),
                    Some(uri("topic", broad_topic)),
                ),
                (
                    "dyn_uri_region".to_owned(),
                    place.to_owned(),
                    Some(uri("region", place)),
                    Some(uri("region", broad_region)),
                ),
                ("dyn_lit_companyname".to_owned(), company.to_owned(), None, None),
                ("dyn_lit_author".to_owned(), draws.pick(AUTHORS).to_owned(), None, None),
                ("dyn_lit_context".to_owned(), draws.pick(CONTEXTS).to_owned(), None, None),
            ];
            if draws.below(4) == 0 {
                let (broad, narrower) = TOPICS[draws.below(TOPICS.len())];
                let other = draws.pick(narrower);
                if other != topic {
                    facets.push((
                        "dyn_uri_topic".into(),
                        other.into(),
                        Some(uri("topic", other)),
                        Some(uri("topic", broad)),
                    ));
                }
            }
            TestDocument {
                id: format!("news-{i}"),
                title,
                description,
                body: body.join(" "),
                date: 1.5e12 + (draws.below(2_000) as f64) * 86_400_000.0,
                facets,
            }
        })
        .collect()
}

fn facet(uri: &str, mode: &str, sorting: &str, order: &str) -> Value {
    json!({
        "uri": uri, "title": uri, "show": true, "facetMode": mode, "hierarchicalDepth": 3, "maximumTerms": 10,
        "sorting": sorting, "sortingOrder": order, "showAllButton": false, "searchable": true, "refId": uri
    })
}

/// A configuration of a search over the news corpus showing every one of its facet fields.
pub(crate) fn news_config() -> Config {
    serde_json::from_value(json!({
        "title": "News", "searchSpace": NEWS_SPACE,
        "filter": { "facetsToShow": [
            facet("dyn_uri_topic", "hierarchical", "count", "desc"),
            facet("dyn_uri_region", "hierarchical", "count", "desc"),
            facet("dyn_lit_author", "flat", "count", "desc"),
            facet("dyn_lit_companyname", "flat", "count", "desc"),
            facet("dyn_lit_context", "flat", "alphabetical", "asc"),
        ] }
    }))
    .expect("a configuration")
}

/// A field over `n` documents where document `d` has value `d % values` and, when `parent` is set,
/// every value lies below value 0.
pub(crate) fn field(n: u32, values: u32, parent: bool) -> FieldIndex {
    let ancestors = |v: u32| if parent && v != 0 { vec![0] } else { Vec::new() };
    let list = (0..values)
        .map(|v| FacetValue {
            label: format!("v{v}"),
            label_lower: format!("v{v}"),
            uri: None,
            docs: if parent && v == 0 { (0..n).collect() } else { (v..n).step_by(values as usize).collect() },
            children: Vec::new(),
            parents: ancestors(v),
            ancestors: ancestors(v),
        })
        .collect();
    FieldIndex::from_parts("f".into(), list, HashMap::new(), (0..=n).collect(), (0..n).map(|d| d % values).collect())
}

/// The rows of the oracle `fts5` ([`TestFiles::fts5`]) matching an FTS5 expression, each with FTS5's own
/// `bm25(documents_fts, 5.0, 2.0, 1.0)`.
pub(crate) fn fts5_bm25(fts5: &Connection, expression: &str) -> Vec<(i64, f64)> {
    let mut stmt = fts5
        .prepare_cached(
            "SELECT rowid, bm25(documents_fts, 5.0, 2.0, 1.0) FROM temp.documents_fts WHERE documents_fts MATCH ?1",
        )
        .expect("the oracle's statement");
    stmt.query_map([expression], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("the oracle's rows")
        .map(Result::unwrap)
        .collect()
}

//! The benchmark's query mix on tantivy, built as its documentation recommends for faceted search: text
//! fields searched through `QueryParser` (conjunction, title and description boosted as our bm25 weights
//! do), facet fields (`/top/middle/leaf` paths for the two hierarchical schemes, one-segment facets for the
//! literal fields and the derived all-concepts field), filters as `TermQuery`s on facet terms, counts with
//! `FacetCollector`, and one extra collection per selected field for drill-sideways counts.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::clock::Clock;
use crate::compare::{Comparator, Found};
use crate::corpus::{SynthConcept, SynthCorpus, FIELDS};
use crate::error::BenchError;
use crate::workload::{groups, Answer, Query};
use tantivy::collector::{Collector, Count, FacetCollector, FacetCounts, MultiCollector, TopDocs};
use tantivy::query::{BooleanQuery, EnableScoring, Occur, Query as TantivyQuery, QueryParser, TermQuery};
use tantivy::schema::{
    Facet, FacetOptions, Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, Value, FAST,
    STORED,
};
use tantivy::tokenizer::{AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer};
use tantivy::{Executor, Index, IndexReader, Order, ReloadPolicy, Searcher, TantivyDocument, Term};

/// Writer memory budget: tantivy's examples use 50 MB; a bigger one makes fewer segments.
const WRITER_HEAP: usize = 200_000_000;
const ALL_CONCEPTS: &str = "dyn_uri_all_concepts";

/// tantivy over the benchmark corpus.
#[derive(Default)]
pub struct TantivyEngine {
    prepared: Option<Prepared>,
    state: Option<Built>,
}

/// What the build reads, made before its clock: the schema, the documents in memory, and the maps from
/// concepts to facet paths.
struct Prepared {
    dir: PathBuf,
    schema: Schema,
    documents: Vec<TantivyDocument>,
    fields: Fields,
    lookups: Lookups,
}

/// The fields every document has: its id, its three texts and its date.
#[derive(Clone, Copy)]
struct TextFields {
    id: Field,
    title: Field,
    description: Field,
    body: Field,
    date: Field,
}

struct Fields {
    text: TextFields,
    facet_fields: HashMap<String, Field>,
}

/// Concept URIs and facet paths, both ways, for filters and for reading counts back.
struct Lookups {
    /// Facet path (as text) → concept URI, per concept field.
    uris: HashMap<String, String>,
    /// Concept URI → its facet path.
    facet_by_uri: HashMap<String, Facet>,
    tops: HashMap<String, Vec<Facet>>,
}

struct Built {
    reader: IndexReader,
    parser: QueryParser,
    text: TextFields,
    facet_fields: HashMap<String, Field>,
    lookups: Lookups,
    /// Runs each search over the index's segments: on this thread, or on a pool of several.
    executor: Executor,
}

/// tantivy's counts of one search, read into an [`Answer`] outside the clock.
struct Counted {
    total: usize,
    /// Per field, its collectors' counts.
    by_field: Vec<(String, Vec<FacetCounts>)>,
}

fn path_of(c: &SynthConcept) -> Facet {
    Facet::from_path(c.path.iter().map(String::as_str))
}

fn flat(value: &str) -> Facet {
    Facet::from_path([value])
}

impl TantivyEngine {
    /// The documents of the corpus as tantivy takes them, and the lookups of concepts.
    fn documents(corpus: &SynthCorpus, docs: usize, fields: &Fields) -> Vec<TantivyDocument> {
        let (t, facet_fields) = (fields.text, &fields.facet_fields);
        (0..docs)
            .map(|i| {
                let d = corpus.doc(i);
                let mut doc = TantivyDocument::default();
                doc.add_text(t.id, &d.id);
                doc.add_text(t.title, &d.title);
                doc.add_text(t.description, &d.description);
                doc.add_text(t.body, &d.content);
                doc.add_i64(t.date, d.date_ms);
                let mut all: Vec<Facet> = Vec::new();
                for (f, list, idx) in [(0, &corpus.topics, &d.topics), (1, &corpus.places, &d.places)] {
                    for &c in idx.iter() {
                        doc.add_facet(facet_fields[FIELDS[f]], path_of(&list[c]));
                        let mut at = Some(c);
                        while let Some(k) = at {
                            all.push(flat(&format!("{}:{}", FIELDS[f], list[k].path.join("."))));
                            at = list[k].broader;
                        }
                    }
                }
                all.sort();
                all.dedup();
                for facet in all {
                    doc.add_facet(facet_fields[ALL_CONCEPTS], facet);
                }
                for (f, value) in &d.literals {
                    doc.add_facet(facet_fields[FIELDS[*f]], flat(value));
                }
                doc
            })
            .collect()
    }

    fn lookups(corpus: &SynthCorpus) -> Lookups {
        let mut uris = HashMap::new();
        let mut tops = HashMap::new();
        let mut facet_by_uri = HashMap::new();
        for (f, list) in [(0, &corpus.topics), (1, &corpus.places)] {
            for c in list.iter() {
                uris.insert(format!("{}{}", FIELDS[f], path_of(c)), c.uri.clone());
                facet_by_uri.insert(c.uri.clone(), path_of(c));
                uris.insert(
                    format!("{ALL_CONCEPTS}{}", flat(&format!("{}:{}", FIELDS[f], c.path.join(".")))),
                    c.uri.clone(),
                );
            }
            tops.insert(FIELDS[f].to_owned(), list.iter().filter(|c| c.broader.is_none()).map(path_of).collect());
        }
        Lookups { uris, facet_by_uri, tops }
    }
}

impl Comparator for TantivyEngine {
    fn name(&self) -> &str {
        "tantivy"
    }

    fn prepare(&mut self, corpus: &SynthCorpus, docs: usize, dir: &Path) -> Result<(), BenchError> {
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("folded")
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        );
        let mut sb = Schema::builder();
        let id = sb.add_text_field("id", STORED);
        let title = sb.add_text_field("title", text.clone() | STORED);
        let description = sb.add_text_field("description", text.clone() | STORED);
        let body = sb.add_text_field("body", text);
        let date = sb.add_i64_field("date", NumericOptions::default() | FAST);
        let mut facet_fields = HashMap::new();
        for f in FIELDS.iter().copied().chain([ALL_CONCEPTS]) {
            facet_fields.insert(f.to_owned(), sb.add_facet_field(f, FacetOptions::default()));
        }
        let fields = Fields { text: TextFields { id, title, description, body, date }, facet_fields };
        let documents = TantivyEngine::documents(corpus, docs, &fields);
        let path = dir.join("tantivy");
        std::fs::create_dir_all(&path).map_err(BenchError::file("create", &path))?;
        let lookups = TantivyEngine::lookups(corpus);
        self.prepared = Some(Prepared { dir: path, schema: sb.build(), documents, fields, lookups });
        self.state = None;
        Ok(())
    }

    fn build(&mut self, clock: &mut Clock) -> Result<(), BenchError> {
        let Prepared { dir, schema, documents, fields, lookups } =
            self.prepared.take().ok_or(BenchError::NotBuilt("tantivy"))?;
        let (index, mut writer) = clock.phase("add_documents", || {
            let index = Index::create_in_dir(&dir, schema)?;
            let folded = TextAnalyzer::builder(SimpleTokenizer::default())
                .filter(RemoveLongFilter::limit(40))
                .filter(LowerCaser)
                .filter(AsciiFoldingFilter)
                .build();
            index.tokenizers().register("folded", folded);
            let writer: tantivy::IndexWriter = index.writer(WRITER_HEAP)?;
            for doc in documents {
                writer.add_document(doc)?;
            }
            Ok((index, writer))
        })?;
        clock.phase("commit", || Ok(writer.commit().map(|_| ())?))?;
        clock.phase("merge", || Ok(writer.wait_merging_threads()?))?;
        let reader = clock.phase("reader", || {
            let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
            reader.reload()?;
            Ok(reader)
        })?;
        let t = fields.text;
        let mut parser = QueryParser::for_index(&index, vec![t.title, t.description, t.body]);
        parser.set_conjunction_by_default();
        parser.set_field_boost(t.title, 5.0);
        parser.set_field_boost(t.description, 2.0);
        let executor = Executor::single_thread();
        self.state = Some(Built { reader, parser, text: t, facet_fields: fields.facet_fields, lookups, executor });
        Ok(())
    }

    fn set_threads(&mut self, threads: usize) -> Result<bool, BenchError> {
        let b = self.state.as_mut().ok_or(BenchError::NotBuilt("tantivy"))?;
        b.executor =
            if threads > 1 { Executor::multi_thread(threads, "tantivy-search-")? } else { Executor::single_thread() };
        Ok(true)
    }

    fn search(&mut self, query: &Query) -> Result<Found, BenchError> {
        let b = self.state.as_ref().ok_or(BenchError::NotBuilt("tantivy"))?;
        Ok(Box::new(b.search(query)?))
    }

    fn answer(&self, found: Found) -> Result<Answer, BenchError> {
        let b = self.state.as_ref().ok_or(BenchError::NotBuilt("tantivy"))?;
        let counted = found.downcast::<Counted>().map_err(|_| BenchError::NotBuilt("tantivy"))?;
        Ok(b.answer(*counted))
    }
}

impl Built {
    fn facet_value(&self, f: usize, value: &str) -> Facet {
        if f < 2 {
            self.lookups.facet_by_uri.get(value).cloned().unwrap_or_else(Facet::root)
        } else {
            flat(value)
        }
    }

    /// The query: text (if any) AND, per selected field other than `except`, any of its values.
    fn query(&self, query: &Query, except: Option<usize>) -> Result<Box<dyn TantivyQuery>, BenchError> {
        let mut must: Vec<(Occur, Box<dyn TantivyQuery>)> = Vec::new();
        if !query.words.is_empty() {
            must.push((Occur::Must, self.parser.parse_query(&query.words.join(" "))?));
        }
        let mut fields: Vec<usize> = query.selected.iter().map(|(f, _)| *f).filter(|f| Some(*f) != except).collect();
        fields.dedup();
        for f in fields {
            let any: Vec<(Occur, Box<dyn TantivyQuery>)> = query
                .selected
                .iter()
                .filter(|(g, _)| *g == f)
                .map(|(_, v)| {
                    let term = Term::from_facet(self.facet_fields[FIELDS[f]], &self.facet_value(f, v));
                    (Occur::Should, Box::new(TermQuery::new(term, IndexRecordOption::Basic)) as Box<dyn TantivyQuery>)
                })
                .collect();
            must.push((Occur::Must, Box::new(BooleanQuery::new(any))));
        }
        if must.is_empty() {
            return Ok(Box::new(tantivy::query::AllQuery));
        }
        Ok(Box::new(BooleanQuery::new(must)))
    }

    /// The collectors of one field: its top level, and for a hierarchical field a second one for the
    /// level below (a `FacetCollector` counts one level below the facets it is given, and a facet may not
    /// be given together with its descendants).
    fn collectors(&self, field: &str) -> Vec<FacetCollector> {
        let mut top = FacetCollector::for_field(field);
        top.add_facet(Facet::root());
        let mut out = vec![top];
        if let Some(tops) = self.lookups.tops.get(field) {
            let mut below = FacetCollector::for_field(field);
            for t in tops {
                below.add_facet(t.clone());
            }
            out.push(below);
        }
        out
    }

    fn read(&self, field: &str, counts: &[FacetCounts], out: &mut HashMap<String, u64>) {
        let roots = std::iter::once(Facet::root()).chain(self.lookups.tops.get(field).into_iter().flatten().cloned());
        for root in roots {
            let level = if root.is_root() { &counts[0] } else { &counts[counts.len() - 1] };
            for (facet, n) in level.get(root) {
                let key = format!("{field}{facet}");
                let value = match self.lookups.uris.get(&key) {
                    Some(uri) => uri.clone(),
                    None => facet.to_path().last().map(|s| s.to_string()).unwrap_or_default(),
                };
                out.insert(value, n);
            }
        }
    }

    /// Runs `collector` over the index's segments on the engine's executor.
    fn collect<C: Collector>(
        &self,
        searcher: &Searcher,
        query: &dyn TantivyQuery,
        collector: &C,
    ) -> Result<C::Fruit, BenchError> {
        let scoring = if collector.requires_scoring() {
            EnableScoring::enabled_from_searcher(searcher)
        } else {
            EnableScoring::disabled_from_searcher(searcher)
        };
        Ok(searcher.search_with_executor(query, collector, &self.executor, scoring)?)
    }

    /// One query, as tantivy answers it: the total, the page read back, and each field's facet counts (the
    /// selected fields' from a drill-sideways pass each).
    fn search(&self, query: &Query) -> Result<Counted, BenchError> {
        let searcher = self.reader.searcher();
        let mut fields: Vec<String> = Vec::new();
        for g in groups() {
            if !fields.contains(&g.field) {
                fields.push(g.field);
            }
        }
        let selected: Vec<usize> = query.selected.iter().map(|(f, _)| *f).collect();
        let own = |field: &str| FIELDS.iter().position(|f| *f == field).filter(|i| selected.contains(i));
        let main = self.query(query, None)?;
        let mut multi = MultiCollector::new();
        let count = multi.add_collector(Count);
        let unselected: Vec<&String> = fields.iter().filter(|f| own(f).is_none()).collect();
        let handles: Vec<Vec<_>> = unselected
            .iter()
            .map(|f| self.collectors(f).into_iter().map(|c| multi.add_collector(c)).collect())
            .collect();
        let (page, mut fruit): (Vec<_>, _) = if query.words.is_empty() {
            let top = multi.add_collector(TopDocs::with_limit(10).order_by_fast_field::<i64>("date", Order::Desc));
            let mut fruit = self.collect(&searcher, &*main, &multi)?;
            (top.extract(&mut fruit).into_iter().map(|(_, a)| a).collect(), fruit)
        } else {
            let top = multi.add_collector(TopDocs::with_limit(10).order_by_score());
            let mut fruit = self.collect(&searcher, &*main, &multi)?;
            (top.extract(&mut fruit).into_iter().map(|(_, a)| a).collect(), fruit)
        };
        let mut by_field: Vec<(String, Vec<FacetCounts>)> = unselected
            .iter()
            .zip(handles)
            .map(|(f, h)| ((*f).clone(), h.into_iter().map(|h| h.extract(&mut fruit)).collect()))
            .collect();
        let total = count.extract(&mut fruit);
        for address in page {
            let doc: TantivyDocument = searcher.doc(address)?;
            let _ = (doc.get_first(self.text.id).and_then(|v| v.as_str()), doc.get_first(self.text.title));
        }
        // Drill-sideways: a selected field's counts ignore its own selection.
        for f in fields.iter().filter(|f| own(f).is_some()) {
            let q = self.query(query, own(f))?;
            let mut multi = MultiCollector::new();
            let handles: Vec<_> = self.collectors(f).into_iter().map(|c| multi.add_collector(c)).collect();
            let mut fruit = self.collect(&searcher, &*q, &multi)?;
            by_field.push((f.clone(), handles.into_iter().map(|h| h.extract(&mut fruit)).collect()));
        }
        Ok(Counted { total, by_field })
    }

    /// The counts of `counted` by group, as the comparison reads them.
    fn answer(&self, counted: Counted) -> Answer {
        let mut by_field: HashMap<&str, HashMap<String, u64>> = HashMap::new();
        for (f, counts) in &counted.by_field {
            let mut m = HashMap::new();
            self.read(f, counts, &mut m);
            by_field.insert(f, m);
        }
        let groups = groups().iter().map(|g| by_field.get(g.field.as_str()).cloned().unwrap_or_default()).collect();
        Answer { total: counted.total as u64, groups }
    }
}

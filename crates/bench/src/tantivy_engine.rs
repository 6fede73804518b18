//! The benchmark's query mix on tantivy, built as its documentation recommends for faceted search: text
//! fields searched through `QueryParser` (conjunction, title and description boosted as our bm25 weights
//! do), facet fields (`/top/middle/leaf` paths for the two hierarchical schemes, one-segment facets for the
//! literal fields and the derived all-concepts field), filters as `TermQuery`s on facet terms, counts with
//! `FacetCollector`, and one extra collection per selected field for drill-sideways counts.

use std::collections::HashMap;
use std::path::Path;

use crate::compare::Comparator;
use crate::corpus::{SynthConcept, SynthCorpus, FIELDS};
use crate::error::BenchError;
use crate::workload::{groups, Answer, Group, Query};
use tantivy::collector::{Count, FacetCollector, FacetCounts, MultiCollector, TopDocs};
use tantivy::query::{BooleanQuery, Occur, Query as TantivyQuery, QueryParser, TermQuery};
use tantivy::schema::{
    Facet, FacetOptions, Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, Value, FAST,
    STORED,
};
use tantivy::tokenizer::{AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer};
use tantivy::{Index, IndexReader, Order, TantivyDocument, Term};

/// Writer memory budget: tantivy's examples use 50 MB; a bigger one makes fewer segments.
const WRITER_HEAP: usize = 200_000_000;
const ALL_CONCEPTS: &str = "dyn_uri_all_concepts";

/// tantivy over the benchmark corpus.
#[derive(Default)]
pub struct TantivyEngine {
    state: Option<Built>,
}

struct Built {
    reader: IndexReader,
    parser: QueryParser,
    id: Field,
    title: Field,
    facet_fields: HashMap<String, Field>,
    /// Facet path (as text) → concept URI, per concept field, for reading counts back.
    uris: HashMap<String, String>,
    /// Concept URI → its facet path, for filters.
    facet_by_uri: HashMap<String, Facet>,
    tops: HashMap<String, Vec<Facet>>,
}

fn path_of(c: &SynthConcept) -> Facet {
    Facet::from_path(c.path.iter().map(String::as_str))
}

fn flat(value: &str) -> Facet {
    Facet::from_path([value])
}

impl Comparator for TantivyEngine {
    fn name(&self) -> &str {
        "tantivy"
    }

    fn build(&mut self, corpus: &SynthCorpus, docs: usize, dir: &Path) -> Result<(), BenchError> {
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
        let path = dir.join("tantivy");
        std::fs::create_dir_all(&path).map_err(BenchError::file("create", &path))?;
        let index = Index::create_in_dir(&path, sb.build())?;
        let folded = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(40))
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .build();
        index.tokenizers().register("folded", folded);
        let mut writer: tantivy::IndexWriter = index.writer(WRITER_HEAP)?;
        for i in 0..docs {
            let d = corpus.doc(i);
            let mut doc = TantivyDocument::default();
            doc.add_text(id, &d.id);
            doc.add_text(title, &d.title);
            doc.add_text(description, &d.description);
            doc.add_text(body, &d.content);
            doc.add_i64(date, d.date_ms);
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
            writer.add_document(doc)?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        let reader = index.reader()?;
        let mut parser = QueryParser::for_index(&index, vec![title, description, body]);
        parser.set_conjunction_by_default();
        parser.set_field_boost(title, 5.0);
        parser.set_field_boost(description, 2.0);
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
        self.state = Some(Built { reader, parser, id, title, facet_fields, uris, facet_by_uri, tops });
        Ok(())
    }

    fn search(&mut self, query: &Query) -> Result<Answer, BenchError> {
        let b = self.state.as_ref().ok_or(BenchError::NotBuilt("tantivy"))?;
        b.search(query)
    }
}

impl Built {
    fn facet_value(&self, f: usize, value: &str) -> Facet {
        if f < 2 {
            self.facet_by_uri.get(value).cloned().unwrap_or_else(Facet::root)
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
        if let Some(tops) = self.tops.get(field) {
            let mut below = FacetCollector::for_field(field);
            for t in tops {
                below.add_facet(t.clone());
            }
            out.push(below);
        }
        out
    }

    fn read(&self, field: &str, counts: &[FacetCounts], out: &mut HashMap<String, u64>) {
        let roots = std::iter::once(Facet::root()).chain(self.tops.get(field).into_iter().flatten().cloned());
        for root in roots {
            let level = if root.is_root() { &counts[0] } else { &counts[counts.len() - 1] };
            for (facet, n) in level.get(root) {
                let key = format!("{field}{facet}");
                let value = match self.uris.get(&key) {
                    Some(uri) => uri.clone(),
                    None => facet.to_path().last().map(|s| s.to_string()).unwrap_or_default(),
                };
                out.insert(value, n);
            }
        }
    }

    fn search(&self, query: &Query) -> Result<Answer, BenchError> {
        let searcher = self.reader.searcher();
        let all_groups: Vec<Group> = groups();
        let mut fields: Vec<&str> = Vec::new();
        for g in &all_groups {
            if !fields.contains(&g.field.as_str()) {
                fields.push(&g.field);
            }
        }
        let selected: Vec<usize> = query.selected.iter().map(|(f, _)| *f).collect();
        let own = |field: &str| FIELDS.iter().position(|f| *f == field).filter(|i| selected.contains(i));
        let main = self.query(query, None)?;
        let mut multi = MultiCollector::new();
        let count = multi.add_collector(Count);
        let unselected: Vec<&str> = fields.iter().copied().filter(|f| own(f).is_none()).collect();
        let handles: Vec<Vec<_>> = unselected
            .iter()
            .map(|f| self.collectors(f).into_iter().map(|c| multi.add_collector(c)).collect())
            .collect();
        let (total, page, mut counts) = if query.words.is_empty() {
            let top = multi.add_collector(TopDocs::with_limit(10).order_by_fast_field::<i64>("date", Order::Desc));
            let mut fruit = searcher.search(&*main, &multi)?;
            let page: Vec<_> = top.extract(&mut fruit).into_iter().map(|(_, a)| a).collect();
            let counts: Vec<Vec<FacetCounts>> =
                handles.into_iter().map(|h| h.into_iter().map(|h| h.extract(&mut fruit)).collect()).collect();
            (count.extract(&mut fruit), page, counts)
        } else {
            let top = multi.add_collector(TopDocs::with_limit(10).order_by_score());
            let mut fruit = searcher.search(&*main, &multi)?;
            let page: Vec<_> = top.extract(&mut fruit).into_iter().map(|(_, a)| a).collect();
            let counts: Vec<Vec<FacetCounts>> =
                handles.into_iter().map(|h| h.into_iter().map(|h| h.extract(&mut fruit)).collect()).collect();
            (count.extract(&mut fruit), page, counts)
        };
        for address in page {
            let doc: TantivyDocument = searcher.doc(address)?;
            let _ = (doc.get_first(self.id).and_then(|v| v.as_str()), doc.get_first(self.title));
        }
        let mut by_field: HashMap<&str, HashMap<String, u64>> = HashMap::new();
        for (f, c) in unselected.iter().zip(counts.drain(..)) {
            let mut m = HashMap::new();
            self.read(f, &c, &mut m);
            by_field.insert(f, m);
        }
        // Drill-sideways: a selected field's counts ignore its own selection.
        for f in fields.iter().copied().filter(|f| own(f).is_some()) {
            let q = self.query(query, own(f))?;
            let mut multi = MultiCollector::new();
            let handles: Vec<_> = self.collectors(f).into_iter().map(|c| multi.add_collector(c)).collect();
            let mut fruit = searcher.search(&*q, &multi)?;
            let c: Vec<FacetCounts> = handles.into_iter().map(|h| h.extract(&mut fruit)).collect();
            let mut m = HashMap::new();
            self.read(f, &c, &mut m);
            by_field.insert(f, m);
        }
        let groups = all_groups.iter().map(|g| by_field.get(g.field.as_str()).cloned().unwrap_or_default()).collect();
        Ok(Answer { total: total as u64, groups })
    }
}

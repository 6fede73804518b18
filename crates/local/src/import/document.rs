//! Writing one imported document: its row, the labels and broader links of its concepts, and its text handed to
//! the full-text index's builder.

use rusqlite::{params, OptionalExtension, Transaction};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Deserialize;
use studio_engine::stored_facets;
use studio_engine::text_index::{Indexer, Job};
use studio_model::{FacetGroup, Refiner, ALL_CONCEPTS_FIELD, CONCEPT_PREFIX};

use super::report::bump_generation;
use crate::error::StoreError;

/// One line of a documents import.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Incoming {
    pub(super) id: String,
    #[serde(default)]
    link: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    date: Option<f64>,
    #[serde(default)]
    image: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    facet_list: Option<Vec<IncomingGroup>>,
}

#[derive(Deserialize)]
struct IncomingGroup {
    field: String,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    facets: Option<Vec<IncomingRefiner>>,
}

#[derive(Deserialize)]
struct IncomingRefiner {
    #[serde(default)]
    count: Option<f64>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    children: Option<Vec<IncomingRefiner>>,
}

/// What one import has already written, so that repeated labels and links are not rewritten per document.
#[derive(Default)]
pub(super) struct Seen {
    concept_labels: FxHashMap<String, String>,
    /// Per concept, the broader ones written.
    broader: FxHashMap<String, FxHashSet<String>>,
    field_labels: FxHashMap<String, String>,
    /// The lowest row number the next document may have: above every number this import handed to the index,
    /// and every one it had been handed before (`text_index::next_row`), since numbers are never used twice.
    next_row: i64,
    /// Whether the search space held no document when the import began (known at its first batch): its documents
    /// are then written at once, and only one that meets a stored id looks for the row it replaces.
    space_was_empty: Option<bool>,
}

impl Seen {
    /// Nothing written yet; the next document's row at least `next_row`.
    pub(super) fn from_row(next_row: i64) -> Seen {
        Seen { next_row, ..Seen::default() }
    }

    /// A new batch of `space` in `tx`, at its first document: its first statement moves the space's generation
    /// (every batch with documents does), which takes the documents file for writing, and then the rows another
    /// import may have stored before this batch are read again (within it, none can). A read first would make
    /// the batch a read transaction to be upgraded, which fails at once when another import wrote meanwhile.
    pub(super) fn new_batch(&mut self, tx: &Transaction, space: &str) -> Result<(), StoreError> {
        bump_generation(tx, space)?;
        let last: i64 =
            tx.prepare_cached("SELECT coalesce(max(num), 0) FROM documents")?.query_row([], |r| r.get(0))?;
        self.next_row = self.next_row.max(last + 1);
        if self.space_was_empty.is_none() {
            let held = tx
                .prepare_cached("SELECT 1 FROM documents WHERE search_space = ?1 LIMIT 1")?
                .query_row([space], |_| Ok(()))
                .optional()?;
            self.space_was_empty = Some(held.is_none());
        }
        Ok(())
    }
}

/// Writes one document, and hands its text to the full-text index (and the row it replaced, out of it).
pub(super) fn write_document(
    tx: &Transaction,
    space: &str,
    doc: Incoming,
    seen: &mut Seen,
    indexer: &mut Indexer,
) -> Result<(), StoreError> {
    let mut groups: Vec<FacetGroup> = Vec::new();
    for g in doc.facet_list.unwrap_or_default() {
        if g.field.is_empty() || g.field == ALL_CONCEPTS_FIELD {
            continue;
        }
        let label = g.label.unwrap_or_default();
        if seen.field_labels.get(&g.field) != Some(&label) {
            tx.prepare_cached(
                "INSERT INTO facet_fields (search_space, field, label) VALUES (?1, ?2, ?3)
                 ON CONFLICT (search_space, field) DO UPDATE SET label = excluded.label",
            )?
            .execute(params![space, g.field, label])?;
            seen.field_labels.insert(g.field.clone(), label.clone());
        }
        let facets = g.facets.unwrap_or_default().into_iter().map(convert).collect();
        groups.push(FacetGroup { field: g.field, label, facets });
    }
    let facet_list = stored_facets::to_stored(&groups)?;
    let num = seen.next_row;
    seen.next_row = num + 1;
    let fields = [doc.title.unwrap_or_default(), doc.description.unwrap_or_default(), doc.content.unwrap_or_default()];
    let insert = || {
        tx.prepare_cached(
            "INSERT INTO documents (search_space, id, title, description, body, link, date, image, type, facet_list,
             num) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(params![
            space,
            doc.id,
            fields[0],
            fields[1],
            fields[2],
            doc.link.as_deref().unwrap_or_default(),
            doc.date.unwrap_or(0.0),
            doc.image,
            doc.kind.as_deref().unwrap_or("User"),
            facet_list,
            num,
        ])
    };
    let replace = || -> Result<Option<i64>, StoreError> {
        let replaced = tx
            .prepare_cached("DELETE FROM documents WHERE search_space = ?1 AND id = ?2 RETURNING num")?
            .query_row(params![space, doc.id], |r| r.get(0))
            .optional()?;
        insert()?;
        Ok(replaced)
    };
    // Into a space that was empty, a document is written at once; only an id met before (this import's own, or
    // another import's since) fails the insert and looks for the row it replaces.
    let replaced = match seen.space_was_empty {
        Some(true) => match insert() {
            Ok(_) => None,
            Err(e) if is_duplicate(&e) => replace()?,
            Err(e) => return Err(e.into()),
        },
        _ => replace()?,
    };
    // Any row, one of this import's too: the index takes the import's removals out after its documents.
    if let Some(row) = replaced {
        indexer.push(Job::Remove { row })?;
    }
    indexer.push(Job::Add { row: num, fields })?;
    for g in groups.iter().filter(|g| g.field.starts_with(CONCEPT_PREFIX)) {
        write_concepts(tx, space, &g.facets, None, seen)?;
    }
    Ok(())
}

/// Whether `e` is a write refused because the search space already holds the document's id.
fn is_duplicate(e: &rusqlite::Error) -> bool {
    e.sqlite_error().is_some_and(|e| e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE)
}

fn convert(r: IncomingRefiner) -> Refiner {
    Refiner {
        count: r.count.map(|c| c as i64).unwrap_or(0),
        label: r.label.unwrap_or_default(),
        value: r.value,
        children: r.children.map(|c| c.into_iter().map(convert).collect()),
    }
}

/// Writes, for the refiners of a concept field at any depth, each concept's label and its broader link to the
/// enclosing refiner. (The refiners themselves are in the document's facet list, which the engine's index reads.)
fn write_concepts(
    tx: &Transaction,
    space: &str,
    refiners: &[Refiner],
    parent: Option<&str>,
    seen: &mut Seen,
) -> Result<(), StoreError> {
    for r in refiners {
        let uri = r.value.as_deref().filter(|v| !v.is_empty());
        if let Some(uri) = uri {
            if !r.label.is_empty() && seen.concept_labels.get(uri) != Some(&r.label) {
                tx.prepare_cached(
                    "INSERT INTO concepts (scope, uri, label) VALUES (?1, ?2, ?3)
                     ON CONFLICT (scope, uri) DO UPDATE SET label = excluded.label",
                )?
                .execute(params![space, uri, r.label])?;
                seen.concept_labels.insert(uri.to_owned(), r.label.clone());
            }
            if let Some(parent) = parent.filter(|p| *p != uri) {
                if !seen.broader.get(uri).is_some_and(|written| written.contains(parent)) {
                    tx.prepare_cached(
                        "INSERT OR IGNORE INTO concept_broader (scope, narrower, broader) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![space, uri, parent])?;
                    seen.broader.entry(uri.to_owned()).or_default().insert(parent.to_owned());
                }
            }
        }
        if let Some(children) = &r.children {
            write_concepts(tx, space, children, uri, seen)?;
        }
    }
    Ok(())
}

//! FTS5's full-text index as the store kept it before the engine had its own, for the comparisons that measure
//! against it (the naive SQLite approach's searches, and the text build): the same table, tokenizer and settings.

/// The table `documents_fts` of the documents' title, description and body, each row a document's row number:
/// contentless (the text stays where it is read from), folded as the engine folds it, merging nothing while rows
/// are added, its crisis merges at 64 segments a level, and up to 16 MB of new terms gathered before they are
/// written out.
pub const SCHEMA: &str = "
CREATE VIRTUAL TABLE documents_fts USING fts5 (
    title, description, body,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('automerge', 0);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('crisismerge', 64);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('hashsize', 16777216);
";

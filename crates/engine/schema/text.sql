-- The full-text index's file (studio-text.db), version 1. Kept apart from the documents file so that a second
-- connection builds it while an import writes the documents (one writer per file; docs/performance-journal.md, run R).
-- It holds no text of its own: the documents file stores the text once, and the index only what the searches
-- read back (terms, positions, sizes). A row is taken out with the text it was indexed with (FTS5's 'delete'),
-- which keeps the index's totals, and so every score, exact.

-- Full text over title, description and body; case- and accent-insensitive. Each row's id is the document's
-- row number in the documents file (`documents.num`). FTS5 merges nothing while an import writes (the store's
-- upkeep merges the index afterwards), its crisis merges wait for 64 segments a level, and it gathers up to
-- 16 MB of new terms before writing them out (docs/performance-journal.md, runs P and Q).
CREATE VIRTUAL TABLE documents_fts USING fts5 (
    title, description, body,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('automerge', 0);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('crisismerge', 64);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('hashsize', 16777216);
-- Document frequencies of terms, for the `text` similarity plugin and the term counts.
CREATE VIRTUAL TABLE documents_fts_terms USING fts5vocab (documents_fts, row);

-- How far the index has got: every document row up to `indexed_to` is in it. `building` counts the imports
-- building it, in any process: while it is not 0, rows the index holds may since have been replaced in the
-- documents file, or not be indexed yet. A store opened with it not 0 and no import alive (an import cut short),
-- or with the index behind the documents, builds the index again from the documents (text_index.rs).
CREATE TABLE text_state (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_to INTEGER NOT NULL,
    building   INTEGER NOT NULL
);
INSERT INTO text_state (id, indexed_to, building) VALUES (1, 0, 0);

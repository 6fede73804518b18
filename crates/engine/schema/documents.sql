-- The documents file (studio-documents.db): documents per search space, their facet values, concepts with
-- broader links, the full-text index and the index snapshots. Everything here can be rebuilt by importing
-- the documents again, so this file is synced per import batch, not per write, and is not backed up.
-- This is the file's whole schema (version 1); a new documents file is created with it.
--
-- Imports add a batch's documents to the full-text index in one statement after writing them, which is
-- several times faster than a trigger firing per row; the delete and update triggers keep every other
-- change in step.

-- One imported document. `num` is the rowid shared with the full-text index; `facet_list` is the
-- facetList as imported, kept without what can be made again (crates/engine/src/stored_facets.rs: the derived
-- dyn_uri_all_concepts group, null values and children, counts of 1; lists written in full before read alike).
CREATE TABLE documents (
    num          INTEGER PRIMARY KEY,
    search_space TEXT NOT NULL,
    id           TEXT NOT NULL,
    title        TEXT NOT NULL,
    description  TEXT NOT NULL,
    body         TEXT NOT NULL,           -- the optional `content` of the import format: searched, not returned
    link         TEXT NOT NULL,
    date         REAL NOT NULL,           -- epoch milliseconds
    image        TEXT,
    type         TEXT NOT NULL,
    facet_list   TEXT NOT NULL,
    UNIQUE (search_space, id)
);

-- Every refiner of every facet group of a document, at any depth (`value` null for literal values).
CREATE TABLE document_facets (
    doc   INTEGER NOT NULL REFERENCES documents(num) ON DELETE CASCADE,
    field TEXT NOT NULL,
    label TEXT NOT NULL,
    value TEXT
);
CREATE INDEX document_facets_by_doc ON document_facets (doc);

-- The name of each facet field of a search space, as the imported facet groups call it.
CREATE TABLE facet_fields (
    search_space TEXT NOT NULL,
    field        TEXT NOT NULL,
    label        TEXT NOT NULL,
    PRIMARY KEY (search_space, field)
);

-- Concepts and their broader links. `scope` is a search space id, or '' for a scheme loaded on its own
-- (import-concepts), which every search space sees; a search space's own label wins over the global one.
CREATE TABLE concepts (
    scope TEXT NOT NULL,
    uri   TEXT NOT NULL,
    label TEXT NOT NULL,
    PRIMARY KEY (scope, uri)
);
CREATE TABLE concept_broader (
    scope    TEXT NOT NULL,
    narrower TEXT NOT NULL,
    broader  TEXT NOT NULL,
    PRIMARY KEY (scope, narrower, broader)
);

-- Bumped by every committed import batch of a scope (search space id, or '' for global concepts), so
-- that an in-memory index built from an older state, in this process or another, notices and rebuilds.
CREATE TABLE generations (
    scope      TEXT PRIMARY KEY,
    generation INTEGER NOT NULL
);

-- Full text over title, description and body; case- and accent-insensitive.
CREATE VIRTUAL TABLE documents_fts USING fts5 (
    title, description, body,
    content = 'documents', content_rowid = 'num',
    tokenize = 'unicode61 remove_diacritics 2'
);
-- Document frequencies of terms, for the `text` similarity plugin.
CREATE VIRTUAL TABLE documents_fts_terms USING fts5vocab (documents_fts, row);

CREATE TRIGGER documents_fts_delete AFTER DELETE ON documents BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, description, body)
    VALUES ('delete', old.num, old.title, old.description, old.body);
END;
CREATE TRIGGER documents_fts_update AFTER UPDATE ON documents BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, description, body)
    VALUES ('delete', old.num, old.title, old.description, old.body);
    INSERT INTO documents_fts (rowid, title, description, body) VALUES (new.num, new.title, new.description, new.body);
END;

-- A persisted copy of each search space's in-memory facet index (a cache, never the source of truth):
-- one row per part, stamped with the generations it was built from and the format of the code that
-- wrote it; a stamp that does not match the store's current generations makes it ignored and replaced.
CREATE TABLE index_snapshots (
    search_space      TEXT NOT NULL,
    part              INTEGER NOT NULL,
    generation        INTEGER NOT NULL,
    global_generation INTEGER NOT NULL,
    format            INTEGER NOT NULL,
    data              BLOB NOT NULL,
    PRIMARY KEY (search_space, part)
);

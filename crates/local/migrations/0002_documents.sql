-- Documents per search space, their facet values, concepts with broader links, and the full-text index.

-- One imported document. `num` is the rowid shared with the full-text index; `facet_list` is the
-- facetList as imported, with the derived dyn_uri_all_concepts group in place of any imported one.
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

CREATE TRIGGER documents_fts_insert AFTER INSERT ON documents BEGIN
    INSERT INTO documents_fts (rowid, title, description, body) VALUES (new.num, new.title, new.description, new.body);
END;
CREATE TRIGGER documents_fts_delete AFTER DELETE ON documents BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, description, body)
    VALUES ('delete', old.num, old.title, old.description, old.body);
END;
CREATE TRIGGER documents_fts_update AFTER UPDATE ON documents BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, description, body)
    VALUES ('delete', old.num, old.title, old.description, old.body);
    INSERT INTO documents_fts (rowid, title, description, body) VALUES (new.num, new.title, new.description, new.body);
END;

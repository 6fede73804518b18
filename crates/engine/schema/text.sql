-- The full-text index's state file (studio-text.db), version 1. The index itself is a directory of the engine's
-- own beside it (`studio-text`, text_index.rs); this file says how far the index has got.

-- How far the index has got: every document row up to `indexed_to` is in it. `building` counts the imports
-- building it, in any process: while it is not 0, rows the index holds may since have been replaced in the
-- documents file, or not be indexed yet. A store opened with it not 0 and no import alive, or with the index
-- behind the documents, builds the index again from the documents (text_index.rs).
CREATE TABLE text_state (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_to INTEGER NOT NULL,
    building   INTEGER NOT NULL
);
INSERT INTO text_state (id, indexed_to, building) VALUES (1, 0, 0);

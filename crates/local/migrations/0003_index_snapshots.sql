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

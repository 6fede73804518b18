-- Documents file, version 3: FTS5 no longer merges its index's segments as documents are written
-- (`automerge` 0), which was a large part of an import's time. The store's upkeep merges the whole index into
-- one segment after each change instead, off the import's path (search/upkeep.rs); meanwhile FTS5's crisis
-- merges (16 segments on a level) still bound how many a search walks.
INSERT INTO documents_fts (documents_fts, rank) VALUES ('automerge', 0);

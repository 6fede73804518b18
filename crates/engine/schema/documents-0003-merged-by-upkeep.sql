-- Documents file, version 3: FTS5 no longer merges its index's segments as documents are written
-- (`automerge` 0), which was a large part of an import's time, and its crisis merges (which bound the segments
-- meanwhile) wait for 64 segments on a level instead of 16, so an import rewrites its text through fewer levels.
-- The store's upkeep merges the whole index into one segment after each change instead, off the import's path
-- (the engine's upkeep.rs).
INSERT INTO documents_fts (documents_fts, rank) VALUES ('automerge', 0);
INSERT INTO documents_fts (documents_fts, rank) VALUES ('crisismerge', 64);

-- Documents file, version 4: FTS5 gathers up to 16 MB of new terms in memory (its `hashsize`; 1 MB before)
-- before writing them out as a segment. With nothing merged while an import writes (version 3), each flush
-- was a segment of its own, so a batch of 5,000 documents (about 16 MB of text) left many small segments
-- for the crisis merges to rewrite; at 16 MB it leaves a few. A 1M-document import went from 168 to about 133 s
-- (docs/performance-journal.md, run Q); the memory is held only while a write transaction adds text.
INSERT INTO documents_fts (documents_fts, rank) VALUES ('hashsize', 16777216);

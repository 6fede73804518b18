-- Documents file, version 5: the full-text index moves to a file of its own (text.sql), which a
-- second connection builds while an import writes the documents. The store builds the new index from the
-- documents when it opens (once: about a minute for a million documents).
DROP TRIGGER IF EXISTS documents_fts_delete;
DROP TRIGGER IF EXISTS documents_fts_update;
DROP TABLE IF EXISTS documents_fts_terms;
DROP TABLE IF EXISTS documents_fts;

-- Version 2: the full-text index moves out of FTS5 into the engine's own directory (`studio-text`), built again
-- from the documents at the next open (an `indexed_to` no document row has says the index is behind them).
DROP TABLE IF EXISTS documents_fts_terms;
DROP TABLE IF EXISTS documents_fts;
UPDATE text_state SET indexed_to = -1;

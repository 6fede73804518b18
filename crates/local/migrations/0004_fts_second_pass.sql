-- Imports add a batch's documents to the full-text index in one statement after writing them (same
-- transaction), which is several times faster than a trigger firing per row; so the insert trigger goes.
-- The delete and update triggers stay: every other change keeps the index in step by itself.
DROP TRIGGER documents_fts_insert;

-- The document tables move to their own file (attached as `docs`): the configurations, drafts, published
-- versions and history stay here, synced at every commit and backed up; the documents, rebuildable by an
-- import, no longer share their file. Rows already in the documents file (from a move that stopped half
-- way) are replaced. A precious file made new (a first start beside an existing documents file, or
-- `studio recover` rebuilding a damaged studio.db) has nothing to move: the documents file is then left as it is.
-- The facet value rows (`document_facets`) are not moved: the documents file's version 6 reads a document's values
-- from its facet list, so they are dropped with the rest.
CREATE TEMP TABLE moving AS SELECT (
    EXISTS (SELECT 1 FROM main.documents) OR EXISTS (SELECT 1 FROM main.facet_fields)
    OR EXISTS (SELECT 1 FROM main.concepts) OR EXISTS (SELECT 1 FROM main.concept_broader)
    OR EXISTS (SELECT 1 FROM main.generations) OR EXISTS (SELECT 1 FROM main.index_snapshots)
) AS yes;
DELETE FROM docs.documents WHERE (SELECT yes FROM temp.moving);
DELETE FROM docs.facet_fields WHERE (SELECT yes FROM temp.moving);
DELETE FROM docs.concepts WHERE (SELECT yes FROM temp.moving);
DELETE FROM docs.concept_broader WHERE (SELECT yes FROM temp.moving);
DELETE FROM docs.generations WHERE (SELECT yes FROM temp.moving);
DELETE FROM docs.index_snapshots WHERE (SELECT yes FROM temp.moving);
INSERT INTO docs.documents SELECT * FROM main.documents;
INSERT INTO docs.facet_fields SELECT * FROM main.facet_fields;
INSERT INTO docs.concepts SELECT * FROM main.concepts;
INSERT INTO docs.concept_broader SELECT * FROM main.concept_broader;
INSERT INTO docs.generations SELECT * FROM main.generations;
INSERT INTO docs.index_snapshots SELECT * FROM main.index_snapshots;
-- (The full-text index of the moved rows is built in its own file when the store opens: text_index.rs.)
DROP TABLE main.documents_fts_terms;
DROP TABLE main.documents_fts;
DROP TABLE main.document_facets;
DROP TABLE main.documents;
DROP TABLE main.facet_fields;
DROP TABLE main.concepts;
DROP TABLE main.concept_broader;
DROP TABLE main.generations;
DROP TABLE main.index_snapshots;
DROP TABLE temp.moving;

-- Version 6: what the engine now reads elsewhere goes. The terms' row counts come from the full-text index's own
-- dictionaries; a document's facet values are read from its facet list (`documents.facet_list`) when a search
-- space's index is built, so they are no longer written a second time, a row per value.
DROP TABLE IF EXISTS term_counts;
DROP TABLE IF EXISTS term_counts_made;
DROP INDEX IF EXISTS document_facets_by_doc;
DROP TABLE IF EXISTS document_facets;

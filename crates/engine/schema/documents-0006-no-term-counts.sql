-- Version 6: the terms' row counts are read from the full-text index's own dictionaries; the kept counts go.
DROP TABLE IF EXISTS term_counts;
DROP TABLE IF EXISTS term_counts_made;

-- Documents file, version 2: the rows of the full-text index having each term, counted in the background
-- for the `text` similarity plugin (counting a common term's rows walks its whole list). A cache like the
-- index snapshots: `term_counts_made` holds the sum of every scope's generation the counts were made at,
-- and with any other sum they are not used. Rare terms are left out: counting those is quick.
CREATE TABLE IF NOT EXISTS term_counts (
    term TEXT PRIMARY KEY,
    rows INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS term_counts_made (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    generations INTEGER NOT NULL
);

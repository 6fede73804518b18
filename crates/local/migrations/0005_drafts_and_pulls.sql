-- Offline work (crates/sync): drafts kept per backend and configuration, the versions this app published
-- to remote servers, and the state of pulls of remote search spaces (so that a cancelled pull resumes).
-- `backend` is 'local' for the local store, else the remote server's base URL.

-- One draft per backend and configuration. A configuration not yet created has a negative config_id.
-- `base` is the stored envelope the draft started from (null for a configuration not yet created).
CREATE TABLE drafts (
    backend    TEXT    NOT NULL,
    config_id  INTEGER NOT NULL,
    draft      TEXT    NOT NULL,
    base       TEXT,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (backend, config_id)
);

-- Every version this app published (created or updated) on a backend, as the server answered it.
CREATE TABLE published_versions (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    backend   TEXT    NOT NULL,
    config_id INTEGER NOT NULL,
    at        TEXT    NOT NULL,
    user      TEXT    NOT NULL,
    envelope  TEXT    NOT NULL
);
CREATE INDEX published_versions_by_config ON published_versions (backend, config_id, seq);

-- A pull of one remote configuration and the documents its search returns.
CREATE TABLE pulls (
    source       TEXT    NOT NULL,
    remote_id    INTEGER NOT NULL,
    local_id     INTEGER,
    search_space TEXT    NOT NULL,
    next_start   INTEGER NOT NULL DEFAULT 0,
    total        INTEGER,
    finished     INTEGER NOT NULL DEFAULT 0,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (source, remote_id)
);

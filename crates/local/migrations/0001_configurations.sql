-- Configurations, the active one, and a history row for every change.
CREATE TABLE configurations (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: ids are never reused
    user         TEXT NOT NULL,
    created      TEXT NOT NULL,
    search_space TEXT NOT NULL,
    envelope     TEXT NOT NULL                       -- the whole configuration envelope as JSON
);

CREATE TABLE active_configuration (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    config_id INTEGER NOT NULL REFERENCES configurations(id)
);

CREATE TABLE configuration_log (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    config_id INTEGER NOT NULL,                      -- no foreign key: history outlives a delete
    at        TEXT NOT NULL,
    user      TEXT NOT NULL,
    action    TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'set-active')),
    envelope  TEXT NOT NULL
);
CREATE INDEX configuration_log_by_config ON configuration_log (config_id, seq);

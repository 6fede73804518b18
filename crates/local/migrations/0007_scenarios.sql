-- Preview scenarios (crates/sync, scenarios.rs): the named test searches a designer keeps for a configuration,
-- per backend and configuration like drafts, as one JSON list. Never sent to a server.
CREATE TABLE scenarios (
    backend    TEXT    NOT NULL,
    config_id  INTEGER NOT NULL,
    scenarios  TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (backend, config_id)
);

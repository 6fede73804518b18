//! The precious tables read from two sources (the store's own file, possibly damaged, and its newest
//! backup) and merged: for each configuration the newer copy wins, history, drafts and published versions
//! are joined without duplicates. Knowing which copy is newer is also what `check` reports as "newer in
//! the backup".
//!
//! Which copy is newer: every change of a configuration writes a history row holding the whole envelope
//! (configuration_log), so the newest history entry of a configuration, in either source, says which copy
//! is current; when the current copy's row is unreadable, that entry's envelope is the configuration.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rusqlite::types::Value;
use rusqlite::Connection;
use studio_model::Configuration;

use super::salvage::{int, read_table, text, Table};

/// The tables of the precious file, in the order they are written back.
pub(crate) const PRECIOUS_TABLES: [&str; 7] = [
    "configurations",
    "active_configuration",
    "configuration_log",
    "drafts",
    "published_versions",
    "pulls",
    "scenarios",
];

/// The precious tables as read from one file.
#[derive(Default)]
pub(crate) struct Precious {
    pub tables: BTreeMap<&'static str, Table>,
    /// The highest configuration id ever given out, as `sqlite_sequence` remembers it.
    pub sequence: Option<i64>,
}

impl Precious {
    pub fn read(conn: &Connection) -> Precious {
        let tables = PRECIOUS_TABLES.iter().map(|t| (*t, read_table(conn, t, None))).collect();
        let sequence =
            conn.query_row("SELECT seq FROM sqlite_sequence WHERE name = 'configurations'", [], |r| r.get(0)).ok();
        Precious { tables, sequence }
    }

    /// What cannot be read in the precious tables, one sentence per table: rows on damaged pages, and
    /// configurations or history entries whose envelope is not a configuration.
    pub fn unreadable(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (name, t) in &self.tables {
            if let Some(e) = &t.error {
                out.push(e.clone());
                continue;
            }
            let envelope = t.index("envelope").filter(|_| matches!(*name, "configurations" | "configuration_log"));
            let bad = t.rows.iter().filter(|r| envelope.is_some() && text(r, envelope).and_then(parse).is_none());
            let lost = t.lost + bad.count();
            if lost > 0 {
                out.push(format!("{lost} rows of {name} cannot be read"));
            }
        }
        out
    }

    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.get(name)
    }

    /// Readable configuration rows: id → envelope (rows whose envelope is not a configuration are left out).
    pub fn configurations(&self) -> BTreeMap<i64, String> {
        let Some(t) = self.table("configurations") else { return BTreeMap::new() };
        let (id, envelope) = (t.index("id"), t.index("envelope"));
        t.rows
            .iter()
            .filter_map(|r| Some((int(r, id)?, text(r, envelope)?.to_owned())))
            .filter(|(_, e)| parse(e).is_some())
            .collect()
    }

    fn history(&self) -> Vec<Entry> {
        let Some(t) = self.table("configuration_log") else { return Vec::new() };
        let [seq, config_id, at, user, action, envelope] =
            ["seq", "config_id", "at", "user", "action", "envelope"].map(|c| t.index(c));
        t.rows
            .iter()
            .filter_map(|r| {
                let entry = Entry {
                    seq: int(r, seq)?,
                    config_id: int(r, config_id)?,
                    at: text(r, at)?.to_owned(),
                    user: text(r, user)?.to_owned(),
                    action: text(r, action)?.to_owned(),
                    envelope: text(r, envelope)?.to_owned(),
                    in_store: false,
                    in_backup: false,
                };
                parse(&entry.envelope).map(|_| entry)
            })
            .collect()
    }

    pub fn active(&self) -> Option<i64> {
        let t = self.table("active_configuration")?;
        t.rows.first().and_then(|r| int(r, t.index("config_id")))
    }
}

/// The configuration in an envelope, if it is one.
pub(crate) fn parse(envelope: &str) -> Option<Configuration> {
    serde_json::from_str(envelope).ok()
}

/// One history entry, and in which sources it was found.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub seq: i64,
    pub config_id: i64,
    pub at: String,
    pub user: String,
    pub action: String,
    pub envelope: String,
    pub in_store: bool,
    pub in_backup: bool,
}

/// Where a configuration's recovered copy comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The store's own row.
    Store,
    /// The backup's row: the store lost this configuration's last changes (or its row).
    Backup,
    /// The newest history entry's envelope (both rows are older or unreadable); `true` when that entry is
    /// only in the backup.
    History { from_backup: bool },
}

/// The configurations of both sources, which copy wins, and their joined history.
pub(crate) struct Merged {
    /// id → (source, envelope) of every configuration that exists after the merge.
    pub configurations: BTreeMap<i64, (Source, String)>,
    /// Every history entry of both sources once, oldest first.
    pub history: Vec<Entry>,
}

impl Merged {
    pub fn new(store: &Precious, backup: Option<&Precious>) -> Merged {
        let history = join_history(store.history(), backup.map(Precious::history).unwrap_or_default());
        let mut newest: HashMap<i64, &Entry> = HashMap::new();
        for entry in &history {
            newest.insert(entry.config_id, entry);
        }
        let in_store = store.configurations();
        let in_backup = backup.map(Precious::configurations).unwrap_or_default();
        let ids: BTreeSet<i64> = in_store.keys().chain(in_backup.keys()).chain(newest.keys()).copied().collect();
        let mut configurations = BTreeMap::new();
        for id in ids {
            let (s, b) = (in_store.get(&id), in_backup.get(&id));
            let chosen = match newest.get(&id) {
                Some(entry) if entry.action == "delete" => None,
                Some(entry) if entry.in_store && s.is_some() => s.map(|e| (Source::Store, e)),
                Some(entry) if !entry.in_store && b.is_some() => b.map(|e| (Source::Backup, e)),
                Some(entry) => Some((Source::History { from_backup: !entry.in_store }, &entry.envelope)),
                None => s.map(|e| (Source::Store, e)).or(b.map(|e| (Source::Backup, e))),
            };
            if let Some((source, envelope)) = chosen {
                configurations.insert(id, (source, envelope.clone()));
            }
        }
        Merged { configurations, history }
    }

    /// The configurations whose winning copy comes from the backup only.
    pub fn newer_in_backup(&self) -> impl Iterator<Item = (i64, &str)> {
        self.configurations.iter().filter_map(|(id, (source, envelope))| {
            matches!(source, Source::Backup | Source::History { from_backup: true }).then_some((*id, envelope.as_str()))
        })
    }
}

/// Both histories joined: an entry present in both (same configuration, time, action and envelope) once,
/// ordered by time and then by its place in its own history.
fn join_history(store: Vec<Entry>, backup: Vec<Entry>) -> Vec<Entry> {
    let mut joined: BTreeMap<(String, i64, i64, String, String), Entry> = BTreeMap::new();
    for (mut entry, from_store) in store.into_iter().map(|e| (e, true)).chain(backup.into_iter().map(|e| (e, false))) {
        let key = (entry.at.clone(), entry.seq, entry.config_id, entry.action.clone(), entry.envelope.clone());
        let slot = joined.entry(key).or_insert_with(|| {
            entry.in_store = false;
            entry.in_backup = false;
            entry
        });
        if from_store {
            slot.in_store = true;
        } else {
            slot.in_backup = true;
        }
    }
    joined.into_values().collect()
}

/// Drafts, scenarios, published versions and pulls of both sources: keyed rows once (the newer `updated_at` wins),
/// published versions once per (backend, configuration, time, envelope).
pub(crate) fn join_rows(table: &str, store: Option<&Table>, backup: Option<&Table>) -> (Vec<String>, Vec<Vec<Value>>) {
    let columns = store.or(backup).map(|t| t.columns.clone()).unwrap_or_default();
    let (key, newer_by): (&[&str], Option<&str>) = match table {
        "drafts" | "scenarios" => (&["backend", "config_id"], Some("updated_at")),
        "pulls" => (&["source", "remote_id"], Some("updated_at")),
        "published_versions" => (&["backend", "config_id", "at", "envelope"], None),
        _ => (&[], None),
    };
    let mut joined: BTreeMap<Vec<String>, Vec<Value>> = BTreeMap::new();
    for source in [store, backup].into_iter().flatten() {
        for row in &source.rows {
            // Rows of both sources are put in the first source's column order.
            let Some(row) = columns.iter().map(|c| source.index(c).and_then(|i| row.get(i).cloned())).collect() else {
                continue;
            };
            let row: Vec<Value> = row;
            let k: Vec<String> =
                key.iter().map(|c| format!("{:?}", columns.iter().position(|x| x == c).map(|i| &row[i]))).collect();
            let newer = |old: &Vec<Value>| match newer_by.and_then(|c| columns.iter().position(|x| x == c)) {
                Some(i) => text(&row, Some(i)) > text(old, Some(i)),
                None => false,
            };
            match joined.get(&k) {
                Some(old) if !newer(old) => {}
                _ => {
                    joined.insert(k, row);
                }
            }
        }
    }
    let mut rows: Vec<Vec<Value>> = joined.into_values().collect();
    if let Some(at) = columns.iter().position(|c| c == "at") {
        rows.sort_by(|a, b| text(a, Some(at)).cmp(&text(b, Some(at))));
    }
    (columns, rows)
}

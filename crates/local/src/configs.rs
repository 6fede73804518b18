//! Configuration rows: reading, the create/update/delete/set-active writes with their history rows, each
//! write in one immediate transaction so that concurrent writers queue instead of failing.

use std::sync::{Arc, Mutex};

use chrono::{SecondsFormat, Utc};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use serde_json::Value;
use studio_model::{
    merge_create, merge_update, BackendError, Caller, Configuration, ConfigurationList, LogAction, LogEntry,
    WriteOutcome,
};

use crate::error::StoreError;

/// Now, as the API writes times: UTC, ISO 8601 with milliseconds and `Z`.
pub(crate) fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn not_found(id: i32) -> BackendError {
    BackendError::NotFound(format!("configuration {id} does not exist"))
}

fn parse(envelope: &str) -> Result<Configuration, StoreError> {
    Ok(serde_json::from_str(envelope)?)
}

pub(crate) fn list(conn: &Connection) -> Result<ConfigurationList, BackendError> {
    let mut stmt = conn.prepare_cached("SELECT envelope FROM configurations ORDER BY id").map_err(StoreError::from)?;
    let configurations = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(StoreError::from)?
        .map(|row| parse(&row.map_err(StoreError::from)?))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ConfigurationList { configurations, active_id: active_id(conn)? })
}

pub(crate) fn active_id(conn: &Connection) -> Result<Option<i32>, StoreError> {
    Ok(conn.query_row("SELECT config_id FROM active_configuration", [], |r| r.get(0)).optional()?)
}

pub(crate) fn get(conn: &Connection, id: i32) -> Result<Configuration, BackendError> {
    Ok(parse(&envelope(conn, id)?)?)
}

/// The stored envelope of configuration `id`, as written.
pub(crate) fn envelope(conn: &Connection, id: i32) -> Result<String, BackendError> {
    let envelope: Option<String> = conn
        .prepare_cached("SELECT envelope FROM configurations WHERE id = ?1")
        .and_then(|mut stmt| stmt.query_row([id], |r| r.get(0)).optional())
        .map_err(StoreError::from)?;
    envelope.ok_or_else(|| not_found(id))
}

/// The configuration a search runs with: the stored one, with a request's overrides merged in.
pub(crate) struct Effective {
    id: i32,
    envelope: String,
    overrides: Option<Value>,
    pub(crate) config: Configuration,
}

/// The configuration the last search ran with, kept with what it was made from, so that the next search with the
/// same stored envelope and the same overrides reuses it instead of reading and merging them again: a pull asks for
/// every page with the same ones, and the merge was a fourteenth of the serving server's work for a page
/// (docs/performance-journal.md, "A slower machine, the launch taken apart"). The envelope is read for every
/// search, so a change by any writer, in this process or another, is seen at once.
#[derive(Default)]
pub(crate) struct LastEffective(Mutex<Option<Arc<Effective>>>);

impl LastEffective {
    pub(crate) fn of(
        &self,
        conn: &Connection,
        id: i32,
        overrides: Option<&Value>,
    ) -> Result<Arc<Effective>, BackendError> {
        let envelope = envelope(conn, id)?;
        let last = self.0.lock().ok().and_then(|last| last.clone());
        if let Some(last) = last.filter(|l| l.id == id && l.envelope == envelope && l.overrides.as_ref() == overrides) {
            return Ok(last);
        }
        let stored = parse(&envelope)?;
        let config = match overrides {
            Some(overrides) => studio_model::with_overrides(&stored, overrides),
            None => stored,
        };
        let made = Arc::new(Effective { id, envelope, overrides: overrides.cloned(), config });
        if let Ok(mut last) = self.0.lock() {
            *last = Some(made.clone());
        }
        Ok(made)
    }
}

pub(crate) fn active(conn: &Connection) -> Result<Configuration, BackendError> {
    match active_id(conn)? {
        Some(id) => get(conn, id),
        None => Err(BackendError::NotFound("no configuration is active (none has been created yet)".into())),
    }
}

pub(crate) fn create(conn: &mut Connection, caller: &Caller, body: &Value) -> Result<WriteOutcome, BackendError> {
    let (mut config, errors) = merge_create(body)?;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreError::from)?;
    let created = now();
    tx.execute(
        "INSERT INTO configurations (user, created, search_space, envelope) VALUES (?1, ?2, ?3, '{}')",
        params![caller.user, created, config.config.search_space],
    )
    .map_err(StoreError::from)?;
    let id = i32::try_from(tx.last_insert_rowid()).map_err(|_| StoreError::IdsExhausted)?;
    (config.id, config.user, config.created) = (Some(id), caller.user.clone(), Some(created));
    let envelope = serde_json::to_string(&config).map_err(StoreError::from)?;
    tx.execute("UPDATE configurations SET envelope = ?1 WHERE id = ?2", params![envelope, id])
        .map_err(StoreError::from)?;
    if active_id(&tx)?.is_none() {
        tx.execute("INSERT INTO active_configuration (singleton, config_id) VALUES (1, ?1)", [id])
            .map_err(StoreError::from)?;
    }
    log(&tx, id, caller, LogAction::Create, &envelope)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(WriteOutcome { config, errors })
}

pub(crate) fn update(
    conn: &mut Connection,
    caller: &Caller,
    id: i32,
    body: &Value,
) -> Result<WriteOutcome, BackendError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreError::from)?;
    let current = get(&tx, id)?;
    let (config, errors) = merge_update(&current, body)?;
    let envelope = serde_json::to_string(&config).map_err(StoreError::from)?;
    tx.execute(
        "UPDATE configurations SET envelope = ?1, search_space = ?2 WHERE id = ?3",
        params![envelope, config.config.search_space, id],
    )
    .map_err(StoreError::from)?;
    log(&tx, id, caller, LogAction::Update, &envelope)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(WriteOutcome { config, errors })
}

pub(crate) fn set_active(conn: &mut Connection, caller: &Caller, id: i32) -> Result<Configuration, BackendError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreError::from)?;
    let config = get(&tx, id)?;
    tx.execute(
        "INSERT INTO active_configuration (singleton, config_id) VALUES (1, ?1)
         ON CONFLICT (singleton) DO UPDATE SET config_id = excluded.config_id",
        [id],
    )
    .map_err(StoreError::from)?;
    log(&tx, id, caller, LogAction::SetActive, &serde_json::to_string(&config).map_err(StoreError::from)?)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(config)
}

pub(crate) fn delete(conn: &mut Connection, caller: &Caller, id: i32) -> Result<(), BackendError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreError::from)?;
    let config = get(&tx, id)?;
    if active_id(&tx)? == Some(id) {
        return Err(BackendError::Conflict(format!(
            "configuration {id} is the active one; make another configuration active before deleting it"
        )));
    }
    tx.execute("DELETE FROM configurations WHERE id = ?1", [id]).map_err(StoreError::from)?;
    log(&tx, id, caller, LogAction::Delete, &serde_json::to_string(&config).map_err(StoreError::from)?)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(())
}

pub(crate) fn logs(conn: &Connection, id: i32) -> Result<Vec<LogEntry>, BackendError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT at, user, action, envelope FROM configuration_log WHERE config_id = ?1 ORDER BY seq DESC",
        )
        .map_err(StoreError::from)?;
    let rows = stmt
        .query_map([id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?))
        })
        .map_err(StoreError::from)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(StoreError::from)?;
    if rows.is_empty() {
        get(conn, id)?;
    }
    rows.into_iter()
        .map(|(at, user, action, envelope)| {
            let action = serde_json::from_value(Value::String(action)).map_err(StoreError::from)?;
            Ok(LogEntry { at, user, action, config: parse(&envelope)? })
        })
        .collect()
}

fn log(conn: &Connection, id: i32, caller: &Caller, action: LogAction, envelope: &str) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO configuration_log (config_id, at, user, action, envelope) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, now(), caller.user, action.as_str(), envelope],
    )?;
    Ok(())
}

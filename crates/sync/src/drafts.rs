//! [`SyncStore`]: the tables of offline work in the local store (migration 0005): drafts per backend and
//! configuration, the versions this app published, and the bookmarks of pulls.
//!
//! Every write is one statement, so a crash between two autosaves leaves the earlier draft intact.

use chrono::{SecondsFormat, Utc};
use rusqlite::{params, OptionalExtension};
use serde_json::Value;
use studio_local::Store;
use studio_model::Configuration;

use crate::error::SyncError;
use crate::types::DraftRecord;

/// Now, as the API writes times: UTC, ISO 8601 with milliseconds and `Z`.
pub(crate) fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Drafts, published versions and pull bookmarks in one local store. Cheap to clone.
#[derive(Clone)]
pub struct SyncStore {
    store: Store,
}

fn json(text: Option<String>) -> Result<Option<Value>, SyncError> {
    Ok(text.map(|t| serde_json::from_str(&t)).transpose()?)
}

impl SyncStore {
    pub fn new(store: Store) -> Self {
        SyncStore { store }
    }

    /// The local store underneath.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Keeps `draft` (started from `base`) as the draft of configuration `config_id` on `backend`,
    /// replacing the one kept before.
    pub fn save_draft(
        &self,
        backend: &str,
        config_id: i32,
        draft: &Value,
        base: Option<&Value>,
    ) -> Result<DraftRecord, SyncError> {
        let updated_at = now();
        let base_text = base.map(serde_json::to_string).transpose()?;
        self.store.conn()?.execute(
            "INSERT INTO drafts (backend, config_id, draft, base, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (backend, config_id) DO UPDATE
             SET draft = excluded.draft, base = excluded.base, updated_at = excluded.updated_at",
            params![backend, config_id, serde_json::to_string(draft)?, base_text, updated_at],
        )?;
        Ok(DraftRecord {
            backend: backend.to_owned(),
            config_id,
            draft: draft.clone(),
            base: base.cloned(),
            updated_at,
        })
    }

    /// The draft of one configuration, if one is kept.
    pub fn draft(&self, backend: &str, config_id: i32) -> Result<Option<DraftRecord>, SyncError> {
        let row = self
            .store
            .conn()?
            .query_row(
                "SELECT draft, base, updated_at FROM drafts WHERE backend = ?1 AND config_id = ?2",
                params![backend, config_id],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?, r.get::<_, String>(2)?)),
            )
            .optional()?;
        let Some((draft, base, updated_at)) = row else { return Ok(None) };
        Ok(Some(DraftRecord {
            backend: backend.to_owned(),
            config_id,
            draft: serde_json::from_str(&draft)?,
            base: json(base)?,
            updated_at,
        }))
    }

    /// Every draft kept for `backend`, newest first.
    pub fn drafts(&self, backend: &str) -> Result<Vec<DraftRecord>, SyncError> {
        let conn = self.store.conn()?;
        let mut stmt = conn.prepare(
            "SELECT config_id, draft, base, updated_at FROM drafts WHERE backend = ?1 ORDER BY updated_at DESC, config_id",
        )?;
        let rows = stmt
            .query_map([backend], |r| {
                Ok((
                    r.get::<_, i32>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(config_id, draft, base, updated_at)| {
                Ok(DraftRecord {
                    backend: backend.to_owned(),
                    config_id,
                    draft: serde_json::from_str(&draft)?,
                    base: json(base)?,
                    updated_at,
                })
            })
            .collect()
    }

    /// Forgets the draft of one configuration; true when there was one.
    pub fn discard_draft(&self, backend: &str, config_id: i32) -> Result<bool, SyncError> {
        let n = self
            .store
            .conn()?
            .execute("DELETE FROM drafts WHERE backend = ?1 AND config_id = ?2", params![backend, config_id])?;
        Ok(n > 0)
    }

    /// Records a version this app published to `backend`, as the server answered it.
    pub fn record_published(&self, backend: &str, config: &Configuration, user: &str) -> Result<(), SyncError> {
        let Some(id) = config.id else { return Ok(()) };
        self.store.conn()?.execute(
            "INSERT INTO published_versions (backend, config_id, at, user, envelope) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![backend, id, now(), user, serde_json::to_string(config)?],
        )?;
        Ok(())
    }

    /// The versions this app published to `backend` for one configuration, newest first, with when and by whom.
    pub fn published(&self, backend: &str, config_id: i32) -> Result<Vec<(String, String, Configuration)>, SyncError> {
        let conn = self.store.conn()?;
        let mut stmt = conn.prepare(
            "SELECT at, user, envelope FROM published_versions WHERE backend = ?1 AND config_id = ?2 ORDER BY seq DESC",
        )?;
        let rows = stmt
            .query_map(params![backend, config_id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(|(at, user, env)| Ok((at, user, serde_json::from_str(&env)?))).collect()
    }
}

//! Preview scenarios: the named test searches (query, selected facets, width) a designer keeps for one
//! configuration and steps through in the preview. Kept in the local store per backend and configuration like
//! drafts, never sent to a server; a configuration file exported from here carries them (files.rs).

use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use studio_model::SelectedFacet;
use ts_rs::TS;

use crate::drafts::{now, SyncStore};
use crate::error::SyncError;

/// One named test search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    pub name: String,
    /// The query text, as typed.
    pub query: String,
    pub selected: Vec<SelectedFacet>,
    pub width: ScenarioWidth,
}

/// The screen width the preview lays the application out at for a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ScenarioWidth {
    Desktop,
    Tablet,
    Phone,
}

/// What a list of scenarios may hold; the UI's copy is generated from this one.
#[derive(Debug, Clone, Copy, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioLimits {
    pub scenarios: usize,
    pub name_chars: usize,
    pub query_chars: usize,
    pub selected: usize,
    /// Every width, for a check of values read from storage.
    pub widths: [ScenarioWidth; 3],
}

pub const SCENARIO_LIMITS: ScenarioLimits = ScenarioLimits {
    scenarios: 50,
    name_chars: 100,
    query_chars: 1000,
    selected: 50,
    widths: [ScenarioWidth::Desktop, ScenarioWidth::Tablet, ScenarioWidth::Phone],
};

/// Checks a list against [`SCENARIO_LIMITS`]: the first problem, named. (A width is one of [`ScenarioWidth`] by
/// its type: reading another is refused where the list is read.)
pub fn check_scenarios(list: &[Scenario]) -> Result<(), SyncError> {
    let bad = |m: String| Err(SyncError::BadScenario(m));
    let l = SCENARIO_LIMITS;
    if list.len() > l.scenarios {
        return bad(format!("at most {} scenarios can be kept for a configuration, not {}", l.scenarios, list.len()));
    }
    for (i, s) in list.iter().enumerate() {
        let name = s.name.trim();
        if name.is_empty() {
            return bad(format!("scenario {} has no name", i + 1));
        }
        if name.chars().count() > l.name_chars {
            return bad(format!("the name of scenario {} is longer than {} characters", i + 1, l.name_chars));
        }
        if list[..i].iter().any(|o| o.name.trim() == name) {
            return bad(format!("two scenarios are named “{name}”"));
        }
        if s.query.chars().count() > l.query_chars {
            return bad(format!("the query of “{name}” is longer than {} characters", l.query_chars));
        }
        if s.selected.len() > l.selected {
            return bad(format!("“{name}” selects more than {} facet values", l.selected));
        }
    }
    Ok(())
}

impl SyncStore {
    /// The scenarios of configuration `config_id` on `backend`; none when none are kept.
    pub fn scenarios(&self, backend: &str, config_id: i32) -> Result<Vec<Scenario>, SyncError> {
        let text: Option<String> = self
            .store()
            .conn()?
            .query_row(
                "SELECT scenarios FROM scenarios WHERE backend = ?1 AND config_id = ?2",
                params![backend, config_id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(text.map(|t| serde_json::from_str(&t)).transpose()?.unwrap_or_default())
    }

    /// Keeps `list` as the scenarios of configuration `config_id` on `backend` (an empty list forgets them),
    /// after checking it; acknowledged once on disk.
    pub fn save_scenarios(&self, backend: &str, config_id: i32, list: &[Scenario]) -> Result<(), SyncError> {
        check_scenarios(list)?;
        let conn = self.store().conn()?;
        if list.is_empty() {
            conn.execute("DELETE FROM scenarios WHERE backend = ?1 AND config_id = ?2", params![backend, config_id])?;
            return Ok(());
        }
        conn.execute(
            "INSERT INTO scenarios (backend, config_id, scenarios, updated_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (backend, config_id) DO UPDATE SET scenarios = excluded.scenarios, updated_at = excluded.updated_at",
            params![backend, config_id, serde_json::to_string(list)?, now()],
        )?;
        Ok(())
    }
}

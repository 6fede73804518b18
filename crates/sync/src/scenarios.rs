//! Preview scenarios: the named test searches (query, selected facets, width) a designer keeps for one
//! configuration and steps through in the preview. Kept in the local store per backend and configuration like
//! drafts, never sent to a server; a configuration file exported from here carries them (files.rs).

use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use studio_model::{fill, SelectedFacet};
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

/// Why a list of scenarios is refused: the templates of [`check_scenarios`]'s messages, generated into the UI
/// (`SCENARIO_MESSAGES` of ui/src/lib/types/sync.ts), whose browser build checks a list the same way. Each
/// `{name}` is filled as [`studio_model::fill`] does: `{max}` with the limit, `{count}` with the scenarios given,
/// `{n}` with a scenario's place from 1, `{name}` with its trimmed name, `{width}` and `{allowed}` with a width
/// and every width.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioMessages {
    pub too_many: &'static str,
    pub no_name: &'static str,
    pub long_name: &'static str,
    pub same_name: &'static str,
    pub long_query: &'static str,
    pub many_selected: &'static str,
    /// A width that is none of [`ScenarioWidth`]: here refused where the list is read (its type has no other),
    /// in the browser by the check itself.
    pub unknown_width: &'static str,
}

pub const SCENARIO_MESSAGES: ScenarioMessages = ScenarioMessages {
    too_many: "at most {max} scenarios can be kept for a configuration, not {count}",
    no_name: "scenario {n} has no name",
    long_name: "the name of scenario {n} is longer than {max} characters",
    same_name: "two scenarios are named “{name}”",
    long_query: "the query of “{name}” is longer than {max} characters",
    many_selected: "“{name}” selects more than {max} facet values",
    unknown_width: "“{name}” has the width “{width}”; it must be one of {allowed}",
};

/// Checks a list against [`SCENARIO_LIMITS`]: the first problem, named in the words of [`SCENARIO_MESSAGES`].
/// (A width is one of [`ScenarioWidth`] by its type: reading another is refused where the list is read.) The
/// cases of crates/sync/cases/scenarios.json hold this check and the browser's to one behaviour.
pub fn check_scenarios(list: &[Scenario]) -> Result<(), SyncError> {
    let l = SCENARIO_LIMITS;
    let m = SCENARIO_MESSAGES;
    // A name is filled in last, so that braces it holds are never taken for a placeholder.
    let bad = |template: &str, values: &[(&str, &str)]| Err(SyncError::BadScenario(fill(template, values)));
    if list.len() > l.scenarios {
        return bad(m.too_many, &[("max", &l.scenarios.to_string()), ("count", &list.len().to_string())]);
    }
    for (i, s) in list.iter().enumerate() {
        let n = (i + 1).to_string();
        let name = s.name.trim();
        if name.is_empty() {
            return bad(m.no_name, &[("n", &n)]);
        }
        if name.chars().count() > l.name_chars {
            return bad(m.long_name, &[("n", &n), ("max", &l.name_chars.to_string())]);
        }
        if list[..i].iter().any(|o| o.name.trim() == name) {
            return bad(m.same_name, &[("name", name)]);
        }
        if s.query.chars().count() > l.query_chars {
            return bad(m.long_query, &[("max", &l.query_chars.to_string()), ("name", name)]);
        }
        if s.selected.len() > l.selected {
            return bad(m.many_selected, &[("max", &l.selected.to_string()), ("name", name)]);
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

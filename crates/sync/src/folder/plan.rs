//! What applying a folder (or a promotion's source) to a target would do, configuration by configuration
//! (docs/config-files.md, The plan). A configuration of the folder is matched to one of the target by the
//! state (key → id), else by title and search space; then:
//!
//! - no match → **create**;
//! - the target's version equals the file's once merged by the update rules → **unchanged**;
//! - the target's version is the one this folder last applied or pulled (its hash is the state's) → **update**;
//! - otherwise the target changed since → **conflict**, which only a choice of side resolves.
//!
//! A configuration of the target that no file matches is **only on the target**, or with `--prune` **delete**.
//! The file marked active becomes the active configuration last (**set active**). The plan is a serde type so
//! that the desktop shows the very plan the CLI prints.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::json;
use studio_model::{merge_update, Config, Configuration, ConfigurationList};
use ts_rs::TS;

use super::error::FolderError;
use super::lint::Desired;
use super::state::{config_hash, Applied};
use crate::diff::diff_fields;
use crate::types::{FieldDiff, Side};

/// What the plan does with one configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    Create,
    Update,
    Unchanged,
    /// On the target, in no file: kept (deleted only with `--prune`).
    OnlyOnTarget,
    /// On the target, in no file, and `--prune` was given.
    Delete,
    /// Changed on the target since the folder last applied it, and different from the file.
    Conflict,
}

impl Action {
    /// The action in the plan's words.
    pub fn label(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::Update => "update",
            Action::Unchanged => "unchanged",
            Action::OnlyOnTarget => "only on the target",
            Action::Delete => "delete",
            Action::Conflict => "conflict",
        }
    }
}

/// One configuration's line of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlanItem {
    /// The file's key; for a configuration only on the target, the key it had when the folder last applied
    /// it, if it did.
    pub key: Option<String>,
    pub title: String,
    pub search_space: String,
    pub action: Action,
    /// Its id on the target; none for a create.
    pub id: Option<i32>,
    /// For an update or a conflict, each field the write would change: the target's value, then the file's.
    pub changes: Vec<FieldDiff>,
    /// The hash of the target's version the plan compared with; an apply writes only while it is still that.
    pub seen: Option<String>,
    /// The settings a create or update sends.
    #[serde(skip)]
    #[ts(skip)]
    pub desired: Option<Config>,
}

/// Which configuration becomes the active one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ActiveChange {
    pub key: String,
    /// Its id on the target; none when the plan creates it.
    pub id: Option<i32>,
    /// The target's active configuration now.
    pub was: Option<i32>,
}

/// Everything applying would do to one target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// `local`, or the server's base URL.
    pub target: String,
    /// Creates, updates, unchanged and conflicts in the folder's order, then what is only on the target.
    pub items: Vec<PlanItem>,
    pub set_active: Option<ActiveChange>,
}

impl Plan {
    /// Whether applying would change anything on the target (a conflict counts: it waits for a choice).
    pub fn has_changes(&self) -> bool {
        self.set_active.is_some()
            || self.items.iter().any(|i| !matches!(i.action, Action::Unchanged | Action::OnlyOnTarget))
    }

    /// How many items have `action`.
    pub fn count(&self, action: Action) -> usize {
        self.items.iter().filter(|i| i.action == action).count()
    }

    /// The keys of the conflicts.
    pub fn conflicts(&self) -> Vec<String> {
        self.items.iter().filter(|i| i.action == Action::Conflict).filter_map(|i| i.key.clone()).collect()
    }
}

/// Which side wins a conflict: for every conflict, or per key.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Choices {
    pub all: Option<Side>,
    pub keys: BTreeMap<String, Side>,
}

impl Choices {
    /// The side chosen for `key`: its own choice, else the choice for all.
    pub fn side(&self, key: &str) -> Option<Side> {
        self.keys.get(key).copied().or(self.all)
    }

    /// Fails when a choice names a key that is not a conflict of `plan`, or a conflict has no side.
    pub fn check(&self, plan: &Plan) -> Result<(), FolderError> {
        let conflicts = plan.conflicts();
        if let Some(key) = self.keys.keys().find(|k| !conflicts.contains(k)) {
            return Err(FolderError::UnknownChoice(key.clone()));
        }
        let open: Vec<String> = conflicts.into_iter().filter(|k| self.side(k).is_none()).collect();
        if open.is_empty() {
            Ok(())
        } else {
            Err(FolderError::Unresolved { keys: open })
        }
    }
}

/// The plan of applying `desired` to a target named `target` that holds `list`, the state having `applied`
/// for it; with `prune`, what only the target has is deleted.
pub fn make_plan(
    target: &str,
    desired: &[Desired],
    list: &ConfigurationList,
    applied: &BTreeMap<String, Applied>,
    prune: bool,
) -> Result<Plan, FolderError> {
    let by_id: BTreeMap<i32, &Configuration> =
        list.configurations.iter().filter_map(|c| c.id.map(|id| (id, c))).collect();
    let mut taken = BTreeSet::new();
    let mut matched: Vec<Option<&Configuration>> = vec![None; desired.len()];
    // The state first, so that a configuration renamed on either side stays matched.
    for (slot, wanted) in matched.iter_mut().zip(desired) {
        if let Some(found) = applied.get(&wanted.key).and_then(|a| by_id.get(&a.id)) {
            if taken.insert(found.id) {
                *slot = Some(*found);
            }
        }
    }
    for (slot, wanted) in matched.iter_mut().zip(desired) {
        if slot.is_some() {
            continue;
        }
        *slot = list.configurations.iter().find(|c| {
            !taken.contains(&c.id)
                && c.config.title == wanted.config.title
                && c.config.search_space == wanted.config.search_space
        });
        if let Some(found) = slot {
            taken.insert(found.id);
        }
    }

    let mut items = Vec::new();
    for (wanted, found) in desired.iter().zip(&matched) {
        items.push(item_for(wanted, *found, applied.get(&wanted.key))?);
    }
    for config in list.configurations.iter().filter(|c| !taken.contains(&c.id)) {
        let key = applied.iter().find(|(_, a)| Some(a.id) == config.id).map(|(k, _)| k.clone());
        items.push(PlanItem {
            key,
            title: config.config.title.clone(),
            search_space: config.config.search_space.clone(),
            action: if prune { Action::Delete } else { Action::OnlyOnTarget },
            id: config.id,
            changes: Vec::new(),
            seen: Some(config_hash(&config.config)),
            desired: None,
        });
    }

    let set_active = desired.iter().zip(&matched).find(|(w, _)| w.active).and_then(|(wanted, found)| {
        let id = found.and_then(|c| c.id);
        (id.is_none() || id != list.active_id).then(|| ActiveChange {
            key: wanted.key.clone(),
            id,
            was: list.active_id,
        })
    });
    Ok(Plan { target: target.to_owned(), items, set_active })
}

fn item_for(
    wanted: &Desired,
    found: Option<&Configuration>,
    applied: Option<&Applied>,
) -> Result<PlanItem, FolderError> {
    let mut item = PlanItem {
        key: Some(wanted.key.clone()),
        title: wanted.config.title.clone(),
        search_space: wanted.config.search_space.clone(),
        action: Action::Create,
        id: None,
        changes: Vec::new(),
        seen: None,
        desired: Some(wanted.config.clone()),
    };
    let Some(current) = found else { return Ok(item) };
    let (after, _refused) = merge_update(current, &json!({ "config": wanted.config }))?;
    let seen = config_hash(&current.config);
    item.action = if after.config == current.config {
        Action::Unchanged
    } else if applied.is_some_and(|a| Some(a.id) == current.id && a.sha256 == seen) {
        Action::Update
    } else {
        Action::Conflict
    };
    if item.action != Action::Unchanged {
        let value = |c: &Configuration| serde_json::to_value(c).unwrap_or_default();
        item.changes = diff_fields(&value(current), &value(&after));
    }
    item.id = current.id;
    item.seen = Some(seen);
    Ok(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(title: &str, items_per_page: i32) -> Config {
        let mut config = Config { title: title.into(), search_space: "s".into(), ..Config::default() };
        config.result.items_per_page = items_per_page;
        config
    }

    fn stored(id: i32, config: Config) -> Configuration {
        Configuration {
            id: Some(id),
            created: Some("2026-01-01T00:00:00.000Z".into()),
            config,
            ..Configuration::template()
        }
    }

    fn want(key: &str, config: Config, active: bool) -> Desired {
        Desired { key: key.into(), config, active }
    }

    #[test]
    fn each_kind_follows_the_rule_of_server_file_and_last_applied() {
        let list = ConfigurationList {
            configurations: vec![
                stored(1, config("Same", 10)),
                stored(2, config("Edited here", 10)),
                stored(3, config("Edited there", 30)),
                stored(4, config("Renamed", 10)),
                stored(5, config("Left over", 10)),
            ],
            active_id: Some(1),
        };
        let applied: BTreeMap<String, Applied> = [
            ("same", 1, config("Same", 10)),
            ("here", 2, config("Edited here", 10)),
            ("there", 3, config("Edited there", 10)),
            ("renamed", 4, config("Renamed", 10)),
            ("gone", 5, config("Left over", 10)),
        ]
        .into_iter()
        .map(|(k, id, c)| (k.to_owned(), Applied { id, sha256: config_hash(&c) }))
        .collect();
        let desired = [
            want("same", config("Same", 10), false),
            want("here", config("Edited here", 20), false),
            want("there", config("Edited there", 20), false),
            want("renamed", config("New name", 10), true),
            want("new", config("New", 10), false),
        ];
        let plan = make_plan("local", &desired, &list, &applied, false).unwrap();
        let kinds: Vec<(Option<&str>, Action, Option<i32>)> =
            plan.items.iter().map(|i| (i.key.as_deref(), i.action, i.id)).collect();
        assert_eq!(
            kinds,
            [
                (Some("same"), Action::Unchanged, Some(1)),
                (Some("here"), Action::Update, Some(2)),
                (Some("there"), Action::Conflict, Some(3)),
                (Some("renamed"), Action::Update, Some(4)),
                (Some("new"), Action::Create, None),
                (Some("gone"), Action::OnlyOnTarget, Some(5)),
            ]
        );
        let change = &plan.items[1].changes;
        assert_eq!(change.len(), 1);
        assert_eq!(
            (change[0].path.as_str(), change[0].before.clone(), change[0].after.clone()),
            ("config.result.itemsPerPage", Some(json!(10)), Some(json!(20)))
        );
        assert_eq!(plan.set_active, Some(ActiveChange { key: "renamed".into(), id: Some(4), was: Some(1) }));
        assert!(plan.has_changes());
        assert_eq!(plan.conflicts(), ["there"]);
        let pruned = make_plan("local", &desired, &list, &applied, true).unwrap();
        assert_eq!(pruned.items[5].action, Action::Delete);
    }

    #[test]
    fn without_a_state_a_configuration_is_matched_by_title_and_search_space() {
        let list = ConfigurationList { configurations: vec![stored(7, config("News", 10))], active_id: Some(7) };
        let equal = [want("news", config("News", 10), true)];
        let plan = make_plan("local", &equal, &list, &BTreeMap::new(), false).unwrap();
        assert_eq!((plan.items[0].action, plan.items[0].id, plan.has_changes()), (Action::Unchanged, Some(7), false));
        // Different and never applied from here: the folder cannot know the server's version, so it is a conflict.
        let other = [want("news", config("News", 50), false)];
        let plan = make_plan("local", &other, &list, &BTreeMap::new(), false).unwrap();
        assert_eq!(plan.items[0].action, Action::Conflict);
        let choices = Choices { all: None, keys: BTreeMap::new() };
        assert!(matches!(choices.check(&plan), Err(FolderError::Unresolved { .. })));
        let choices = Choices { all: None, keys: [("news".to_owned(), Side::Mine)].into() };
        choices.check(&plan).unwrap();
        let wrong = Choices { all: None, keys: [("nope".to_owned(), Side::Mine)].into() };
        assert!(matches!(wrong.check(&plan), Err(FolderError::UnknownChoice(_))));
    }
}

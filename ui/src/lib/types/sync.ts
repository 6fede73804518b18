// Generated from the Rust types of crates/sync by its `bindings` test; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p studio-sync --test main bindings

import type { Configuration, FieldError, JsonValue, SelectedFacet, WriteOutcome } from './generated';

export type DraftRecord = { 
/**
 * `local`, or the base URL of the remote server.
 */
backend: string, 
/**
 * The configuration's id; negative for a configuration not yet created.
 */
configId: number, 
/**
 * The edited envelope, unknown fields included.
 */
draft: JsonValue, 
/**
 * The stored envelope the draft started from; null for a configuration not yet created.
 */
base: JsonValue | null, 
/**
 * UTC, ISO 8601 with milliseconds.
 */
updatedAt: string, };

export type FieldDiff = { 
/**
 * Dotted path, e.g. `config.layout.navbar.backgroundColor`.
 */
path: string, 
/**
 * Null when the field is absent.
 */
before: JsonValue | null, after: JsonValue | null, };

export type FieldChange = { path: string, base: JsonValue | null, mine: JsonValue | null, theirs: JsonValue | null, 
/**
 * Both sides changed it, differently: the user must choose.
 */
conflicting: boolean, };

export type Conflict = { base: JsonValue, mine: JsonValue, theirs: JsonValue, 
/**
 * Every leaf where the three differ; `conflicting` marks those changed on both sides.
 */
fields: Array<FieldChange>, };

export type Side = "mine" | "theirs";

export type PublishOutcome = { "status": "published", outcome: WriteOutcome, } | { "status": "conflict", conflict: Conflict, };

export type HistorySource = "server" | "published";

export type HistoryEntry = { at: string, user: string, 
/**
 * `create`, `update`, `delete`, `set-active`, or `publish`.
 */
action: string, source: HistorySource, config: Configuration, };

export type ImportedConfig = { 
/**
 * Its id in the file (null when the file had none).
 */
fromId: number | null, 
/**
 * The id it was stored under.
 */
id: number, title: string, 
/**
 * Keys the backend refused (they took their defaults).
 */
errors: Array<FieldError>, };

export type Scenario = { name: string, 
/**
 * The query text, as typed.
 */
query: string, selected: Array<SelectedFacet>, width: ScenarioWidth, };

export type ScenarioWidth = "desktop" | "tablet" | "phone";

export type ScenarioLimits = { scenarios: number, nameChars: number, queryChars: number, selected: number, 
/**
 * Every width, for a check of values read from storage.
 */
widths: [ScenarioWidth, ScenarioWidth, ScenarioWidth], };

export type Action = "create" | "update" | "unchanged" | "onlyOnTarget" | "delete" | "conflict";

export type PlanItem = { 
/**
 * The file's key; for a configuration only on the target, the key it had when the folder last applied
 * it, if it did.
 */
key: string | null, title: string, searchSpace: string, action: Action, 
/**
 * Its id on the target; none for a create.
 */
id: number | null, 
/**
 * For an update or a conflict, each field the write would change: the target's value, then the file's.
 */
changes: Array<FieldDiff>, 
/**
 * The hash of the target's version the plan compared with; an apply writes only while it is still that.
 */
seen: string | null, };

export type ActiveChange = { key: string, 
/**
 * Its id on the target; none when the plan creates it.
 */
id: number | null, 
/**
 * The target's active configuration now.
 */
was: number | null, };

export type Plan = { 
/**
 * `local`, or the server's base URL.
 */
target: string, 
/**
 * Creates, updates, unchanged and conflicts in the folder's order, then what is only on the target.
 */
items: Array<PlanItem>, setActive: ActiveChange | null, };

export type Choices = { all: Side | null, keys: { [key in string]: Side }, };

export type Done = { "done": "created", key: string, id: number, errors: Array<FieldError>, } | { "done": "updated", key: string, id: number, errors: Array<FieldError>, } | { "done": "keptTheirs", key: string, id: number, } | { "done": "setActive", key: string, id: number, } | { "done": "deleted", key: string | null, id: number, };

export type Problem = { 
/**
 * The file's name in the folder.
 */
file: string, line: number, column: number, message: string, };

/** What a list of preview scenarios may hold. */
export const SCENARIO_LIMITS: ScenarioLimits = {"scenarios":50,"nameChars":100,"queryChars":1000,"selected":50,"widths":["desktop","tablet","phone"]};

/** Why a list of preview scenarios is refused; `{name}` is filled as `fill` of crates/model/src/rules.rs does. */
export const SCENARIO_MESSAGES = {
  "tooMany": "at most {max} scenarios can be kept for a configuration, not {count}",
  "noName": "scenario {n} has no name",
  "longName": "the name of scenario {n} is longer than {max} characters",
  "sameName": "two scenarios are named “{name}”",
  "longQuery": "the query of “{name}” is longer than {max} characters",
  "manySelected": "“{name}” selects more than {max} facet values",
  "unknownWidth": "“{name}” has the width “{width}”; it must be one of {allowed}"
} as const;

/** Each action of a folder's plan in the plan's words. */
export const ACTION_LABELS: Record<Action, string> = {
  "create": "create",
  "update": "update",
  "unchanged": "unchanged",
  "onlyOnTarget": "only on the target",
  "delete": "delete",
  "conflict": "conflict"
};

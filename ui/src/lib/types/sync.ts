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

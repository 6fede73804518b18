// The rules of a list of preview scenarios, for the browser's own copy of them (webworkspace.ts); the desktop app
// checks the same in crates/sync (scenarios.rs), with the limits generated from there.
import { SCENARIO_LIMITS, type Scenario } from '../types/sync';

const isKnownWidth = (w: unknown): boolean => (SCENARIO_LIMITS.widths as readonly unknown[]).includes(w);

/** The first problem of `list`, named as the desktop names it; null when there is none. */
export function scenarioProblem(list: Scenario[]): string | null {
  const l = SCENARIO_LIMITS;
  if (list.length > l.scenarios) return `at most ${l.scenarios} scenarios can be kept for a configuration, not ${list.length}`;
  for (const [i, s] of list.entries()) {
    const name = s.name.trim();
    if (!name) return `scenario ${i + 1} has no name`;
    if ([...name].length > l.nameChars) return `the name of scenario ${i + 1} is longer than ${l.nameChars} characters`;
    if (list.slice(0, i).some((o) => o.name.trim() === name)) return `two scenarios are named “${name}”`;
    if ([...s.query].length > l.queryChars) return `the query of “${name}” is longer than ${l.queryChars} characters`;
    if (s.selected.length > l.selected) return `“${name}” selects more than ${l.selected} facet values`;
    // The type says so already; a caller outside TypeScript's reach may still send another.
    if (!isKnownWidth(s.width)) return `“${name}” has the width “${s.width}”; it must be one of ${l.widths.join(', ')}`;
  }
  return null;
}

/** The scenarios in a stored value, leaving out anything not shaped like one. */
export function scenariosIn(value: unknown): Scenario[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (s): s is Scenario =>
      !!s && typeof s === 'object' && typeof s.name === 'string' && typeof s.query === 'string' && Array.isArray(s.selected) && isKnownWidth(s.width),
  );
}

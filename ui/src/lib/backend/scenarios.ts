// The rules of a list of preview scenarios, for the browser's own copy of them (webworkspace.ts); the desktop app
// checks the same in crates/sync (scenarios.rs), whose limits and messages are generated into types/sync.ts. The
// cases of crates/sync/cases/scenarios.json hold both checks to one behaviour.
import { SCENARIO_LIMITS, SCENARIO_MESSAGES, type Scenario } from '../types/sync';
import { fill } from '../editor/rules';

const isKnownWidth = (w: unknown): boolean => (SCENARIO_LIMITS.widths as readonly unknown[]).includes(w);

/** The first problem of `list`, named as the desktop names it; null when there is none. */
export function scenarioProblem(list: Scenario[]): string | null {
  const l = SCENARIO_LIMITS;
  const m = SCENARIO_MESSAGES;
  // A name is filled in last, so that braces it holds are never taken for a placeholder.
  if (list.length > l.scenarios) return fill(m.tooMany, { max: l.scenarios, count: list.length });
  for (const [i, s] of list.entries()) {
    const n = i + 1;
    const name = s.name.trim();
    if (!name) return fill(m.noName, { n });
    if ([...name].length > l.nameChars) return fill(m.longName, { n, max: l.nameChars });
    if (list.slice(0, i).some((o) => o.name.trim() === name)) return fill(m.sameName, { name });
    if ([...s.query].length > l.queryChars) return fill(m.longQuery, { max: l.queryChars, name });
    if (s.selected.length > l.selected) return fill(m.manySelected, { max: l.selected, name });
    // The type says so already; a caller outside TypeScript's reach may still send another.
    if (!isKnownWidth(s.width)) return fill(m.unknownWidth, { allowed: l.widths.join(', '), width: s.width, name });
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

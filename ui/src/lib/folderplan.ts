// Planning and applying the open folder to a connection (docs/config-files.md, From the desktop app): how the
// plan the shell made (the one `studio config plan` prints) is shown, which conflicts still wait for a side, and
// what an apply did. The plan is of the files on disk; unsaved edits in the editor are not in it.
import type { Choices, Done, Plan, PlanItem, Side } from './types/sync';
import { ACTION_LABELS } from './types/sync';

/** A value of a changed key as the plan shows it: `—` for none, a string as it is, anything else as JSON. */
export function showValue(v: unknown): string {
  return v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v);
}

/** An item's name: its file's key, else (a configuration only on the target) its title. */
export function itemName(item: PlanItem): string {
  return item.key ?? item.title;
}

/** An item's line: its action in the plan's words, its name, title and search space, and its id there. */
export function itemLine(item: PlanItem): string {
  const id = item.id === null ? '' : ` #${item.id}`;
  return `${ACTION_LABELS[item.action]} ${itemName(item)} “${item.title}” (${item.searchSpace})${id}`;
}

/** The keys of the plan's conflicts. */
export function conflictKeys(plan: Plan): string[] {
  return plan.items.filter((i) => i.action === 'conflict' && i.key !== null).map((i) => i.key as string);
}

/** The conflicts of `plan` no side was picked for yet. */
export function openConflicts(plan: Plan, picked: Record<string, Side>): string[] {
  return conflictKeys(plan).filter((key) => !picked[key]);
}

/** The choices sent with Apply: the side picked for each conflict of the plan (and no other key). */
export function choicesFor(plan: Plan, picked: Record<string, Side>): Choices {
  const keys: Record<string, Side> = {};
  for (const key of conflictKeys(plan)) if (picked[key]) keys[key] = picked[key];
  return { all: null, keys };
}

/** Why Apply cannot be pressed now, or null when it can. */
export function applyBlocked(plan: Plan, hasChanges: boolean, picked: Record<string, Side>): string | null {
  if (!hasChanges) return 'Nothing to do.';
  const open = openConflicts(plan, picked);
  if (open.length) return `Choose a side for ${open.length === 1 ? 'the conflict' : `each of ${open.length} conflicts`} first: ${open.join(', ')}.`;
  return null;
}

/** How many items of each action the plan has, in the plan's order of actions, leaving out the ones it has none of. */
export function summary(plan: Plan, hasChanges: boolean, targetName: string): string {
  const kept = plan.items.filter((i) => i.action === 'onlyOnTarget').length;
  if (!hasChanges) {
    return `Nothing to do: ${targetName} holds every configuration of the folder` + (kept ? ` (${kept} only there, kept).` : '.');
  }
  const counts = new Map<string, number>();
  for (const item of plan.items) counts.set(item.action, (counts.get(item.action) ?? 0) + 1);
  const parts = [...counts].map(([action, n]) => `${n} ${ACTION_LABELS[action as PlanItem['action']]}`);
  if (plan.setActive) parts.push(`then ${plan.setActive.key} becomes active`);
  return `Plan for ${targetName}: ${parts.join(', ')}.`;
}

/** One line for a write an apply made. */
export function doneLine(done: Done): string {
  const refused = 'errors' in done && done.errors.length ? ` (refused: ${done.errors.map((e) => e.key).join(', ')}; kept as it was)` : '';
  switch (done.done) {
    case 'created':
      return `Created ${done.key} as #${done.id}${refused}`;
    case 'updated':
      return `Updated ${done.key} (#${done.id})${refused}`;
    case 'keptTheirs':
      return `Kept the target's version of ${done.key} (#${done.id}); ${done.key}.json now holds it`;
    case 'setActive':
      return `Made ${done.key} (#${done.id}) the active configuration`;
    case 'deleted':
      return `Deleted #${done.id}${done.key ? ` (${done.key})` : ''}`;
  }
}

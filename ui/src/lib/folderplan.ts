// Planning and applying the open folder to a connection (docs/config-files.md, From the desktop app): how the
// plan the shell made (the one `studio config plan` prints, whose summary and lines of what an apply did come from
// the shell in the CLI's words) is shown, and which conflicts still wait for a side. The plan is of the files on disk; unsaved edits in the editor are not in it.
import type { Choices, Plan, PlanItem, Side } from './types/sync';
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

// The plan view's logic: how a folder's plan is shown, which conflicts still wait for a side (Apply stays blocked
// until each has one), the choices sent with Apply, and what an apply did.
import { describe, expect, test } from 'vitest';
import { applyBlocked, choicesFor, doneLine, itemLine, openConflicts, summary } from './folderplan';
import type { Plan, PlanItem } from './types/sync';

function item(key: string | null, title: string, action: PlanItem['action'], id: number | null = null): PlanItem {
  return { key, title, searchSpace: 'demo', action, id, changes: [], seen: null };
}

const plan: Plan = {
  target: 'https://search.example.org',
  items: [
    item('news', 'News', 'create'),
    { ...item('sport', 'Sport', 'update', 4), changes: [{ path: 'config.result.itemsPerPage', before: 10, after: 20 }] },
    item('weather', 'Weather', 'conflict', 5),
    item('maps', 'Maps', 'conflict', 6),
    item(null, 'Old', 'onlyOnTarget', 7),
  ],
  setActive: { key: 'news', id: null, was: 7 },
};

describe('a folder plan', () => {
  test('each item shows its action in the plan’s words, its name and its id there', () => {
    expect(itemLine(plan.items[0])).toBe('create news “News” (demo)');
    expect(itemLine(plan.items[4])).toBe('only on the target Old “Old” (demo) #7');
    expect(summary(plan, true, 'Staging')).toBe(
      'Plan for Staging: 1 create, 1 update, 2 conflict, 1 only on the target, then news becomes active.',
    );
  });

  test('Apply waits until every conflict has a side, and sends only the conflicts’ sides', () => {
    expect(openConflicts(plan, {})).toEqual(['weather', 'maps']);
    expect(applyBlocked(plan, true, { weather: 'mine' })).toBe('Choose a side for the conflict first: maps.');
    expect(applyBlocked(plan, true, {})).toMatch(/each of 2 conflicts/);
    expect(applyBlocked(plan, true, { weather: 'mine', maps: 'theirs' })).toBeNull();
    expect(choicesFor(plan, { weather: 'mine', maps: 'theirs', other: 'mine' })).toEqual({
      all: null, keys: { weather: 'mine', maps: 'theirs' },
    });
  });

  test('a plan with nothing to do says so and cannot be applied', () => {
    const done: Plan = { target: 'local', items: [item('news', 'News', 'unchanged', 1), item(null, 'Old', 'onlyOnTarget', 2)], setActive: null };
    expect(summary(done, false, 'Local store')).toBe('Nothing to do: Local store holds every configuration of the folder (1 only there, kept).');
    expect(applyBlocked(done, false, {})).toBe('Nothing to do.');
  });

  test('what an apply did is told write by write', () => {
    expect(doneLine({ done: 'created', key: 'news', id: 9, errors: [] })).toBe('Created news as #9');
    expect(doneLine({ done: 'keptTheirs', key: 'maps', id: 6 })).toBe("Kept the target's version of maps (#6); maps.json now holds it");
    expect(doneLine({ done: 'deleted', key: null, id: 7 })).toBe('Deleted #7');
  });
});

// The plan view's logic: how a folder's plan is shown, which conflicts still wait for a side (Apply stays blocked
// until each has one) and the choices sent with Apply.
import { describe, expect, test } from 'vitest';
import { applyBlocked, choicesFor, itemLine, openConflicts } from './folderplan';
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
    expect(applyBlocked(done, false, {})).toBe('Nothing to do.');
  });
});

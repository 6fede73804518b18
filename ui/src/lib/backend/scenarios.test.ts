// The web build's preview scenarios: kept in the browser's storage per server and configuration, and checked by
// the same rules (and in the same words) as the desktop app's.
import { beforeEach, expect, test } from 'vitest';
import { webWorkspace } from './webworkspace';
import type { Api } from './Backend';
import { SCENARIO_LIMITS, type Scenario, type ScenarioWidth } from '../types/sync';
import { scenarioProblem } from './scenarios';

const facet = { field: 'dyn_uri_topic', label: 'Energy', value: 'urn:energy' };
const scenario = (name: string, query = '', width: ScenarioWidth = 'desktop'): Scenario => ({ name, query, width, selected: [facet] });
const workspace = (server = 'https://a.example') => webWorkspace({} as Api, server);

beforeEach(() => localStorage.clear());

test('scenarios are kept per server and configuration and read back by a new page', async () => {
  const list = [scenario('Energy', 'solar', 'tablet'), scenario('All', '', 'phone')];
  await workspace().saveScenarios(1, [scenario('First try')]);
  await workspace().saveScenarios(1, list);
  await workspace('https://b.example').saveScenarios(1, list.slice(1));
  expect(await workspace().scenarios(1)).toEqual(list);
  expect(await workspace('https://b.example').scenarios(1)).toEqual(list.slice(1));
  expect(await workspace().scenarios(2)).toEqual([]);
  await workspace().saveScenarios(1, []);
  expect(await workspace().scenarios(1)).toEqual([]);
  expect(await workspace('https://b.example').scenarios(1)).toEqual(list.slice(1));
});

test('discarding a draft keeps the scenarios', async () => {
  await workspace().saveScenarios(1, [scenario('Kept')]);
  await workspace().discardDraft(1);
  expect((await workspace().scenarios(1)).map((s) => s.name)).toEqual(['Kept']);
});

test('a list at every limit is kept', async () => {
  const l = SCENARIO_LIMITS;
  const list = Array.from({ length: l.scenarios }, (_, i) => scenario(`S${i}`));
  list[0] = scenario(`  ${'é'.repeat(l.nameChars)}  `);
  list[1] = scenario('Long', 'ü'.repeat(l.queryChars));
  list[2] = { ...scenario('Crowded'), selected: Array(l.selected).fill(facet) };
  expect(scenarioProblem(list)).toBeNull();
  await workspace().saveScenarios(1, list);
  expect(await workspace().scenarios(1)).toEqual(list);
});

test('a list breaking a limit is refused with the desktop’s words, and the kept one stays', async () => {
  const ws = workspace();
  await ws.saveScenarios(1, [scenario('Kept')]);
  const refused: [Scenario[], string][] = [
    [Array.from({ length: 51 }, (_, i) => scenario(`S${i}`)), 'at most 50 scenarios can be kept for a configuration, not 51'],
    [[scenario('Fine'), scenario('  ')], 'scenario 2 has no name'],
    [[scenario('n'.repeat(101))], 'the name of scenario 1 is longer than 100 characters'],
    [[scenario('A'), scenario(' A ', '', 'phone')], 'two scenarios are named “A”'],
    [[scenario('Long', 'q'.repeat(1001))], 'the query of “Long” is longer than 1000 characters'],
    [[{ ...scenario('Crowded'), selected: Array(51).fill(facet) }], '“Crowded” selects more than 50 facet values'],
    [[{ ...scenario('Wide'), width: 'watch' as ScenarioWidth }], '“Wide” has the width “watch”; it must be one of desktop, tablet, phone'],
  ];
  for (const [list, message] of refused) {
    await expect(ws.saveScenarios(1, list)).rejects.toMatchObject({ code: 'bad_request', message });
  }
  expect((await ws.scenarios(1)).map((s) => s.name)).toEqual(['Kept']);
});

test('stored values not shaped like scenarios are left out', async () => {
  const stored = [{ name: 3 }, scenario('Good'), 'x', { ...scenario('Watch'), width: 'watch' }];
  localStorage.setItem('search-studio.scenarios.https://a.example.1', JSON.stringify(stored));
  expect((await workspace().scenarios(1)).map((s) => s.name)).toEqual(['Good']);
});

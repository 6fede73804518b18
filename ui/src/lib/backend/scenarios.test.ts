// The web build's preview scenarios: kept in the browser's storage per server and configuration, and checked by
// the same rules (and in the same words) as the desktop app's.
import { beforeEach, describe, expect, test } from 'vitest';
import { webWorkspace } from './webworkspace';
import type { Api } from './Backend';
import type { Scenario, ScenarioWidth } from '../types/sync';
import { scenarioProblem } from './scenarios';
import scenarioFile from '../../../../crates/sync/cases/scenarios.json';

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

describe('the shared scenario cases (crates/sync/cases/scenarios.json)', () => {
  for (const c of scenarioFile.cases) {
    test(c.name, async () => {
      const ws = workspace();
      await ws.saveScenarios(1, [scenario('Kept')]);
      const list = c.list.map((s) => ({ ...scenario(s.name, s.query, s.width as ScenarioWidth), selected: Array(s.selected).fill(facet) }));
      if (c.problem === null) {
        expect(scenarioProblem(list)).toBeNull();
        await ws.saveScenarios(1, list);
        expect(await ws.scenarios(1)).toEqual(list);
      } else {
        await expect(ws.saveScenarios(1, list)).rejects.toMatchObject({ code: 'bad_request', message: c.problem });
        expect((await ws.scenarios(1)).map((s) => s.name)).toEqual(['Kept']);
      }
    });
  }
});

test('a width the browser build does not know is refused in words generated from crates/sync', async () => {
  const ws = workspace();
  await ws.saveScenarios(1, [scenario('Kept')]);
  await expect(ws.saveScenarios(1, [{ ...scenario('Wide'), width: 'watch' as ScenarioWidth }])).rejects.toMatchObject({
    code: 'bad_request',
    message: '“Wide” has the width “watch”; it must be one of desktop, tablet, phone',
  });
  expect((await ws.scenarios(1)).map((s) => s.name)).toEqual(['Kept']);
});

test('stored values not shaped like scenarios are left out', async () => {
  const stored = [{ name: 3 }, scenario('Good'), 'x', { ...scenario('Watch'), width: 'watch' }];
  localStorage.setItem('search-studio.scenarios.https://a.example.1', JSON.stringify(stored));
  expect((await workspace().scenarios(1)).map((s) => s.name)).toEqual(['Good']);
});

import { beforeEach, expect, test } from 'vitest';
import { webWorkspace } from '../backend/webworkspace';
import type { Api } from '../backend/Backend';
import type { Scenario } from '../types/sync';
import { scenarioProblem } from './scenarios';

const scenario = (name: string, query = '', width = 'desktop'): Scenario => ({
  name, query, width, selected: [{ field: 'dyn_uri_topic', label: 'Energy', value: 'urn:energy' }],
});

beforeEach(() => localStorage.clear());

test('scenarios are kept per server and configuration and read back after a new page', async () => {
  const list = [scenario('Energy', 'solar', 'tablet'), scenario('All')];
  await webWorkspace({} as Api, 'https://a.example').saveScenarios(1, list);
  await webWorkspace({} as Api, 'https://b.example').saveScenarios(1, list.slice(1));
  expect(await webWorkspace({} as Api, 'https://a.example').scenarios(1)).toEqual(list);
  expect(await webWorkspace({} as Api, 'https://b.example').scenarios(1)).toEqual(list.slice(1));
  expect(await webWorkspace({} as Api, 'https://a.example').scenarios(2)).toEqual([]);
});

test('a list breaking a limit is refused with the desktop’s words, and the kept one stays', async () => {
  const ws = webWorkspace({} as Api, 'https://a.example');
  await ws.saveScenarios(1, [scenario('Kept')]);
  const refused = [
    [Array.from({ length: 51 }, (_, i) => scenario(`S${i}`)), 'at most 50 scenarios can be kept for a configuration, not 51'],
    [[scenario('  ')], 'scenario 1 has no name'],
    [[scenario('A'), scenario(' A ', '', 'phone')], 'two scenarios are named “A”'],
    [[scenario('Long', 'q'.repeat(1001))], 'the query of “Long” is longer than 1000 characters'],
    [[scenario('Wide', '', 'watch')], '“Wide” has the width “watch”; it must be one of desktop, tablet, phone'],
  ] as const;
  for (const [list, message] of refused) {
    expect(scenarioProblem([...list])).toBe(message);
    await expect(ws.saveScenarios(1, [...list])).rejects.toMatchObject({ code: 'bad_request', message });
  }
  expect((await ws.scenarios(1)).map((s) => s.name)).toEqual(['Kept']);
});

test('stored values not shaped like scenarios are left out', async () => {
  localStorage.setItem('search-studio.scenarios.https://a.example.1', JSON.stringify([{ name: 3 }, scenario('Good'), 'x']));
  expect((await webWorkspace({} as Api, 'https://a.example').scenarios(1)).map((s) => s.name)).toEqual(['Good']);
});

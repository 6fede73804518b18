// The search sent ahead of the preview: taken by the preview that asks for exactly it, never for another search.
import { describe, expect, test } from 'vitest';
import { FakeBackend } from '../../test/fakeBackend';
import { PreviewSession, SearchState } from './session.svelte';

async function opened() {
  const b = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
  const id = (await b.listConfigurations()).configurations[0].id!;
  const config = (await b.getConfiguration(id)).config;
  return { b, id, config, searches: () => b.calls.filter((c) => c.op === 'search').length };
}

describe('a search sent ahead', () => {
  test('is taken by the preview asking for the same search instead of being sent again', async () => {
    const { b, id, config, searches } = await opened();
    const state = new SearchState();
    state.sendAhead(b, id, config);
    const session = new PreviewSession(state);
    await session.run(b, id, config);
    expect(searches()).toBe(1);
    expect(session.response?.result.length).toBe(10);
  });

  test('is not used for another search: the preview sends its own and shows its answer', async () => {
    const { b, id, config, searches } = await opened();
    const state = new SearchState();
    state.sendAhead(b, id, config);
    state.setQuery('no such words anywhere');
    const session = new PreviewSession(state);
    await session.run(b, id, config);
    expect(searches()).toBe(2);
    expect(session.response?.result.length).toBe(0);
  });

  test('is taken once: the next search of the same request is sent', async () => {
    const { b, id, config, searches } = await opened();
    const state = new SearchState();
    state.sendAhead(b, id, config);
    const session = new PreviewSession(state);
    await session.run(b, id, config);
    await session.run(b, id, config);
    expect(searches()).toBe(2);
  });
});

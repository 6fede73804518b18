import { describe, expect, test, vi } from 'vitest';
import { watchBackend } from './watch';
import { BackendError } from './Backend';
import { FakeBackend } from '../../test/fakeBackend';

describe('a watched backend', () => {
  test('reports each search answer with its request and passes it on unchanged', async () => {
    const b = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    const onSearch = vi.fn();
    const watched = watchBackend(b, { onSearch, onError: vi.fn() });
    const request = { input: 'document 1', selectedFacets: [], start: 0 };
    const answer = await watched.search(1, request);
    expect(answer.result.length).toBeGreaterThan(0);
    expect(onSearch).toHaveBeenCalledWith(1, request, answer);
    expect((await watched.listConfigurations()).configurations).toHaveLength(1);
    expect(onSearch).toHaveBeenCalledTimes(1);
  });

  test('reports each failure and rethrows it as it was', async () => {
    const b = new FakeBackend();
    b.lacks.add('setActive');
    const onError = vi.fn();
    const watched = watchBackend(b, { onSearch: vi.fn(), onError });
    const err = await watched.setActive(1).catch((e) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err.code).toBe('not_offered');
    expect(onError).toHaveBeenCalledWith(err);
  });

  test('a failing watcher never fails the operation', async () => {
    const b = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    const watched = watchBackend(b, { onSearch: () => { throw new Error('watcher broke'); }, onError: vi.fn() });
    expect((await watched.search(1, { input: '', selectedFacets: [], start: 0 })).total).toBeTruthy();
  });
});

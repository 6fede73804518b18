import { beforeEach, describe, expect, test, vi } from 'vitest';
import { codeForStatus, createHttpBackend } from './http';
import { BackendError } from './Backend';

type Call = { url: string; init: RequestInit };

function fakeFetch(answers: ((call: Call) => Response)[]) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} };
    calls.push(call);
    const next = answers.shift();
    if (!next) throw new TypeError('no answer left');
    return next(call);
  });
  return { fn: fn as unknown as typeof fetch, calls };
}
const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('http backend', () => {
  test('statuses map to codes', () => {
    expect([400, 401, 403, 404, 409, 502, 504, 500, 413, 415].map(codeForStatus)).toEqual([
      'bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'bad_gateway', 'timeout', 'internal', 'upstream', 'upstream',
    ]);
  });

  test('asks for the token once, sends it as a bearer, and unwraps the answers', async () => {
    const askToken = vi.fn(async () => ({ token: 'secret', remember: false }));
    const { fn, calls } = fakeFetch([
      json(200, { configurations: [], activeId: null, message: '0 configurations' }),
      json(200, { searchSpaces: [{ id: 'demo', documents: 3, fields: [] }], message: '' }),
      json(200, { message: 'updated', config: { id: 3 }, errors: [{ key: 'config.title', message: 'must not be empty' }] }),
    ]);
    const b = createHttpBackend({ askToken, fetch: fn });
    expect(await b.listConfigurations()).toEqual({ configurations: [], activeId: null });
    expect((await b.searchSpaces())[0].id).toBe('demo');
    const outcome = await b.updateConfiguration(3, { config: { title: '' } });
    expect(outcome.errors[0].key).toBe('config.title');
    expect(askToken).toHaveBeenCalledTimes(1);
    expect((calls[0].init.headers as Record<string, string>).Authorization).toBe('Bearer secret');
    expect(calls[2].init.method).toBe('PUT');
    expect(calls[2].url).toBe('/api/configurations/3');
    expect((calls[2].init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(sessionStorage.getItem('search-studio.token')).toBe('secret');
    expect(localStorage.getItem('search-studio.token')).toBeNull();
  });

  test('a refused token is forgotten and asked for again once', async () => {
    const askToken = vi.fn(async (retry: boolean) => ({ token: retry ? 'good' : 'bad', remember: true }));
    const { fn, calls } = fakeFetch([
      json(401, { status: 401, error: 'Unauthorized', message: 'unknown token' }),
      json(200, { configuration: { id: 1 }, message: '' }),
    ]);
    const b = createHttpBackend({ askToken, fetch: fn });
    expect((await b.getConfiguration(1)).id).toBe(1);
    expect(askToken.mock.calls.map((c) => c[0])).toEqual([false, true]);
    expect((calls[1].init.headers as Record<string, string>).Authorization).toBe('Bearer good');
    expect(localStorage.getItem('search-studio.token')).toBe('good');
  });

  test('error bodies become BackendErrors with the server’s message', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const { fn } = fakeFetch([json(409, { status: 409, error: 'Conflict', message: 'configuration 1 is active' })]);
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    const err = await b.deleteConfiguration(1).catch((e) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err.code).toBe('conflict');
    expect(err.message).toBe('configuration 1 is active');
  });

  test('an unreachable server is a network error', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const { fn } = fakeFetch([]);
    const err = await createHttpBackend({ askToken: async () => null, fetch: fn }).searchSpaces().catch((e) => e);
    expect(err.code).toBe('network');
  });

  test('query parameters of getSimilar and getRecommendations are encoded', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const { fn, calls } = fakeFetch([json(200, { message: '', result: [] }), json(200, { result: [] })]);
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    await b.similarDocuments(2, { uri: 'urn:a b', number: 3, similarity: null });
    await b.recommendations(2, { uri: 'urn:x', recommender: 'same-author' });
    expect(calls[0].url).toBe('/api/configurations/2/getSimilar?uri=urn%3Aa+b&number=3');
    expect(calls[1].url).toBe('/api/configurations/2/getRecommendations?uri=urn%3Ax&recommender=same-author');
  });

  test('IPC rejections {code, message} become BackendErrors', () => {
    const e = BackendError.from({ code: 'storage', message: 'disk full' });
    expect([e.code, e.message]).toEqual(['storage', 'disk full']);
    expect(BackendError.from({ code: 'weird', message: 'x' }).code).toBe('internal');
  });
});

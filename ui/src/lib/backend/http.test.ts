import { beforeEach, describe, expect, test, vi } from 'vitest';
import { codeForStatus, createHttpBackend } from './http';
import { BackendError, type Backend } from './Backend';
import errorAnswerFile from '../../../../crates/remote/cases/error-answers.json';
import { json, type Call } from '../../test/answers';

/** A server without an OpenAPI document. */
const noDocument = json(404, { status: 404, error: 'Not Found', message: 'no such path' });

/**
 * A fetch that gives `answers` in order to the API's requests (recorded in `calls`), and `document` to every
 * request of /api-docs (recorded in `documentCalls`), which the backend reads before it first asks for a token.
 */
function fakeFetch(answers: ((call: Call) => Response)[], document: (call: Call) => Response = noDocument) {
  const calls: Call[] = [];
  const documentCalls: Call[] = [];
  const fn = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} };
    if (call.url.endsWith('/api-docs')) {
      documentCalls.push(call);
      return document(call);
    }
    calls.push(call);
    const next = answers.shift();
    if (!next) throw new TypeError('no answer left');
    return next(call);
  });
  return { fn: fn as unknown as typeof fetch, calls, documentCalls };
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('http backend', () => {
  test('statuses map to codes', () => {
    expect([400, 401, 403, 404, 409, 501, 502, 504, 500, 503, 413, 415].map(codeForStatus)).toEqual([
      'bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'not_offered', 'bad_gateway', 'timeout', 'internal', 'internal', 'upstream', 'upstream',
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

  test('explain=true is sent only when explanations are asked for', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const { fn, calls } = fakeFetch([json(200, { result: [] }), json(200, { result: [] }), json(200, { result: [] })]);
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    await b.similarDocuments(2, { uri: 'urn:a', number: null, similarity: 'text', explain: true });
    await b.recommendations(2, { uri: 'urn:a', recommender: 'same-author', explain: true });
    await b.similarDocuments(2, { uri: 'urn:a', number: null, similarity: null, explain: false });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/configurations/2/getSimilar?uri=urn%3Aa&similarity=text&explain=true',
      '/api/configurations/2/getRecommendations?uri=urn%3Aa&recommender=same-author&explain=true',
      '/api/configurations/2/getSimilar?uri=urn%3Aa',
    ]);
  });

  test('fields another server leaves out read as the Rust client reads them; the server’s message is not an answer', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const { fn, calls } = fakeFetch([
      json(200, { configurations: [] }),
      json(200, { config: { id: 4 } }),
      json(200, { result: [{ id: 'urn:d' }] }),
      json(200, {}),
      json(200, { message: 'deleted configuration 4' }),
    ]);
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    expect(await b.listConfigurations()).toEqual({ configurations: [], activeId: null });
    expect(await b.createConfiguration({ config: {} })).toEqual({ config: { id: 4 }, errors: [] });
    const found = await b.search(4, { input: 'x', selectedFacets: [], start: null });
    expect([found.facets, found.concepts, found.total, found.message]).toEqual([[], [], 0, '']);
    expect(found.result.map((d) => d.id)).toEqual(['urn:d']);
    expect(await b.similarDocuments(4, { uri: 'urn:d', number: null, similarity: null })).toEqual([]);
    await b.deleteConfiguration(4);
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'GET /api/configurations',
      'POST /api/configurations',
      'POST /api/configurations/4/search',
      'GET /api/configurations/4/getSimilar?uri=urn%3Ad',
      'DELETE /api/configurations/4',
    ]);
  });

  test('facet health is read from its search space’s path; a server without it does not offer it', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const health = { searchSpace: 'a b', documents: 2, fields: [], message: '0 fields' };
    const spring404 = json(404, { timestamp: 'x', status: 404, error: 'Not Found', path: '/api/searchspaces/x/facethealth' });
    const { fn, calls } = fakeFetch([json(200, health), spring404]);
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    expect((await b.facetHealth('a b')).documents).toBe(2);
    expect(calls[0].url).toBe('/api/searchspaces/a%20b/facethealth');
    const err = await b.facetHealth('x').catch((e) => e);
    expect([err.code, err.message]).toEqual(['not_offered', "this server does not offer facet health of a search space's fields"]);
    expect((await b.offers()).facetHealth).toBe(false);
  });

  test('a not-offered answer of `studio serve --upstream` (501) says so and takes the extension away', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const { fn } = fakeFetch([
      json(501, { status: 501, error: 'Not Implemented', message: 'http://prod.example does not offer making a configuration active' }),
    ], json(200, { openapi: '3.1.0', paths: {} }));
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    const err = await b.setActive(3).catch((e) => e);
    expect([err.code, err.message]).toEqual(['not_offered', 'this server does not offer making a configuration active']);
    expect((await b.offers()).setActive).toBe(false);
  });

  test('IPC rejections {code, message} become BackendErrors', () => {
    const e = BackendError.from({ code: 'storage', message: 'disk full' });
    expect([e.code, e.message]).toEqual(['storage', 'disk full']);
    expect(BackendError.from({ code: 'weird', message: 'x' }).code).toBe('internal');
  });
});

type Case = {
  name: string; request: string; status: number; body?: unknown; bodyText?: string; contentType?: string;
  notOffered: boolean; text: string | null;
};

/** The Backend operation a case's request stands for. */
function operation(b: Backend, request: string): Promise<unknown> {
  const [method, path] = request.split(' ');
  const id = Number(/\/api\/configurations\/(\d+)/.exec(path)?.[1]);
  const routes: [RegExp, () => Promise<unknown>][] = [
    [/^GET \/api\/configurations$/, () => b.listConfigurations()],
    [/^POST \/api\/configurations$/, () => b.createConfiguration({ config: {} })],
    [/^GET \/api\/configurations\/active$/, () => b.activeConfiguration()],
    [/^GET \/api\/configurations\/\d+$/, () => b.getConfiguration(id)],
    [/^PUT \/api\/configurations\/\d+$/, () => b.updateConfiguration(id, { config: {} })],
    [/^DELETE \/api\/configurations\/\d+$/, () => b.deleteConfiguration(id)],
    [/^POST \/api\/configurations\/\d+\/set$/, () => b.setActive(id)],
    [/^GET \/api\/configurations\/\d+\/logs$/, () => b.configurationLogs(id)],
    [/^GET \/api\/searchspaces$/, () => b.searchSpaces()],
    [/^POST \/api\/configurations\/\d+\/search$/, () => b.search(id, { input: null, selectedFacets: [], start: null })],
  ];
  const route = routes.find(([pattern]) => pattern.test(`${method} ${path}`));
  if (!route) throw new Error(`no operation for ${request}`);
  return route[1]();
}

describe('error answers of any server (crates/remote/cases/error-answers.json, shared with the Rust client)', () => {
  const cases = (errorAnswerFile as unknown as { cases: Case[] }).cases;

  test('the case file is read', () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    sessionStorage.setItem('search-studio.token', 't');
    const answer = () =>
      new Response(c.bodyText ?? JSON.stringify(c.body), { status: c.status, headers: { 'Content-Type': c.contentType ?? 'application/json' } });
    // A 401 asks for a token once more; the same answer then comes back and is read.
    const { fn, calls } = fakeFetch([answer, answer], json(200, { swagger: '2.0', basePath: '/', paths: {} }));
    const b = createHttpBackend({ askToken: async () => ({ token: 't', remember: false }), fetch: fn });
    const err = (await operation(b, c.request).catch((e) => e)) as BackendError;
    expect(err).toBeInstanceOf(BackendError);
    const [method, path] = c.request.split(' ');
    expect([calls[0].init.method, calls[0].url]).toEqual([method, path]);
    if (c.notOffered) {
      expect(err.code).toBe('not_offered');
      expect(err.message).toMatch(/^this server does not offer \S/);
    } else {
      expect(err.code).not.toBe('not_offered');
      expect(err.message).toBe(c.text);
    }
    expect(err.message).not.toMatch(/^\s*(\d{3}\s*)?Not Found\s*$/);
  });
});

describe('what the server offers', () => {
  const swagger = {
    swagger: '2.0',
    basePath: '/',
    paths: {
      '/api/configurations': { get: {}, post: {} },
      '/api/configurations/{configId}': { get: {}, put: {} },
      '/api/configurations/{configId}/logs': { get: {} },
    },
  };

  test('comes from an OpenAPI 2.0 document, read once, without asking for a token', async () => {
    const askToken = vi.fn(async () => null);
    const { fn, calls, documentCalls } = fakeFetch([], json(200, swagger));
    const b = createHttpBackend({ askToken, fetch: fn });
    const expected = { setActive: false, visible: false, logs: true, delete: false, searchSpaces: false, facetHealth: false };
    expect(await b.offers()).toEqual(expected);
    expect(await b.offers()).toEqual(expected);
    expect([calls.length, documentCalls.length]).toEqual([0, 1]);
    expect(askToken).not.toHaveBeenCalled();
  });

  test('comes from an OpenAPI 3 document under its server URL’s path', async () => {
    const doc = {
      openapi: '3.1.0',
      servers: [{ url: 'https://search.example.org/base/' }],
      paths: { '/api/configurations/{id}': { delete: {} }, '/api/searchspaces': { get: {} }, '/api/configurations/{configId}/set': { get: {} } },
    };
    const { fn } = fakeFetch([], json(200, doc));
    // Paths are compared under the server's base path; `set` listed for GET is not the POST that makes active.
    const offers = await createHttpBackend({ askToken: async () => null, fetch: fn, base: '' }).offers();
    expect(offers).toEqual({ setActive: false, visible: false, logs: false, delete: false, searchSpaces: false, facetHealth: false });
    const { fn: fn2 } = fakeFetch([], json(200, { ...doc, servers: [{ url: 'https://search.example.org' }] }));
    expect(await createHttpBackend({ askToken: async () => null, fetch: fn2 }).offers())
      .toEqual({ setActive: false, visible: false, logs: false, delete: true, searchSpaces: true, facetHealth: false });
  });

  test('without a readable document, everything not yet refused', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const spring404 = (path: string) => json(404, { timestamp: 'x', status: 404, error: 'Not Found', path });
    const { fn } = fakeFetch([spring404('/api/configurations/4/set')], spring404('/api-docs'));
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    expect(Object.values(await b.offers()).every(Boolean)).toBe(true);
    const err = await b.setActive(4).catch((e) => e);
    expect([err.code, err.message]).toEqual(['not_offered', 'this server does not offer making a configuration active']);
    expect(await b.offers()).toEqual({ setActive: false, visible: true, logs: true, delete: true, searchSpaces: true, facetHealth: true });
  });

  test('a document that lists an extension still loses it once the server answers it lacks it', async () => {
    sessionStorage.setItem('search-studio.token', 't');
    const { fn } = fakeFetch(
      [() => new Response('<html>Whitelabel Error Page</html>', { status: 404, headers: { 'Content-Type': 'text/html' } })],
      json(200, { ...swagger, paths: { ...swagger.paths, '/api/searchspaces': { get: {} } } }),
    );
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    expect((await b.offers()).searchSpaces).toBe(true);
    expect((await b.searchSpaces().catch((e) => e)).code).toBe('not_offered');
    expect((await b.offers()).searchSpaces).toBe(false);
  });
});

// The Backend over HTTP, for the same build served by `studio serve` at `/`. The bearer token is asked for
// once (through `askToken`, which the app answers with its token dialog) and kept in sessionStorage, or in
// localStorage when the user asks to be remembered; a 401 forgets it and asks again once. Error answers are
// read by answers.ts; what the server offers comes from its /api-docs, less what it answered it lacks.
import type { Backend, PreviewSearchRequest } from './Backend';
import { BackendError } from './Backend';
import type {
  Configuration, ConfigurationList, Document, Extension, LogEntry, Offers, RecommendQuery, Recommendations,
  SearchResponse, SearchSpace, SimilarQuery, WriteOutcome,
} from '../types/generated';
import { readErrorAnswer } from './answers';
import { allOffered, offersInDocument } from './offers';

export { codeForStatus } from './answers';

const TOKEN_KEY = 'search-studio.token';

export interface TokenAnswer {
  token: string;
  remember: boolean;
}

export interface HttpOptions {
  /** Prefix of every path, '' for the same origin. */
  base?: string;
  /** Asks the user for a token; null when they gave up. `retry` is true after a token was refused. */
  askToken: (retry: boolean) => Promise<TokenAnswer | null>;
  fetch?: typeof fetch;
}

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function storeToken(answer: TokenAnswer | null) {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_KEY);
    if (answer) (answer.remember ? localStorage : sessionStorage).setItem(TOKEN_KEY, answer.token);
  } catch {
    /* storage unavailable: the token lives in memory only */
  }
}

export function createHttpBackend(options: HttpOptions): Backend {
  const base = options.base ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  let token: string | null = storedToken();
  let asking: Promise<TokenAnswer | null> | null = null;
  /** The extensions the server's OpenAPI document lists (null: no readable document), read once. */
  let documented: Promise<Offers | null> | null = null;
  /** The extensions the server has answered it lacks. */
  const lacking = new Set<Extension>();

  async function ensureToken(retry: boolean): Promise<string> {
    if (token && !retry) return token;
    asking ??= options.askToken(retry).finally(() => (asking = null));
    const answer = await asking;
    if (!answer || !answer.token.trim()) throw new BackendError('unauthorized', 'no access token was given');
    token = answer.token.trim();
    storeToken({ ...answer, token });
    return token;
  }

  async function call<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
    const bearer = await ensureToken(false);
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${bearer}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new BackendError('network', `the server could not be reached: ${(e as Error).message ?? e}`);
    }
    if (response.status === 401 && !retried) {
      if (token === bearer) {
        token = null;
        storeToken(null);
      }
      await ensureToken(true);
      return call<T>(method, path, body, true);
    }
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: handled below */
    }
    if (!response.ok) {
      const read = readErrorAnswer({
        method, path, status: response.status, statusText: response.statusText,
        contentType: response.headers.get('Content-Type'), body: text,
      });
      if (read.lacks) lacking.add(read.lacks);
      throw new BackendError(read.code, read.message);
    }
    if (json === undefined) throw new BackendError('bad_gateway', `the answer to ${path} was not JSON`);
    return json as T;
  }

  const query = (params: Record<string, string | number | null | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
    return q.toString();
  };
  /** The server's OpenAPI document (it needs no token; a known one is sent along); null when unreadable. */
  async function readDocument(): Promise<Offers | null> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await doFetch(base + '/api-docs', { method: 'GET', headers });
    } catch {
      documented = null; // unreachable now: ask again next time
      return null;
    }
    if (response.status === 401 || response.status === 403) documented = null; // perhaps readable once signed in
    if (!response.ok) return null;
    try {
      return offersInDocument(JSON.parse(await response.text()));
    } catch {
      return null;
    }
  }

  const cfg = (id: number) => `/api/configurations/${encodeURIComponent(String(id))}`;

  return {
    async defaultConfiguration() {
      return (await call<{ configuration: Configuration }>('GET', '/api/configurations/default')).configuration;
    },
    async listConfigurations() {
      const r = await call<ConfigurationList>('GET', '/api/configurations');
      return { configurations: r.configurations, activeId: r.activeId ?? null };
    },
    async activeConfiguration() {
      return (await call<{ configuration: Configuration }>('GET', '/api/configurations/active')).configuration;
    },
    async getConfiguration(id) {
      return (await call<{ configuration: Configuration }>('GET', cfg(id))).configuration;
    },
    async createConfiguration(body) {
      const r = await call<WriteOutcome>('POST', '/api/configurations', body);
      return { config: r.config, errors: r.errors ?? [] };
    },
    async updateConfiguration(id, body) {
      const r = await call<WriteOutcome>('PUT', cfg(id), body);
      return { config: r.config, errors: r.errors ?? [] };
    },
    async similarDocuments(id, q: SimilarQuery) {
      const qs = query({ uri: q.uri, number: q.number, similarity: q.similarity });
      return (await call<{ result: Document[] }>('GET', `${cfg(id)}/getSimilar?${qs}`)).result ?? [];
    },
    async recommendations(id, q: RecommendQuery) {
      const qs = query({ uri: q.uri, recommender: q.recommender });
      return call<Recommendations>('GET', `${cfg(id)}/getRecommendations?${qs}`);
    },
    async search(id, request: PreviewSearchRequest) {
      return call<SearchResponse>('POST', `${cfg(id)}/search`, request);
    },
    async setActive(id) {
      return (await call<{ configuration: Configuration }>('POST', `${cfg(id)}/set`)).configuration;
    },
    async visibleConfigurations() {
      return (await call<{ configurations: Configuration[] }>('GET', '/api/configurations/visible')).configurations;
    },
    async configurationLogs(id) {
      return (await call<{ logs: LogEntry[] }>('GET', `${cfg(id)}/logs`)).logs;
    },
    async deleteConfiguration(id) {
      await call<{ message: string }>('DELETE', cfg(id));
    },
    async searchSpaces() {
      return (await call<{ searchSpaces: SearchSpace[] }>('GET', '/api/searchspaces')).searchSpaces;
    },
    async offers() {
      const reading = (documented ??= readDocument());
      const offers = { ...((await reading) ?? allOffered()) };
      for (const extension of lacking) offers[extension] = false;
      return offers;
    },
  };
}

// The Backend over HTTP, for the same build served by `studio serve` at `/`. A request carries either the access
// token of a provider sign-in (webtokens.ts: renewed as it expires, kept for the tab) or a pasted token (kept in
// sessionStorage, or in localStorage when the user asks to be remembered). Without either, or when the server
// refuses the one sent and it cannot be renewed, `askToken` shows the token dialog, which offers the provider
// sign-in the server's /api-docs names (websignin.ts) above the paste-a-token field; the request then goes again
// once. Each operation is sent as the generated table of routes says (types/operations.ts: method, path, where
// each argument goes, which field of the answer is the answer). Error answers are read by answers.ts; what the
// server offers comes from the same /api-docs (read once), less what it answered it lacks. Preferences, drafts, publishing and history are the browser's own
// (webworkspace.ts), over these operations.
import type { Api, Backend } from './Backend';
import { BackendError } from './Backend';
import type { Extension, Offers } from '../types/generated';
import { ROUTES, type Route } from '../types/operations';
import { readErrorAnswer } from './answers';
import { allOffered, offersInDocument } from './offers';
import { GrantError, SignInEnded, WebSession } from './webtokens';
import { signInInDocument, signInWithPopup, type WebSignInScheme } from './websignin';
import { webWorkspace } from './webworkspace';

export { codeForStatus } from './answers';

const TOKEN_KEY = 'search-studio.token';

/** What the token dialog answers: a pasted token, or that the provider sign-in it offered has finished. */
export type TokenAnswer = { token: string; remember: boolean } | { signedIn: true };

/** The provider sign-in the token dialog offers, when the server names one. */
export interface ProviderSignIn {
  /** The provider's host: "Sign in with <host>". */
  host: string;
  /** The sign-in ended (the provider refused to renew it): the dialog says so. */
  ended: boolean;
  /** Opens the provider's sign-in in a popup; call it from a click. Resolves once signed in. */
  signIn: (signal?: AbortSignal) => Promise<void>;
}

export interface HttpOptions {
  /** Prefix of every path, '' for the same origin. */
  base?: string;
  /**
   * Asks the user for a token, or to sign in through `provider`; null when they gave up. `retry` is true after
   * a token was refused or a sign-in ended.
   */
  askToken: (retry: boolean, provider: ProviderSignIn | null) => Promise<TokenAnswer | null>;
  fetch?: typeof fetch;
  /** The window that opens the sign-in popup: the page's own unless a test gives another. */
  window?: Window;
}

/** What the server's OpenAPI document says, read once. */
interface ServerDocument {
  /** The extensions it lists; null when it is not such a document. */
  offers: Offers | null;
  signIn: WebSignInScheme | null;
}

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function storeToken(answer: { token: string; remember: boolean } | null) {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_KEY);
    if (answer) (answer.remember ? localStorage : sessionStorage).setItem(TOKEN_KEY, answer.token);
  } catch {
    /* storage unavailable: the token lives in memory only */
  }
}

/** A failure of the provider that is not an ended sign-in, as the UI shows it. */
function providerError(e: unknown): BackendError {
  if (e instanceof BackendError) return e;
  if (e instanceof GrantError) return new BackendError(e.kind === 'unreachable' ? 'network' : 'unauthorized', e.message);
  return BackendError.from(e);
}

export function createHttpBackend(options: HttpOptions): Backend {
  const base = options.base ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  /** A pasted token. */
  let token: string | null = storedToken();
  /** The provider sign-in of this tab, kept across reloads. */
  let session: WebSession | null = WebSession.restore(doFetch);
  /** The token dialog on screen, shared by every request that needs it; gives the bearer to send. */
  let asking: Promise<string> | null = null;
  /** The server's OpenAPI document (null: none readable), read once. */
  let documented: Promise<ServerDocument | null> | null = null;
  /** The extensions the server has answered it lacks. */
  const lacking = new Set<Extension>();

  /** The provider sign-in the dialog offers: through `scheme`, into this backend's session. */
  function offerSignIn(scheme: WebSignInScheme, ended: boolean): ProviderSignIn {
    return {
      host: scheme.host,
      ended,
      async signIn(signal) {
        const signedIn = await signInWithPopup(scheme, { fetch: doFetch, signal, window: options.window });
        const fresh = new WebSession(signedIn.provider, null, doFetch);
        fresh.signIn(signedIn.tokens);
        session = fresh;
        token = null;
        storeToken(null);
      },
    };
  }

  /** Shows the token dialog (once for every request waiting) and gives the bearer it leads to. */
  function ask(retry: boolean, ended: boolean): Promise<string> {
    asking ??= (async () => {
      const scheme = (await (documented ??= readDocument()))?.signIn ?? null;
      const answer = await options.askToken(retry, scheme ? offerSignIn(scheme, ended) : null);
      if (answer && 'signedIn' in answer && session?.signedIn) return session.bearer();
      if (!answer || !('token' in answer) || !answer.token.trim()) throw new BackendError('unauthorized', 'no access token was given');
      token = answer.token.trim();
      storeToken({ ...answer, token });
      session?.forget();
      session = null;
      return token;
    })().finally(() => (asking = null));
    return asking;
  }

  /** The sign-in's token, renewed when it is about to expire; the dialog when it has ended. */
  async function sessionBearer(current: WebSession, rejected: string | null): Promise<string> {
    try {
      return await (rejected === null ? current.bearer() : current.rejected(rejected));
    } catch (e) {
      if (e instanceof SignInEnded) return ask(true, true);
      throw providerError(e);
    }
  }

  /** The bearer token to send. */
  async function bearer(): Promise<string> {
    if (asking) return asking;
    if (session?.signedIn) return sessionBearer(session, null);
    if (token) return token;
    return ask(false, false);
  }

  /** The server refused `sent`: a renewed token, the one someone else has put in place meanwhile, or the dialog. */
  async function afterRefusal(sent: string): Promise<string> {
    if (session?.signedIn && session.holds(sent)) return sessionBearer(session, sent);
    if (token === sent) {
      token = null;
      storeToken(null);
    }
    if (asking) return asking;
    if (session?.signedIn) return sessionBearer(session, null);
    if (token) return token;
    return ask(true, false);
  }

  async function call<T>(method: string, path: string, body?: unknown, retried: string | null = null): Promise<T> {
    const sent = retried ?? (await bearer());
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${sent}` };
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
    if (response.status === 401 && retried === null) {
      return call<T>(method, path, body, await afterRefusal(sent));
    }
    // A freshly renewed token refused as well: the server does not take this sign-in; the next request asks.
    if (response.status === 401 && session?.holds(sent)) session.forget();
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

  /** A query string of `params`; a missing, null or false value is left out (false is every flag's default). */
  const query = (params: Record<string, unknown>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== false) q.set(k, String(v));
    return q.toString();
  };
  /** The server's OpenAPI document (it needs no token; a known one is sent along); null when unreadable. */
  async function readDocument(): Promise<ServerDocument | null> {
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
      const document: unknown = JSON.parse(await response.text());
      return { offers: offersInDocument(document), signIn: signInInDocument(document) };
    } catch {
      return null;
    }
  }

  /** Sends an operation with `args` as its route says, and reads its answer. */
  async function send(route: Route, args: readonly unknown[]): Promise<unknown> {
    let path = route.path;
    let body: unknown = undefined;
    route.args.forEach((place, i) => {
      if (place === 'path') path = path.replace(/\{[^}]*\}/, encodeURIComponent(String(args[i])));
      else if (place === 'query') path = `${path}?${query(args[i] as Record<string, unknown>)}`;
      else body = args[i];
    });
    const answer: Record<string, unknown> = { ...route.absent, ...(await call<Record<string, unknown>>(route.method, path, body)) };
    if (route.answer !== null) return answer[route.answer];
    for (const field of route.omit) delete answer[field];
    return answer;
  }

  /** Every routed operation of the Api; a missing route fails the type check of `api` below. */
  const routed = Object.fromEntries(
    Object.entries(ROUTES).map(([name, route]) => [name, (...args: unknown[]) => send(route, args)]),
  ) as unknown as { [K in keyof typeof ROUTES & keyof Api]: Api[K] };

  const api: Api = {
    ...routed,
    async offers() {
      const reading = (documented ??= readDocument());
      const offers = { ...((await reading)?.offers ?? allOffered()) };
      for (const extension of lacking) offers[extension] = false;
      return offers;
    },
  };
  const origin = typeof location === 'undefined' ? '' : location.origin;
  return { ...api, ...webWorkspace(api, origin + base) };
}

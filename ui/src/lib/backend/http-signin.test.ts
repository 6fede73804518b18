// The HTTP backend signing in through the server's OpenID Connect provider: the provider found in the server's
// OpenAPI document, the popup's sign-in, tokens renewed before and after they expire, and what a refusal asks.
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { createHttpBackend, type ProviderSignIn } from './http';
import { json, type Call } from '../../test/answers';

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('signing in through the server’s OpenID Connect provider', () => {
  const issuer = 'http://127.0.0.1:8180/realms/studio';
  const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
  const tokenEndpoint = `${issuer}/protocol/openid-connect/token`;
  const serverDocument = {
    openapi: '3.1.0',
    paths: {},
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        oidc: { type: 'openIdConnect', openIdConnectUrl: discoveryUrl, 'x-search-studio-client-id': 'studio-web' },
      },
    },
  };
  const discovery = { issuer, authorization_endpoint: `${issuer}/protocol/openid-connect/auth`, token_endpoint: tokenEndpoint };
  const tokenAnswer = (access: string) => json(200, { access_token: access, expires_in: 300, refresh_token: `refresh-of-${access}`, token_type: 'Bearer' });

  /** Keeps a sign-in in the tab's storage, as an earlier page of this tab left it. */
  function keptSignIn(access: string, expiresAt: number) {
    const provider = { discoveryUrl, clientId: 'studio-web', tokenEndpoint };
    const tokens = { accessToken: access, expiresAt, lifetime: 300_000, refreshToken: `refresh-of-${access}`, refreshExpiresAt: null };
    sessionStorage.setItem('search-studio.sign-in', JSON.stringify({ provider, tokens }));
  }

  /** A fetch routed by URL: the API (answers in order), /api-docs, the provider's discovery and token endpoint. */
  function server(api: ((call: Call) => Response)[], grants: ((call: Call) => Response)[]) {
    const apiCalls: Call[] = [];
    const grantForms: Record<string, string>[] = [];
    const fn = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const call = { url: String(url), init: init ?? {} };
      if (call.url === '/api-docs') return json(200, serverDocument)();
      if (call.url === discoveryUrl) return json(200, discovery)();
      const queue = call.url === tokenEndpoint ? grants : api;
      if (call.url === tokenEndpoint) grantForms.push(Object.fromEntries(new URLSearchParams(String(call.init.body))));
      else apiCalls.push(call);
      const next = queue.shift();
      if (!next) throw new TypeError(`no answer left for ${call.url}`);
      return next(call);
    });
    const bearerOf = (call: Call) => (call.init.headers as Record<string, string>).Authorization;
    return { fn: fn as unknown as typeof fetch, apiCalls, grantForms, bearers: () => apiCalls.map(bearerOf) };
  }

  /** A window whose sign-in popup is answered at once by a provider that signs the designer in. */
  function popupWindow() {
    const popup = {
      closed: false,
      close: () => (popup.closed = true),
      location: {
        set href(value: string) {
          const state = new URL(value).searchParams.get('state');
          const data = { type: 'search-studio.signed-in', state, code: 'the-code' };
          setTimeout(() => window.dispatchEvent(new MessageEvent('message', { origin: location.origin, data })), 0);
        },
      },
    };
    return new Proxy(window, { get: (t, k) => (k === 'open' ? () => popup : Reflect.get(t, k, t)) }) as Window;
  }

  test('the dialog offers signing in with the provider’s host; a pasted token still works', async () => {
    const askToken = vi.fn(async (_retry: boolean, provider: ProviderSignIn | null) => {
      expect([provider?.host, provider?.ended]).toEqual(['127.0.0.1:8180', false]);
      return { token: 'pasted', remember: false };
    });
    const { fn, bearers } = server([json(200, { configuration: { id: 1 } })], []);
    const b = createHttpBackend({ askToken, fetch: fn });
    expect((await b.getConfiguration(1)).id).toBe(1);
    expect(bearers()).toEqual(['Bearer pasted']);
  });

  test('signing in through the popup gives the token every request then sends', async () => {
    const askToken = vi.fn(async (_retry: boolean, provider: ProviderSignIn | null) => {
      await provider!.signIn();
      return { signedIn: true } as const;
    });
    const { fn, bearers, grantForms } = server([json(200, { configuration: { id: 1 } }), json(200, { configuration: { id: 2 } })], [tokenAnswer('signed-in')]);
    const b = createHttpBackend({ askToken, fetch: fn, window: popupWindow() });
    await Promise.all([b.getConfiguration(1), b.getConfiguration(2)]);
    expect(askToken).toHaveBeenCalledTimes(1);
    expect(bearers()).toEqual(['Bearer signed-in', 'Bearer signed-in']);
    expect(grantForms.map((f) => [f.grant_type, f.code, f.client_id])).toEqual([['authorization_code', 'the-code', 'studio-web']]);
    expect(JSON.parse(sessionStorage.getItem('search-studio.sign-in')!).tokens.refreshToken).toBe('refresh-of-signed-in');
  });

  test('a 401 renews the token once and sends the request again, without asking', async () => {
    keptSignIn('old', Date.now() + 200_000);
    const askToken = vi.fn(async () => null);
    const { fn, bearers, grantForms } = server(
      [json(401, { status: 401, error: 'Unauthorized', message: 'the token has expired' }), json(200, { configuration: { id: 1 } })],
      [tokenAnswer('renewed')],
    );
    const b = createHttpBackend({ askToken, fetch: fn });
    expect((await b.getConfiguration(1)).id).toBe(1);
    expect(bearers()).toEqual(['Bearer old', 'Bearer renewed']);
    expect(grantForms).toEqual([{ grant_type: 'refresh_token', refresh_token: 'refresh-of-old', client_id: 'studio-web' }]);
    expect(askToken).not.toHaveBeenCalled();
  });

  test('concurrent requests with an expiring token share one renewal', async () => {
    keptSignIn('old', Date.now() + 1_000);
    const { fn, bearers, grantForms } = server([1, 2, 3].map((id) => json(200, { configuration: { id } })), [tokenAnswer('renewed')]);
    const b = createHttpBackend({ askToken: async () => null, fetch: fn });
    await Promise.all([b.getConfiguration(1), b.getConfiguration(2), b.getConfiguration(3)]);
    expect(grantForms.length).toBe(1);
    expect(bearers()).toEqual(['Bearer renewed', 'Bearer renewed', 'Bearer renewed']);
  });

  test('when the provider refuses to renew, the dialog asks to sign in again and the requests go once signed in', async () => {
    keptSignIn('old', Date.now() - 1_000);
    const askToken = vi.fn(async (retry: boolean, provider: ProviderSignIn | null) => {
      expect([retry, provider?.ended]).toEqual([true, true]);
      await provider!.signIn();
      return { signedIn: true } as const;
    });
    const { fn, bearers, grantForms } = server(
      [json(200, { message: 'updated', config: { id: 1 }, errors: [] }), json(200, { result: [] })],
      [json(400, { error: 'invalid_grant', error_description: 'Session not active' }), tokenAnswer('again')],
    );
    const b = createHttpBackend({ askToken, fetch: fn, window: popupWindow() });
    const [saved] = await Promise.all([b.updateConfiguration(1, { config: { title: 'typed' } }), b.similarDocuments(1, { uri: 'u', number: 3, similarity: null })]);
    expect(saved.config.id).toBe(1);
    expect(askToken).toHaveBeenCalledTimes(1);
    expect(grantForms.map((f) => f.grant_type)).toEqual(['refresh_token', 'authorization_code']);
    expect(bearers()).toEqual(['Bearer again', 'Bearer again']);
  });

  test('a sign-in the server refuses even renewed is dropped, and the next request asks', async () => {
    keptSignIn('old', Date.now() + 200_000);
    const askToken = vi.fn(async () => ({ token: 'pasted', remember: false }));
    const refused = json(401, { status: 401, error: 'Unauthorized', message: 'the token names an unknown issuer' });
    const { fn, bearers } = server([refused, refused, json(200, { configuration: { id: 1 } })], [tokenAnswer('renewed')]);
    const b = createHttpBackend({ askToken, fetch: fn });
    expect((await b.getConfiguration(1).catch((e) => e)).code).toBe('unauthorized');
    expect(sessionStorage.getItem('search-studio.sign-in')).toBeNull();
    expect((await b.getConfiguration(1)).id).toBe(1);
    expect(bearers()).toEqual(['Bearer old', 'Bearer renewed', 'Bearer pasted']);
    expect(askToken).toHaveBeenCalledTimes(1);
  });

  test('an unreachable provider is a network error, not a sign-in dialog', async () => {
    keptSignIn('old', Date.now() - 1_000);
    const askToken = vi.fn(async () => null);
    const { fn } = server([], [() => { throw new TypeError('Failed to fetch'); }]);
    const err = await createHttpBackend({ askToken, fetch: fn }).listConfigurations().catch((e) => e);
    expect([err.code, err.message]).toEqual(['network', 'the sign-in provider 127.0.0.1:8180 could not be reached: Failed to fetch']);
    expect(askToken).not.toHaveBeenCalled();
  });
});

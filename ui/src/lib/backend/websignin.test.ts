import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  SIGNED_IN_PATH, authorizationUrl, challengeOf, handOverSignIn, randomValue, readSignInMessage, signInInDocument,
  signInWithPopup, waitForCallback, type SignInFailed,
} from './websignin';

const ORIGIN = 'http://127.0.0.1:8080';
const MESSAGE = 'search-studio.signed-in';

describe('PKCE', () => {
  test('the S256 challenge of RFC 7636’s example verifier is the RFC’s', async () => {
    expect(await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  test('verifiers and states are 43 random base64url characters', () => {
    const values = new Set(Array.from({ length: 20 }, randomValue));
    expect(values.size).toBe(20);
    for (const v of values) expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('the authorization request asks for a code with the S256 challenge, the state and scope openid', () => {
    const url = new URL(authorizationUrl('https://sso.example.org/realms/team/protocol/openid-connect/auth?kc_idp_hint=x', {
      clientId: 'studio-web', redirectUri: `${ORIGIN}/signed-in`, state: 'st', challenge: 'ch',
    }));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      kc_idp_hint: 'x', response_type: 'code', client_id: 'studio-web', redirect_uri: `${ORIGIN}/signed-in`, scope: 'openid',
      state: 'st', code_challenge: 'ch', code_challenge_method: 'S256',
    });
  });
});

describe('the provider a server names in /api-docs', () => {
  const scheme = {
    type: 'openIdConnect',
    openIdConnectUrl: 'https://sso.example.org/realms/team/.well-known/openid-configuration',
    'x-search-studio-client-id': 'studio-web',
  };

  test('is its openIdConnect scheme with the web UI’s client id', () => {
    const document = { openapi: '3.1.0', paths: {}, components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, oidc: scheme } } };
    expect(signInInDocument(document)).toEqual({ discoveryUrl: scheme.openIdConnectUrl, clientId: 'studio-web', host: 'sso.example.org' });
  });

  test('is none without a client id, without an http(s) URL, or without schemes', () => {
    const { 'x-search-studio-client-id': _, ...anonymous } = scheme;
    for (const oidc of [anonymous, { ...scheme, openIdConnectUrl: 'javascript:alert(1)' }, { ...scheme, type: 'oauth2' }]) {
      expect(signInInDocument({ components: { securitySchemes: { oidc } } })).toBeNull();
    }
    expect(signInInDocument({ swagger: '2.0', paths: {} })).toBeNull();
    expect(signInInDocument(null)).toBeNull();
  });
});

describe('the popup’s message', () => {
  const expected = { origin: ORIGIN, state: 'the-state' };

  test('with this origin and the state sent gives the code', () => {
    expect(readSignInMessage({ origin: ORIGIN, data: { type: MESSAGE, state: 'the-state', code: 'c0de' } }, expected)).toEqual({ code: 'c0de' });
  });

  test('from another origin, with another state or of another kind is ignored', () => {
    const data = { type: MESSAGE, state: 'the-state', code: 'c0de' };
    expect(readSignInMessage({ origin: 'http://127.0.0.1:9999', data }, expected)).toBeNull();
    expect(readSignInMessage({ origin: 'https://evil.example', data }, expected)).toBeNull();
    expect(readSignInMessage({ origin: ORIGIN, data: { ...data, state: 'forged' } }, expected)).toBeNull();
    expect(readSignInMessage({ origin: ORIGIN, data: { ...data, state: undefined } }, expected)).toBeNull();
    expect(readSignInMessage({ origin: ORIGIN, data: { ...data, type: 'other' } }, expected)).toBeNull();
    expect(readSignInMessage({ origin: ORIGIN, data: 'c0de' }, expected)).toBeNull();
  });

  test('with the provider’s error says it', () => {
    const data = { type: MESSAGE, state: 'the-state', code: null, error: 'access_denied', errorDescription: 'the user said no' };
    expect(readSignInMessage({ origin: ORIGIN, data }, expected)).toEqual({ error: 'access_denied: the user said no' });
  });
});

describe('waiting for the popup', () => {
  afterEach(() => vi.useRealTimers());
  const post = (origin: string, data: unknown) => window.dispatchEvent(new MessageEvent('message', { origin, data }));

  test('ignores other origins and states, and takes the code of the right message', async () => {
    const popup = { closed: false } as Window;
    const waiting = waitForCallback(window, popup, 'the-state');
    const settled = vi.fn();
    waiting.then(settled, settled);
    post('https://evil.example', { type: MESSAGE, state: 'the-state', code: 'stolen' });
    post(location.origin, { type: MESSAGE, state: 'forged', code: 'forged' });
    await new Promise((r) => setTimeout(r, 0));
    expect(settled).not.toHaveBeenCalled();
    post(location.origin, { type: MESSAGE, state: 'the-state', code: 'c0de' });
    expect(await waiting).toEqual({ code: 'c0de' });
  });

  test('a popup closed without an answer is a cancelled sign-in', async () => {
    vi.useFakeTimers();
    const popup = { closed: false } as { closed: boolean };
    const waiting = waitForCallback(window, popup as Window, 'the-state').catch((e: SignInFailed) => e);
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(1000);
    const failure = (await waiting) as SignInFailed;
    expect([failure.name, failure.cancelled]).toEqual(['SignInFailed', true]);
  });
});

describe('the popup at /signed-in', () => {
  function popupWindow(path: string, opener: { postMessage: (m: unknown, o: string) => void; closed: boolean } | null) {
    const url = new URL(path, ORIGIN);
    return {
      location: { pathname: url.pathname, search: url.search, origin: ORIGIN },
      opener,
      close: vi.fn(),
      document: { body: { textContent: '' } },
    };
  }

  test('hands code and state to its opener, at this origin only, and closes', () => {
    const opener = { postMessage: vi.fn(), closed: false };
    const popup = popupWindow(`${SIGNED_IN_PATH}?code=c0de&state=st&iss=x`, opener);
    expect(handOverSignIn(popup as unknown as Window)).toBe(true);
    expect(opener.postMessage).toHaveBeenCalledWith({ type: MESSAGE, state: 'st', code: 'c0de', error: null, errorDescription: null }, ORIGIN);
    expect(popup.close).toHaveBeenCalled();
  });

  test('elsewhere lets the app start', () => {
    const opener = { postMessage: vi.fn(), closed: false };
    expect(handOverSignIn(popupWindow('/?code=c0de&state=st', opener) as unknown as Window)).toBe(false);
    expect(opener.postMessage).not.toHaveBeenCalled();
  });
});

describe('signing in through the popup', () => {
  const jsonAnswer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const scheme = { discoveryUrl: 'http://127.0.0.1:8180/realms/studio/.well-known/openid-configuration', clientId: 'studio-web', host: '127.0.0.1:8180' };
  const discovery = {
    issuer: 'http://127.0.0.1:8180/realms/studio',
    authorization_endpoint: 'http://127.0.0.1:8180/realms/studio/protocol/openid-connect/auth',
    token_endpoint: 'http://127.0.0.1:8180/realms/studio/protocol/openid-connect/token',
  };

  /** A window whose popup, once sent to the provider, answers as the provider and the popup page would. */
  function browser(answer: (authorization: URL) => unknown) {
    const popup = {
      closed: false,
      close: vi.fn(() => (popup.closed = true)),
      location: {
        set href(value: string) {
          const data = answer(new URL(value));
          setTimeout(() => window.dispatchEvent(new MessageEvent('message', { origin: location.origin, data })), 0);
        },
      },
    };
    const open = vi.fn(() => popup);
    const win = new Proxy(window, { get: (target, key) => (key === 'open' ? open : Reflect.get(target, key, target)) });
    return { win: win as Window, open, popup };
  }

  test('exchanges the code with the verifier of the challenge it sent, as a public client', async () => {
    let sent: URL | null = null;
    const { win, open, popup } = browser((authorization) => {
      sent = authorization;
      return { type: MESSAGE, state: authorization.searchParams.get('state'), code: 'the-code' };
    });
    const requests: { url: string; body: URLSearchParams }[] = [];
    const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      if (String(url) === scheme.discoveryUrl) return jsonAnswer(discovery);
      requests.push({ url: String(url), body: new URLSearchParams(String(init?.body)) });
      return jsonAnswer({ access_token: 'at', expires_in: 300, refresh_token: 'rt', refresh_expires_in: 1800, token_type: 'Bearer' });
    }) as unknown as typeof globalThis.fetch;

    const { provider, tokens } = await signInWithPopup(scheme, { fetch, window: win });
    expect(open).toHaveBeenCalledTimes(1);
    expect(popup.close).toHaveBeenCalled();
    expect([tokens.accessToken, tokens.refreshToken]).toEqual(['at', 'rt']);
    expect(provider).toEqual({ discoveryUrl: scheme.discoveryUrl, clientId: 'studio-web', tokenEndpoint: discovery.token_endpoint });

    const authorization = sent as unknown as URL;
    expect(authorization.origin + authorization.pathname).toBe(discovery.authorization_endpoint);
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${location.origin}/signed-in`);
    expect(requests.map((r) => r.url)).toEqual([discovery.token_endpoint]);
    const form = Object.fromEntries(requests[0].body);
    expect(form).toMatchObject({ grant_type: 'authorization_code', code: 'the-code', client_id: 'studio-web', redirect_uri: `${location.origin}/signed-in` });
    expect(form.client_secret).toBeUndefined();
    expect(await challengeOf(form.code_verifier)).toBe(authorization.searchParams.get('code_challenge'));
  });

  test('a provider’s refusal is a failed sign-in that names it, and no token is asked for', async () => {
    const { win } = browser((a) => ({ type: MESSAGE, state: a.searchParams.get('state'), error: 'access_denied', errorDescription: 'no' }));
    const fetch = vi.fn(async () => jsonAnswer(discovery)) as unknown as typeof globalThis.fetch;
    const failure = (await signInWithPopup(scheme, { fetch, window: win }).catch((e) => e)) as SignInFailed;
    expect([failure.name, failure.cancelled, failure.message]).toEqual(['SignInFailed', false, '127.0.0.1:8180 did not sign you in (access_denied: no)']);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  test('a discovery document that names another issuer is refused before the popup goes anywhere', async () => {
    const { win } = browser((a) => ({ type: MESSAGE, state: a.searchParams.get('state'), code: 'the-code' }));
    const fetch = vi.fn(async () => jsonAnswer({ ...discovery, issuer: 'https://elsewhere.example/realms/x' })) as unknown as typeof globalThis.fetch;
    const failure = (await signInWithPopup(scheme, { fetch, window: win }).catch((e) => e)) as Error;
    expect(failure.message).toMatch(/describes another issuer/);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  test('a blocked popup says so', async () => {
    const win = new Proxy(window, { get: (t, k) => (k === 'open' ? () => null : Reflect.get(t, k, t)) });
    const failure = (await signInWithPopup(scheme, { fetch: vi.fn() as unknown as typeof fetch, window: win }).catch((e) => e)) as Error;
    expect(failure.message).toMatch(/blocked the sign-in window/);
  });
});

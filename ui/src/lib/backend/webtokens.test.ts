import renewalFile from '../../../../crates/remote/cases/token-renewal.json';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { SignInEnded, WebSession, needsRenewal, tokensOfAnswer, type Tokens } from './webtokens';

const provider = {
  discoveryUrl: 'http://127.0.0.1:8180/realms/studio/.well-known/openid-configuration',
  clientId: 'studio-web',
  tokenEndpoint: 'http://127.0.0.1:8180/realms/studio/protocol/openid-connect/token',
};
const jsonAnswer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
/** A token given at `t0` for `lifetime` ms. */
const tokens = (t0: number, lifetime: number, name = 'at-1'): Tokens => ({
  accessToken: name, expiresAt: t0 + lifetime, lifetime, refreshToken: 'rt-1', refreshExpiresAt: null,
});

beforeEach(() => sessionStorage.clear());

describe('when an access token is renewed (as crates/remote/src/oidc/grant.rs decides)', () => {
  test('as the case file shared with the Rust client says', () => {
    const file = renewalFile as { cases: { name: string; lifetime: number | null; left: number | null; missing?: boolean; renew: boolean }[] };
    expect(file.cases.length).toBeGreaterThan(5);
    const now = 1_700_000_000_000;
    for (const c of file.cases) {
      const t: Tokens = {
        accessToken: c.missing ? '' : 'at-1',
        expiresAt: c.left === null ? null : now + c.left,
        lifetime: c.lifetime,
        refreshToken: null,
        refreshExpiresAt: null,
      };
      expect(needsRenewal(t, now), c.name).toBe(c.renew);
    }
  });

  test('a token answer expires at its expires_in or its JWT exp, whichever is first', () => {
    const payload = (exp: number) => btoa(JSON.stringify({ exp })).replace(/=+$/, '');
    const started = 1_700_000_000_000;
    const jwt = `h.${payload(started / 1000 + 290)}.s`;
    const read = tokensOfAnswer({ access_token: jwt, expires_in: 300, refresh_token: 'r', refresh_expires_in: 1800, token_type: 'Bearer' }, started);
    expect(read).toEqual({ accessToken: jwt, expiresAt: started + 290_000, lifetime: 290_000, refreshToken: 'r', refreshExpiresAt: started + 1_800_000 });
    expect(tokensOfAnswer({ access_token: 'opaque', expires_in: 60 }, started).expiresAt).toBe(started + 60_000);
    expect(() => tokensOfAnswer({ access_token: 'x', token_type: 'DPoP' }, started)).toThrow(/not a bearer token/);
  });
});

describe('a sign-in’s session', () => {
  test('requests that find the token expiring share one refresh, and the new tokens are kept for the tab', async () => {
    let now = 0;
    let release: () => void = () => {};
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      await new Promise<void>((r) => (release = r));
      expect(Object.fromEntries(new URLSearchParams(String(init?.body)))).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-1', client_id: 'studio-web' });
      return jsonAnswer({ access_token: 'at-2', expires_in: 3, refresh_token: 'rt-2' });
    }) as unknown as typeof globalThis.fetch;
    const session = new WebSession(provider, null, fetch, () => now);
    session.signIn(tokens(0, 3_000));
    expect(await session.bearer()).toBe('at-1');
    now = 2_500;
    const waiting = [session.bearer(), session.bearer(), session.rejected('at-1')];
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    release();
    expect(await Promise.all(waiting)).toEqual(['at-2', 'at-2', 'at-2']);
    expect(fetch).toHaveBeenCalledTimes(1);
    const restored = WebSession.restore(fetch, () => now);
    expect(restored?.holds('at-2')).toBe(true);
    expect(restored?.provider).toEqual(provider);
  });

  test('a token the server refused is renewed even before its time', async () => {
    const fetch = vi.fn(async () => jsonAnswer({ access_token: 'at-2', expires_in: 300 })) as unknown as typeof globalThis.fetch;
    const session = new WebSession(provider, null, fetch, () => 0);
    session.signIn(tokens(0, 300_000));
    expect(await session.rejected('at-1')).toBe('at-2');
    // A provider that does not rotate refresh tokens keeps the one it gave.
    expect(JSON.parse(sessionStorage.getItem('search-studio.sign-in')!).tokens.refreshToken).toBe('rt-1');
    // Refused again, but someone renewed meanwhile: that token is used without another refresh.
    expect(await session.rejected('at-1')).toBe('at-2');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  test('a refresh token the provider refuses ends the sign-in and forgets it', async () => {
    const fetch = vi.fn(async () => jsonAnswer({ error: 'invalid_grant', error_description: 'Session not active' }, 400)) as unknown as typeof globalThis.fetch;
    const session = new WebSession(provider, null, fetch, () => 10_000);
    session.signIn(tokens(0, 3_000));
    const ended = await session.bearer().catch((e) => e);
    expect(ended).toBeInstanceOf(SignInEnded);
    expect(ended.message).toContain('Session not active');
    expect(session.signedIn).toBe(false);
    expect(sessionStorage.getItem('search-studio.sign-in')).toBeNull();
  });

  test('an unreachable provider is an error of its own, and the tokens are kept for the next try', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch;
    const session = new WebSession(provider, null, fetch, () => 10_000);
    session.signIn(tokens(0, 3_000));
    const failure = await session.bearer().catch((e) => e);
    expect([failure.name, failure.kind]).toEqual(['GrantError', 'unreachable']);
    expect(session.signedIn).toBe(true);
  });
});

// The tokens of a provider sign-in in the web build (docs/architecture.md, Sign-in and token life), kept as the Rust client
// keeps them (crates/remote/src/session.rs and oidc/grant.rs): the access token is renewed with the refresh
// token when a quarter of its life (at most 30 s) is left, and once more when the server refuses it; requests
// that find it expiring wait for the same renewal. When the provider refuses the refresh token (its session
// ended) the session says so with `SignInEnded`, and the HTTP backend asks the designer to sign in again.
// The tokens live in the tab's sessionStorage (docs/security.md); nothing here logs or shows one.

/** What a grant gave, with its times in milliseconds since the epoch. */
export interface Tokens {
  accessToken: string;
  /** When the access token expires; null when the provider did not say. */
  expiresAt: number | null;
  /** How long it was given for, which decides how early it is renewed. */
  lifetime: number | null;
  refreshToken: string | null;
  /** When the refresh token expires; null when the provider did not say. */
  refreshExpiresAt: number | null;
}

/** The longest time before expiry at which an access token is renewed. */
export const MAX_RENEWAL_MARGIN_MS = 30_000;

/**
 * Whether the access token should be renewed before it is used at `now`: it is missing, expired, or within
 * a quarter of its lifetime (at most 30 s) of expiring.
 */
export function needsRenewal(tokens: Tokens, now: number): boolean {
  if (!tokens.accessToken) return true;
  if (tokens.expiresAt === null) return false;
  const margin = tokens.lifetime === null ? MAX_RENEWAL_MARGIN_MS : Math.min(tokens.lifetime / 4, MAX_RENEWAL_MARGIN_MS);
  return tokens.expiresAt - now <= margin;
}

/** The refresh token, while it has not expired at `now`. */
export function usableRefreshToken(tokens: Tokens, now: number): string | null {
  if (!tokens.refreshToken) return null;
  return tokens.refreshExpiresAt !== null && tokens.refreshExpiresAt <= now ? null : tokens.refreshToken;
}

/** Why a grant failed: the provider refused it (`invalid_grant`), answered otherwise, or was not reached. */
export class GrantError extends Error {
  readonly kind: 'refused' | 'failed' | 'unreachable';
  constructor(kind: GrantError['kind'], message: string) {
    super(message);
    this.name = 'GrantError';
    this.kind = kind;
  }
}

/** The sign-in has ended (or there is none): only signing in again gives a token. */
export class SignInEnded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInEnded';
  }
}

const positiveSeconds = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value * 1000 : null);

/** The `exp` of an access token that is a JWT (read, not verified: only the server checks it). */
function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const text = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    return positiveSeconds((JSON.parse(text) as { exp?: unknown }).exp);
  } catch {
    return null;
  }
}

/** The tokens of a token endpoint's answer (RFC 6749 §5.1, with Keycloak's `refresh_expires_in`) to a request sent at `started`. */
export function tokensOfAnswer(answer: Record<string, unknown>, started: number): Tokens {
  const accessToken = typeof answer.access_token === 'string' ? answer.access_token : '';
  if (!accessToken) throw new GrantError('failed', 'its token endpoint answered without an access token');
  if (typeof answer.token_type === 'string' && answer.token_type.toLowerCase() !== 'bearer') {
    throw new GrantError('failed', `it gave a token of type "${answer.token_type}", not a bearer token`);
  }
  // A JWT's own `exp` is whole seconds and can be up to a second earlier than `expires_in` counted from the
  // request: whichever comes first is when the token expires.
  const expiresIn = positiveSeconds(answer.expires_in);
  const candidates = [expiresIn === null ? null : started + expiresIn, jwtExpiry(accessToken)].filter((t): t is number => t !== null);
  const expiresAt = candidates.length ? Math.min(...candidates) : null;
  const refreshIn = positiveSeconds(answer.refresh_expires_in);
  return {
    accessToken,
    expiresAt,
    lifetime: expiresAt === null ? null : Math.max(0, expiresAt - started),
    refreshToken: typeof answer.refresh_token === 'string' && answer.refresh_token ? answer.refresh_token : null,
    refreshExpiresAt: refreshIn === null ? null : started + refreshIn,
  };
}

/** Sends one grant of public client `clientId` (form-encoded, no secret) to a token endpoint. */
export async function grant(tokenEndpoint: string, clientId: string, form: Record<string, string>, doFetch: typeof fetch): Promise<Tokens> {
  const started = Date.now();
  const host = new URL(tokenEndpoint).host;
  let response: Response;
  let text: string;
  try {
    response = await doFetch(tokenEndpoint, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, client_id: clientId }).toString(),
    });
    text = await response.text();
  } catch (e) {
    throw new GrantError('unreachable', `the sign-in provider ${host} could not be reached: ${(e as Error).message ?? e}`);
  }
  let body: Record<string, unknown> | null = null;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) body = value as Record<string, unknown>;
  } catch {
    /* not JSON: said below */
  }
  if (!response.ok) {
    const error = typeof body?.error === 'string' ? body.error : null;
    if (!error) throw new GrantError('failed', `the sign-in provider ${host} answered HTTP ${response.status} without an OAuth error`);
    const description = typeof body?.error_description === 'string' && body.error_description.trim() ? body.error_description : error;
    throw new GrantError(error === 'invalid_grant' ? 'refused' : 'failed', `${description} (${error}, HTTP ${response.status})`);
  }
  if (!body) throw new GrantError('failed', `the sign-in provider ${host} answered something that is not a token answer`);
  return tokensOfAnswer(body, started);
}

/** Where a sign-in's tokens are renewed: the provider's token endpoint and the client they were given to. */
export interface SessionProvider {
  /** The provider's discovery document, which names it (and tells one provider from another). */
  discoveryUrl: string;
  clientId: string;
  tokenEndpoint: string;
}

const STORAGE_KEY = 'search-studio.sign-in';

interface StoredSession {
  provider: SessionProvider;
  tokens: Tokens;
}

/** One provider sign-in of this tab: its tokens, renewed as they expire. */
export class WebSession {
  readonly provider: SessionProvider;
  #tokens: Tokens | null;
  #renewing: Promise<string> | null = null;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;

  constructor(provider: SessionProvider, tokens: Tokens | null, doFetch: typeof fetch, now: () => number = Date.now) {
    this.provider = provider;
    this.#tokens = tokens;
    this.#fetch = doFetch;
    this.#now = now;
  }

  /** The sign-in this tab kept, if any. */
  static restore(doFetch: typeof fetch, now?: () => number): WebSession | null {
    try {
      const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as StoredSession | null;
      if (!stored?.provider?.tokenEndpoint || !stored.tokens?.accessToken) return null;
      return new WebSession(stored.provider, stored.tokens, doFetch, now);
    } catch {
      return null;
    }
  }

  get signedIn(): boolean {
    return this.#tokens !== null;
  }

  /** Whether `sent` is the access token this session holds now. */
  holds(sent: string): boolean {
    return this.#tokens?.accessToken === sent;
  }

  /** Takes the tokens of a new sign-in. */
  signIn(tokens: Tokens): void {
    this.#store(tokens);
  }

  /** Forgets the tokens (here and in the tab's storage). */
  forget(): void {
    this.#tokens = null;
    try {
      sessionStorage.removeItem(STORAGE_KEY);
    } catch {
      /* storage unavailable: nothing was kept */
    }
  }

  /** An access token that is valid now, renewed first when it is about to expire. */
  async bearer(): Promise<string> {
    const tokens = this.#tokens;
    if (tokens && !needsRenewal(tokens, this.#now())) return tokens.accessToken;
    return this.#renew();
  }

  /** The server refused `sent`: renews the token (unless another request already did) and returns the new one. */
  async rejected(sent: string): Promise<string> {
    const tokens = this.#tokens;
    if (tokens && tokens.accessToken !== sent && !needsRenewal(tokens, this.#now())) return tokens.accessToken;
    return this.#renew();
  }

  /** One renewal at a time: every request that needs one waits for the same. */
  #renew(): Promise<string> {
    this.#renewing ??= this.#refresh().finally(() => (this.#renewing = null));
    return this.#renewing;
  }

  async #refresh(): Promise<string> {
    const host = new URL(this.provider.discoveryUrl).host;
    const refresh = this.#tokens && usableRefreshToken(this.#tokens, this.#now());
    if (!refresh) {
      this.forget();
      throw new SignInEnded(`there is no valid sign-in with ${host}`);
    }
    let fresh: Tokens;
    try {
      fresh = await grant(this.provider.tokenEndpoint, this.provider.clientId, { grant_type: 'refresh_token', refresh_token: refresh }, this.#fetch);
    } catch (e) {
      if (e instanceof GrantError && e.kind === 'refused') {
        this.forget();
        throw new SignInEnded(`the session with ${host} has ended (${e.message})`);
      }
      throw e;
    }
    // A provider that does not rotate refresh tokens answers without one: the old one stays valid.
    this.#store({ ...fresh, refreshToken: fresh.refreshToken ?? refresh, refreshExpiresAt: fresh.refreshToken ? fresh.refreshExpiresAt : this.#tokens?.refreshExpiresAt ?? null });
    return fresh.accessToken;
  }

  #store(tokens: Tokens): void {
    this.#tokens = tokens;
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ provider: this.provider, tokens } satisfies StoredSession));
    } catch {
      /* storage unavailable: the sign-in lives in memory only */
    }
  }
}

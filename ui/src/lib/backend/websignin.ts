// Signing in to `studio serve` through its OpenID Connect provider from the web build: the authorization code
// with PKCE (RFC 7636, S256) in a popup window, so that the editor and everything typed in it stay as they are.
// The server names the provider and the web UI's public client in its /api-docs (an `openIdConnect` security
// scheme with `x-search-studio-client-id`, docs/choices.md). The provider sends the popup back to
// ORIGIN/signed-in, where the app hands `code` and `state` to its opener (same origin only) and closes; the
// opener checks `state` and exchanges the code for tokens itself, so the PKCE verifier never leaves its memory.
import { grant, type SessionProvider, type Tokens } from './webtokens';

import { SIGNED_IN_PATH } from './signedin';

export { SIGNED_IN_PATH };
/** Tells the popup's message from any other a window may receive. */
const MESSAGE_TYPE = 'search-studio.signed-in';
/** The OpenAPI extension of the security scheme that names the web UI's client. */
const CLIENT_ID_EXTENSION = 'x-search-studio-client-id';

/** The provider sign-in a server offers its web UI. */
export interface WebSignInScheme {
  /** `ISSUER/.well-known/openid-configuration`. */
  discoveryUrl: string;
  clientId: string;
  /** The provider's host, as the sign-in button names it. */
  host: string;
}

/** The provider sign-in an OpenAPI document names: an `openIdConnect` scheme carrying the web UI's client id. */
export function signInInDocument(document: unknown): WebSignInScheme | null {
  const schemes = (document as { components?: { securitySchemes?: unknown } } | null)?.components?.securitySchemes;
  if (!schemes || typeof schemes !== 'object') return null;
  for (const scheme of Object.values(schemes as Record<string, unknown>)) {
    const s = scheme as Record<string, unknown> | null;
    if (s?.type !== 'openIdConnect' || typeof s.openIdConnectUrl !== 'string') continue;
    const clientId = s[CLIENT_ID_EXTENSION];
    if (typeof clientId !== 'string' || !clientId.trim()) continue;
    try {
      const url = new URL(s.openIdConnectUrl);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
      return { discoveryUrl: url.href, clientId: clientId.trim(), host: url.host };
    } catch {
      continue;
    }
  }
  return null;
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A random string of 32 bytes in base64url: 43 characters, as a PKCE verifier or a `state`. */
export function randomValue(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The S256 challenge of a PKCE verifier: base64url(SHA-256(verifier)). */
export async function challengeOf(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** The endpoints of a provider that its discovery document names. */
export interface ProviderEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
}

/** Reads the provider's discovery document. */
export async function discover(scheme: WebSignInScheme, doFetch: typeof fetch): Promise<ProviderEndpoints> {
  let document: Record<string, unknown>;
  try {
    const response = await doFetch(scheme.discoveryUrl, { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`its discovery document was answered HTTP ${response.status}`);
    document = await response.json();
  } catch (e) {
    throw new Error(`the sign-in provider ${scheme.host} could not be read: ${(e as Error).message ?? e}`);
  }
  const endpoint = (key: string) => {
    const value = document?.[key];
    if (typeof value !== 'string' || !/^https?:\/\//.test(value)) throw new Error(`the sign-in provider ${scheme.host} names no ${key}`);
    return value;
  };
  // OpenID Connect Discovery §4.3: the document must name the issuer it was fetched for.
  const issuer = scheme.discoveryUrl.replace(/\/\.well-known\/openid-configuration$/, '');
  if (typeof document?.issuer !== 'string' || document.issuer.replace(/\/$/, '') !== issuer.replace(/\/$/, '')) {
    throw new Error(`the sign-in provider ${scheme.host} describes another issuer than ${issuer}`);
  }
  return { authorizationEndpoint: endpoint('authorization_endpoint'), tokenEndpoint: endpoint('token_endpoint') };
}

/** Where the popup goes: the authorization request of RFC 6749 §4.1.1 with PKCE. */
export function authorizationUrl(endpoint: string, p: { clientId: string; redirectUri: string; state: string; challenge: string }): string {
  const url = new URL(endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('scope', 'openid');
  url.searchParams.set('state', p.state);
  url.searchParams.set('code_challenge', p.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.href;
}

/** What the popup hands over: the provider's `code`, or its `error`. */
export type SignInCallback = { code: string } | { error: string };

/**
 * The popup's message, when it is one: from this origin, of our type and with the `state` this sign-in sent.
 * Anything else (another origin's message, a stale or forged state) is ignored: null.
 */
export function readSignInMessage(event: { origin: string; data: unknown }, expected: { origin: string; state: string }): SignInCallback | null {
  if (event.origin !== expected.origin) return null;
  const data = event.data as Record<string, unknown> | null;
  if (!data || typeof data !== 'object' || data.type !== MESSAGE_TYPE || data.state !== expected.state) return null;
  if (typeof data.code === 'string' && data.code) return { code: data.code };
  const error = typeof data.error === 'string' && data.error ? data.error : 'the provider sent no code';
  const description = typeof data.errorDescription === 'string' && data.errorDescription ? `: ${data.errorDescription}` : '';
  return { error: `${error}${description}` };
}

/**
 * In the popup, at SIGNED_IN_PATH: hands the provider's answer to the opener (this origin only) and closes.
 * Returns false elsewhere, so that the app starts as usual.
 */
export function handOverSignIn(win: Window = window): boolean {
  if (win.location.pathname !== SIGNED_IN_PATH) return false;
  const params = new URLSearchParams(win.location.search);
  const message = {
    type: MESSAGE_TYPE,
    state: params.get('state'),
    code: params.get('code'),
    error: params.get('error'),
    errorDescription: params.get('error_description'),
  };
  const opener = win.opener as Window | null;
  if (opener && !opener.closed) {
    opener.postMessage(message, win.location.origin);
    win.close();
  }
  // Opened some other way (or the editor's tab is gone): nothing to hand over to.
  win.document.body.textContent = 'This window was opened to sign in to Search Studio. You can close it.';
  return true;
}

/** Why a sign-in did not finish. `cancelled`: the designer closed the popup or the dialog. */
export class SignInFailed extends Error {
  readonly cancelled: boolean;
  constructor(message: string, cancelled = false) {
    super(message);
    this.name = 'SignInFailed';
    this.cancelled = cancelled;
  }
}

/** Waits for the popup's message with `state`; rejects when the popup closes first or `signal` aborts. */
export function waitForCallback(win: Window, popup: Window, state: string, signal?: AbortSignal): Promise<SignInCallback> {
  return new Promise((resolve, reject) => {
    const done = () => {
      win.removeEventListener('message', onMessage);
      clearInterval(watch);
      signal?.removeEventListener('abort', onAbort);
    };
    const onMessage = (event: MessageEvent) => {
      const callback = readSignInMessage(event, { origin: win.location.origin, state });
      if (!callback) return;
      done();
      resolve(callback);
    };
    const onAbort = () => {
      done();
      reject(new SignInFailed('the sign-in was cancelled', true));
    };
    // A popup closed without an answer is a sign-in given up (polled: no event says so across origins).
    const watch = setInterval(() => {
      if (!popup.closed) return;
      // Its message may still be queued behind the close: give it one more turn of the event loop.
      setTimeout(() => {
        done();
        reject(new SignInFailed('the sign-in window was closed before signing in', true));
      }, 0);
      clearInterval(watch);
    }, 300);
    win.addEventListener('message', onMessage);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort);
  });
}

/**
 * Signs in through the provider in a popup and returns the tokens with where to renew them. Call it from the
 * click that asks for it: the popup is opened before anything is awaited, so browsers do not block it.
 */
export async function signInWithPopup(
  scheme: WebSignInScheme,
  options: { fetch: typeof fetch; window?: Window; signal?: AbortSignal },
): Promise<{ provider: SessionProvider; tokens: Tokens }> {
  const win = options.window ?? window;
  const popup = win.open('about:blank', 'search-studio-sign-in', 'popup,width=520,height=680');
  if (!popup) throw new SignInFailed('the browser blocked the sign-in window: allow pop-ups for this page and try again');
  try {
    const endpoints = await discover(scheme, options.fetch);
    const verifier = randomValue();
    const state = randomValue();
    const redirectUri = `${win.location.origin}${SIGNED_IN_PATH}`;
    const challenge = await challengeOf(verifier);
    const answer = waitForCallback(win, popup, state, options.signal);
    popup.location.href = authorizationUrl(endpoints.authorizationEndpoint, { clientId: scheme.clientId, redirectUri, state, challenge });
    const callback = await answer;
    if ('error' in callback) throw new SignInFailed(`${scheme.host} did not sign you in (${callback.error})`);
    const form = { grant_type: 'authorization_code', code: callback.code, code_verifier: verifier, redirect_uri: redirectUri };
    const tokens = await grant(endpoints.tokenEndpoint, scheme.clientId, form, options.fetch);
    return { provider: { discoveryUrl: scheme.discoveryUrl, clientId: scheme.clientId, tokenEndpoint: endpoints.tokenEndpoint }, tokens };
  } catch (e) {
    throw e instanceof SignInFailed ? e : new SignInFailed((e as Error).message ?? String(e));
  } finally {
    if (!popup.closed) popup.close();
  }
}

// One Keycloak-shaped realm at `/realms/<name>`: routes requests to the provider, the sign-in page and
// the userinfo endpoint, and carries out the two test controls (end every session; rotate the signing
// key). Rotating rebuilds the provider with the new key first and the old ones still published; the
// store is kept, so sessions, grants and refresh tokens live on.

import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';

import { createProvider, ROUTES } from './provider.mjs';
import { loginActions } from './login-page.mjs';
import { Store } from './store.mjs';
import { userinfo } from './userinfo.mjs';

function newSigningKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };
}

const publicPart = ({ kty, n, e, kid, use, alg }) => ({ kty, n, e, kid, use, alg });

// Everything a session leaves behind; forgetting it is what an ended Keycloak session amounts to.
const SESSION_MODELS = ['Session', 'Grant', 'RefreshToken', 'AuthorizationCode', 'Interaction'];

export class Realm {
  #store = new Store();
  #cookieKeys = [randomBytes(32).toString('base64url')];
  #keys = [newSigningKey()];
  #provider;
  #handler;

  constructor({ origin, name, settings, log }) {
    this.name = name;
    this.path = `/realms/${name}`;
    this.issuer = `${origin}${this.path}`;
    this.settings = settings;
    this.log = log;
    this.#build();
  }

  #build() {
    const provider = createProvider({
      issuer: this.issuer,
      realmPath: this.path,
      settings: this.settings,
      keys: this.#keys,
      cookieKeys: this.#cookieKeys,
      store: this.#store,
    });
    provider.on('server_error', (ctx, error) => this.log('server error:', error.stack ?? error));
    provider.on('grant.error', (ctx, error) => this.log('grant error:', error.message, error.error_detail ?? ''));
    this.#provider = provider;
    this.#handler = provider.callback();
  }

  /** Ends every session: the next refresh of any refresh token fails with invalid_grant. */
  revokeSessions() {
    this.#store.clear(SESSION_MODELS);
    this.log('every session ended');
  }

  /** Adds a signing key that signs from now on; the earlier keys stay published at /certs. */
  rotateKeys() {
    this.#keys = [newSigningKey(), ...this.#keys];
    this.#build();
    this.log(`signing key ${this.#keys[0].kid} added (${this.#keys.length} published)`);
  }

  /** Whether a request path belongs to this realm. */
  owns(pathname) {
    return pathname === this.path || pathname.startsWith(`${this.path}/`);
  }

  /** Answers a request whose path belongs to this realm. */
  async handle(req, res, pathname) {
    const local = pathname.slice(this.path.length) || '/';
    if (local.startsWith('/login-actions/')) {
      await loginActions(this.#provider, this.name, req, res);
      return;
    }
    if (local === ROUTES.userinfo) {
      userinfo(req, res, { keys: this.#keys.map(publicPart), issuer: this.issuer });
      return;
    }
    // Mounted as Express would mount it: the provider sees the path below the realm and learns the
    // mount point from originalUrl.
    req.originalUrl = req.url;
    req.url = req.url.slice(this.path.length) || '/';
    this.#handler(req, res);
  }
}

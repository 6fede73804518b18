// The oidc-provider instance of the test realm, configured to look like a Keycloak realm: Keycloak's
// endpoint paths, JWT access tokens with Keycloak's claims (azp, typ, preferred_username, groups), a
// refresh token with every token answer but the client credentials grant's, Keycloak's extra answer
// fields, consent granted without asking, as Keycloak does for a realm's own clients, and service
// accounts: a client credentials token names the client's `service-account-<client id>` user and its
// groups, for the realm's audience.

import Provider, { errors } from 'oidc-provider';

import { CLAIMS_BY_SCOPE, CLIENTS, serviceAccount, userBySub, userClaims } from './directory.mjs';
import { registerPasswordGrant } from './password-grant.mjs';

/** The one API the realm's access tokens are for; its `aud` is the --audience value. */
export const API_RESOURCE = 'urn:studio:api';

/** Scopes an access token of the API carries (as Keycloak writes them into `scope`). */
export const API_SCOPES = 'openid profile email';

export const ROUTES = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  jwks: '/protocol/openid-connect/certs',
  userinfo: '/protocol/openid-connect/userinfo',
  end_session: '/protocol/openid-connect/logout',
  revocation: '/protocol/openid-connect/revoke',
  introspection: '/protocol/openid-connect/token/introspect',
};

const loopbackOrigin = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

/**
 * Builds the provider. `keys` are private JWKs, the newest first (it signs); `store` outlives the
 * instance so that a rebuild with new keys keeps every session and token.
 */
export function createProvider({ issuer, realmPath, settings, keys, cookieKeys, store }) {
  const { accessTtl, refreshTtl, audience } = settings;

  const resourceServer = (ctx, resource) => {
    if (resource !== API_RESOURCE) throw new errors.InvalidTarget();
    return {
      scope: API_SCOPES,
      audience,
      accessTokenTTL: accessTtl,
      accessTokenFormat: 'jwt',
      jwt: { sign: { alg: 'RS256' } },
    };
  };

  const configuration = {
    adapter: (model) => store.adapter(model),
    clients: CLIENTS,
    jwks: { keys },
    cookies: { keys: cookieKeys },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    responseTypes: ['code'],
    claims: CLAIMS_BY_SCOPE,
    routes: ROUTES,
    pkce: {
      // Public clients must use PKCE (S256, the only method offered); `ppt` may.
      required: (ctx, client) => client.clientAuthMethod === 'none',
    },
    ttl: {
      AccessToken: accessTtl,
      AuthorizationCode: 60,
      IdToken: accessTtl,
      Interaction: 600,
      RefreshToken: refreshTtl,
      Grant: 24 * 3600,
      Session: 24 * 3600,
    },
    // Keycloak answers a refresh token with every token, and a new one on every refresh.
    issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    async findAccount(ctx, sub) {
      const user = userBySub(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: async () => userClaims(user) };
    },
    // Consent is given without asking, for everything the client asked for.
    async loadExistingGrant(ctx) {
      const { provider, client, session, result } = ctx.oidc;
      const grantId = result?.consent?.grantId || session.grantIdFor(client.clientId);
      const grant = (grantId && await provider.Grant.find(grantId))
        || new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
      grant.addOIDCClaims(Object.values(CLAIMS_BY_SCOPE).flat());
      for (const resource of Object.keys(ctx.oidc.resourceServers ?? {})) {
        grant.addResourceScope(resource, API_SCOPES);
      }
      await grant.save();
      return grant;
    },
    interactions: {
      url: (ctx, interaction) => `${realmPath}/login-actions/${interaction.uid}`,
    },
    clientBasedCORS: (ctx, origin) => loopbackOrigin.test(origin),
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => API_RESOURCE,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx, resource) => resourceServer(ctx, resource),
      },
    },
    formats: {
      customizers: {
        // Keycloak's access token: header typ "JWT"; azp instead of client_id; typ "Bearer"; the user's
        // name and group paths.
        async jwt(ctx, token, jwt) {
          jwt.header = { typ: 'JWT' };
          const { payload } = jwt;
          payload.nbf = payload.iat;
          payload.typ = 'Bearer';
          payload.azp = payload.client_id;
          delete payload.client_id;
          const user = userBySub(token.accountId);
          if (user) {
            payload.preferred_username = user.username;
            payload.groups = user.groups;
          }
          // Keycloak's service account token: its own subject, its user name, its groups, and the client.
          const account = token.kind === 'ClientCredentials' && serviceAccount(token.clientId);
          if (account) {
            payload.sub = account.sub;
            payload.preferred_username = account.username;
            payload.groups = account.groups;
            payload.client_id = token.clientId;
          }
        },
      },
    },
  };

  const provider = new Provider(issuer, configuration);
  registerPasswordGrant(provider, {
    resource: API_RESOURCE,
    resourceServer: (ctx) => new provider.ResourceServer(API_RESOURCE, resourceServer(ctx, API_RESOURCE)),
    scopes: configuration.scopes,
  });
  provider.use(keycloakTokenAnswer(refreshTtl));
  return provider;
}

/**
 * Token answers with Keycloak's fields and their order; a client credentials grant by a client without a
 * service account is refused as Keycloak refuses it (401 unauthorized_client).
 */
function keycloakTokenAnswer(refreshTtl) {
  return async (ctx, next) => {
    await next();
    const body = ctx.body;
    if (ctx.oidc?.route !== 'token') return;
    if (ctx.oidc.params?.grant_type === 'client_credentials' && body?.error === 'invalid_request'
      && /grant type is not allowed/.test(body.error_description ?? '')) {
      ctx.status = 401;
      ctx.body = { error: 'unauthorized_client', error_description: 'Client not enabled to retrieve service account' };
      return;
    }
    if (ctx.status !== 200 || !body?.access_token) return;
    ctx.body = {
      access_token: body.access_token,
      expires_in: body.expires_in,
      refresh_expires_in: body.refresh_token ? refreshTtl : 0,
      ...(body.refresh_token ? { refresh_token: body.refresh_token } : {}),
      token_type: 'Bearer',
      ...(body.id_token ? { id_token: body.id_token } : {}),
      'not-before-policy': 0,
      scope: body.scope ?? '',
    };
  };
}

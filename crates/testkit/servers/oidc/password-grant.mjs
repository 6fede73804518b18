// Keycloak's "direct access grant" (grant_type=password) as a custom grant type: the user's name and
// password are exchanged for tokens of the same kinds the other grants give, so the refresh_token grant
// takes its refresh tokens as it takes any other. Wrong credentials answer as Keycloak does: 401
// invalid_grant "Invalid user credentials".

import { errors } from 'oidc-provider';

import { checkCredentials, userClaims } from './directory.mjs';

// Keycloak's default client scopes: given to every token whatever the request says.
const DEFAULT_SCOPES = ['profile', 'email'];

export function registerPasswordGrant(provider, { resource, resourceServer, scopes }) {
  const known = new Set(scopes);

  async function passwordGrant(ctx) {
    const { client, params } = ctx.oidc;
    for (const name of ['username', 'password']) {
      if (!params[name]) throw new errors.InvalidRequest(`Missing parameter: ${name}`);
    }
    const requested = String(params.scope ?? '').split(' ').filter(Boolean);
    const unknown = requested.filter((scope) => !known.has(scope));
    if (unknown.length) throw new errors.InvalidScope(`Invalid scopes: ${unknown.join(' ')}`, unknown.join(' '));

    const user = checkCredentials(params.username, params.password);
    if (!user) {
      ctx.status = 401;
      ctx.body = { error: 'invalid_grant', error_description: 'Invalid user credentials' };
      return;
    }

    const scope = [...new Set([...requested, ...DEFAULT_SCOPES])].join(' ');
    const grant = new provider.Grant({ accountId: user.sub, clientId: client.clientId });
    grant.addOIDCScope(scope);
    grant.addOIDCClaims(Object.keys(userClaims(user)));
    grant.addResourceScope(resource, scope);
    const grantId = await grant.save();

    const at = new provider.AccessToken({
      accountId: user.sub,
      client,
      grantId,
      gty: 'password',
      scope: grant.getResourceScopeFiltered(resource, scope.split(' ')),
      resourceServer: resourceServer(ctx),
    });
    const accessToken = await at.save();

    const rt = new provider.RefreshToken({
      accountId: user.sub,
      client,
      grantId,
      gty: 'password',
      scope,
      resource,
      rotations: 0,
      expiresWithSession: false,
    });
    const refreshToken = await rt.save();

    let idToken;
    if (requested.includes('openid')) {
      const token = new provider.IdToken(userClaims(user), { ctx });
      token.scope = scope;
      idToken = await token.issue({ use: 'idtoken' });
    }

    ctx.body = {
      access_token: accessToken,
      expires_in: at.expiration,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      ...(idToken ? { id_token: idToken } : {}),
      scope: at.scope,
    };
  }

  provider.registerGrantType('password', passwordGrant, ['username', 'password', 'scope']);
}

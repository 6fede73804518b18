// The userinfo endpoint for the realm's JWT access tokens. oidc-provider's own endpoint takes only its
// opaque tokens; Keycloak's takes the access tokens it gives out, so this one checks the token's
// signature (a key of the realm), issuer and expiry and answers the user's claims for its scopes.

import { createPublicKey, verify } from 'node:crypto';

import { CLAIMS_BY_SCOPE, userBySub, userClaims } from './directory.mjs';

function deny(res, status, error, description) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'www-authenticate': `Bearer realm="userinfo", error="${error}", error_description="${description}"`,
  });
  res.end(JSON.stringify({ error, error_description: description }));
}

function decode(part) {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** The payload of a token signed by one of `keys` (public JWKs) for `issuer`, or undefined. */
export function verifyAccessToken(token, { keys, issuer }) {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = decode(parts[0]);
    const payload = decode(parts[1]);
    const jwk = keys.find((key) => key.kid === header.kid);
    if (!jwk || header.alg !== 'RS256') return undefined;
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    const good = verify('sha256', signed, createPublicKey({ key: jwk, format: 'jwk' }), Buffer.from(parts[2], 'base64url'));
    const now = Math.floor(Date.now() / 1000);
    if (!good || payload.iss !== issuer || !(payload.exp > now)) return undefined;
    return payload;
  } catch {
    return undefined;
  }
}

export function userinfo(req, res, { keys, issuer }) {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) {
    deny(res, 401, 'invalid_request', 'Missing bearer token');
    return;
  }
  const payload = verifyAccessToken(match[1], { keys, issuer });
  const user = payload && userBySub(payload.sub);
  if (!user) {
    deny(res, 401, 'invalid_token', 'Token verification failed');
    return;
  }
  const claims = userClaims(user);
  const released = new Set(['sub']);
  for (const scope of String(payload.scope ?? '').split(' ')) {
    for (const claim of CLAIMS_BY_SCOPE[scope] ?? []) released.add(claim);
  }
  const body = Object.fromEntries(Object.entries(claims).filter(([claim]) => released.has(claim)));
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

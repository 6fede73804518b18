// Who the test realm knows: its users (with Keycloak-style group paths) and its clients, the
// confidential `ppt` of the production server's documentation, the confidential `studio-pipeline` that
// signs in as itself (a service account), the public desktop client and the public client of the web UI
// that `studio serve` serves.

import { timingSafeEqual } from 'node:crypto';

export const USERS = [
  {
    username: 'ana',
    password: 'ana-password',
    sub: '6f1c2a9e-1b0d-4c47-9a51-0000000000a1',
    name: 'Ana Designer',
    email: 'ana@studio.test',
    groups: ['/designers'],
  },
  {
    username: 'bob',
    password: 'bob-password',
    sub: '6f1c2a9e-1b0d-4c47-9a51-0000000000b2',
    name: 'Bob Viewer',
    email: 'bob@studio.test',
    groups: ['/viewers'],
  },
  {
    username: 'cy',
    password: 'cy-password',
    sub: '6f1c2a9e-1b0d-4c47-9a51-0000000000c3',
    name: 'Cy Nogroup',
    email: 'cy@studio.test',
    groups: [],
  },
];

const bySub = new Map(USERS.map((user) => [user.sub, user]));
const byName = new Map(USERS.map((user) => [user.username, user]));

/** The user with this subject, or undefined. */
export function userBySub(sub) {
  return bySub.get(sub);
}

/** The user whose username and password these are, or undefined. */
export function checkCredentials(username, password) {
  const user = byName.get(String(username ?? ''));
  if (!user) return undefined;
  const given = Buffer.from(String(password ?? ''));
  const known = Buffer.from(user.password);
  return given.length === known.length && timingSafeEqual(given, known) ? user : undefined;
}

/** The claims of a user, by the scope that releases them (see `CLAIMS_BY_SCOPE`). */
export function userClaims(user) {
  const [givenName, familyName] = user.name.split(' ');
  return {
    sub: user.sub,
    preferred_username: user.username,
    name: user.name,
    given_name: givenName,
    family_name: familyName,
    email: user.email,
    email_verified: true,
    groups: user.groups,
  };
}

// The service accounts of the clients that may use the client credentials grant. Keycloak gives each such
// client a user `service-account-<client id>`, which a realm administrator can put in groups like any user;
// its tokens then carry those groups.
const SERVICE_ACCOUNTS = new Map([
  ['studio-pipeline', { sub: '6f1c2a9e-1b0d-4c47-9a51-0000000000d4', groups: ['/pipelines'] }],
]);

/** The service account of a client, as its tokens name it, or undefined. */
export function serviceAccount(clientId) {
  const account = SERVICE_ACCOUNTS.get(clientId);
  if (!account) return undefined;
  return { ...account, username: `service-account-${clientId}` };
}

export const CLAIMS_BY_SCOPE = {
  openid: ['sub', 'groups'],
  profile: ['preferred_username', 'name', 'given_name', 'family_name'],
  email: ['email', 'email_verified'],
};

// A native application's loopback redirect may use any port (RFC 8252 §7.3); oidc-provider ignores the
// port of a loopback redirect URI for clients of application_type "native".
const LOOPBACK_REDIRECTS = ['http://127.0.0.1/callback'];

// The web UI's page at ORIGIN/signed-in, where `studio serve` listens on loopback on any port. It is
// registered as "native" only because that is how oidc-provider lets a loopback redirect's port vary; it
// is a browser application all the same: a public client, PKCE required, its token requests sent from the
// page's loopback origin, which the realm's CORS rule (provider.mjs) allows.
const WEB_UI_REDIRECTS = ['http://127.0.0.1/signed-in', 'http://localhost/signed-in'];

export const CLIENTS = [
  {
    client_id: 'ppt',
    client_secret: 'ppt-secret',
    application_type: 'native',
    // Either way of sending the secret is accepted (client_secret_basic and client_secret_post).
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['password', 'refresh_token', 'authorization_code'],
    response_types: ['code'],
    redirect_uris: LOOPBACK_REDIRECTS,
  },
  {
    // A pipeline's client: confidential, the client credentials grant only (Keycloak: "Client
    // authentication" and "Service accounts roles" on, every other flow off).
    client_id: 'studio-pipeline',
    client_secret: 'studio-pipeline-secret',
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
  },
  {
    client_id: 'studio-desktop',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token', 'password'],
    response_types: ['code'],
    redirect_uris: LOOPBACK_REDIRECTS,
  },
  {
    client_id: 'studio-web',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: WEB_UI_REDIRECTS,
  },
];

#!/usr/bin/env node
// An OpenID Connect provider shaped like a Keycloak realm, on loopback, for tests: the certified
// oidc-provider package behind Keycloak's paths, users, clients, tokens and password grant.
//
//   node oidc-provider.mjs [--port 0] [--realm studio] [--access-ttl 300] [--refresh-ttl 1800] [--audience account]
//
// Prints {"issuer":"http://127.0.0.1:PORT/realms/<realm>"} once it listens. Test controls (this server
// only): POST /test/revoke-sessions, POST /test/rotate-keys (both 204).

import http from 'node:http';
import { parseArgs } from 'node:util';

import { announce, exitWithParent, logger, port, positiveSeconds, usage } from './lib/lifecycle.mjs';
import { Realm } from './oidc/realm.mjs';

const log = logger('oidc-provider');

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      realm: { type: 'string', default: 'studio' },
      'access-ttl': { type: 'string', default: '300' },
      'refresh-ttl': { type: 'string', default: '1800' },
      audience: { type: 'string', default: 'account' },
    },
  }));
} catch (error) {
  usage(error.message);
}
if (!/^[A-Za-z0-9_-]+$/.test(args.realm)) usage(`--realm wants letters, digits, - or _, not "${args.realm}"`);

const settings = {
  accessTtl: positiveSeconds('access-ttl', args['access-ttl']),
  refreshTtl: positiveSeconds('refresh-ttl', args['refresh-ttl']),
  audience: args.audience,
};

let realm;

function notFound(res) {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'Unable to find matching target resource method' }));
}

async function testControl(req, res, pathname) {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' });
    res.end();
    return;
  }
  if (pathname === '/test/revoke-sessions') realm.revokeSessions();
  else if (pathname === '/test/rotate-keys') realm.rotateKeys();
  else return notFound(res);
  res.writeHead(204);
  res.end();
}

const server = http.createServer(async (req, res) => {
  try {
    const { pathname } = new URL(req.url, 'http://127.0.0.1');
    if (!realm) {
      res.writeHead(503);
      res.end();
    } else if (pathname.startsWith('/test/')) {
      await testControl(req, res, pathname);
    } else if (realm.owns(pathname)) {
      await realm.handle(req, res, pathname);
    } else {
      notFound(res);
    }
  } catch (error) {
    log('request failed:', error.stack ?? error);
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'server_error', error_description: 'the test provider failed' }));
    } else {
      res.destroy();
    }
  }
});

server.on('error', (error) => {
  log('cannot listen:', error.message);
  process.exit(1);
});

server.listen(port(args.port), '127.0.0.1', () => {
  const origin = `http://127.0.0.1:${server.address().port}`;
  realm = new Realm({ origin, name: args.realm, settings, log });
  announce({ issuer: realm.issuer });
  log(`realm ${realm.issuer} ready (access tokens ${settings.accessTtl} s, refresh tokens ${settings.refreshTtl} s, audience ${settings.audience})`);
});

exitWithParent(() => new Promise((resolve) => {
  server.close(resolve);
  server.closeAllConnections();
}));

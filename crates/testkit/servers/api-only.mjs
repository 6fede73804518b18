#!/usr/bin/env node
// A double of a team's production server of the API (a Spring application): it offers the API's nine
// operations (forwarded to a `studio serve`) and only the extensions it is told to, answers everything
// else with Spring Boot's default errors, and publishes an OpenAPI 2.0 document at /api-docs.
//
//   node api-only.mjs --upstream URL [--port 0] [--openapi v2|none] [--offer set,visible,logs] [--ui-dir DIR]
//                     [--unstorable-results 104,108] [--failing-searches 1200:3]
//
// --unstorable-results: the search results at these places (from 1, over the whole search) are sent with an empty
// id, as a production server holding such a document would, which a store of this project does not take.
// --failing-searches START:TIMES: the first TIMES searches for the page at START answer 500, as a server failing for a
// while does.
//
// Prints {"url":"http://127.0.0.1:PORT"} once it listens. Node built-ins only.

import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { announce, exitWithParent, logger, port, usage } from './lib/lifecycle.mjs';
import { forward } from './api-only/forward.mjs';
import { apiDocs, OFFERABLE } from './api-only/openapi-v2.mjs';
import { decide } from './api-only/routes.mjs';
import { sendError, sendJson } from './api-only/spring.mjs';
import { serveUi, upstreamSecurityHeaders } from './api-only/ui-files.mjs';

const log = logger('api-only');

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      upstream: { type: 'string' },
      port: { type: 'string', default: '0' },
      openapi: { type: 'string', default: 'v2' },
      offer: { type: 'string', default: '' },
      'ui-dir': { type: 'string' },
      'unstorable-results': { type: 'string', default: '' },
      'failing-searches': { type: 'string' },
    },
  }));
} catch (error) {
  usage(error.message);
}

let upstream;
try {
  upstream = new URL(args.upstream ?? '').href.replace(/\/$/, '');
} catch {
  usage('--upstream wants the URL of a `studio serve`');
}
if (!['v2', 'none'].includes(args.openapi)) usage(`--openapi wants v2 or none, not "${args.openapi}"`);
const offered = new Set(args.offer.split(',').map((name) => name.trim()).filter(Boolean));
for (const name of offered) {
  if (!OFFERABLE.includes(name)) usage(`--offer knows ${OFFERABLE.join(', ')}, not "${name}"`);
}
const uiDir = args['ui-dir'];
const unstorable = new Set(args['unstorable-results'].split(',').filter(Boolean).map(Number));
for (const place of unstorable) {
  if (!Number.isInteger(place) || place < 1) usage(`--unstorable-results wants places from 1, not "${args['unstorable-results']}"`);
}
const failing = args['failing-searches']?.split(':');
if (failing !== undefined && (failing.length !== 2 || !failing.every((n) => /^\d+$/.test(n)))) {
  usage(`--failing-searches wants START:TIMES, not "${args['failing-searches']}"`);
}
const failingSearches = failing && { start: Number(failing[0]), left: Number(failing[1]) };
if (uiDir !== undefined && !existsSync(join(uiDir, 'index.html'))) usage(`--ui-dir ${uiDir} has no index.html`);

let uiHeaders = {};
if (uiDir !== undefined) {
  try {
    uiHeaders = await upstreamSecurityHeaders(upstream);
  } catch (error) {
    log(`cannot learn the upstream's security headers: ${error.cause?.message ?? error.message}`);
    process.exit(1);
  }
}

async function handle(req, res) {
  const { pathname } = new URL(req.url, 'http://127.0.0.1');
  if (pathname === '/api-docs' && args.openapi === 'v2' && req.method === 'GET') {
    sendJson(res, 200, apiDocs({ offer: [...offered], host: req.headers.host ?? '127.0.0.1' }));
    return;
  }
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    const decision = decide(req.method, pathname, offered);
    if (decision.forward) {
      await forward(req, res, { upstream, pathname, log, unstorable, failingSearches });
    } else {
      sendError(res, decision.status, pathname, decision.allow ? { headers: { allow: decision.allow } } : {});
    }
    return;
  }
  const uiPath = pathname !== '/api-docs';
  if (uiDir !== undefined && uiPath && await serveUi(req, res, { dir: uiDir, pathname, headers: uiHeaders })) return;
  sendError(res, 404, pathname);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((error) => {
    log('request failed:', error.stack ?? error);
    if (!res.headersSent) sendError(res, 500, req.url.split('?')[0]);
    else res.destroy();
  });
});

server.on('error', (error) => {
  log('cannot listen:', error.message);
  process.exit(1);
});

server.listen(port(args.port), '127.0.0.1', () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  announce({ url });
  log(`${url} in front of ${upstream}; offers ${[...offered].join(', ') || 'no extensions'}; /api-docs ${args.openapi}${uiDir ? `; UI from ${uiDir}` : ''}`);
});

exitWithParent(() => new Promise((resolve) => {
  server.close(resolve);
  server.closeAllConnections();
}));

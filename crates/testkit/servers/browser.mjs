#!/usr/bin/env node
// Stands in for the system browser in sign-in tests: opens an authorization URL with a cookie jar,
// fills in and posts the sign-in form, follows redirects until one leads to the loopback redirect URI
// named in the authorization URL, then opens that (a GET, as a browser does), prints its status and
// exits 0. Any other end (an error page, the form shown again, no answer) exits non-zero with a message.
//
//   node browser.mjs AUTHORIZE_URL [--username ana] [--password ana-password]
//
// Started by xdg-open as $BROWSER it gets the URL alone; the user then comes from
// STUDIO_TEST_BROWSER_USER and STUDIO_TEST_BROWSER_PASSWORD (default ana / ana-password).

import { parseArgs } from 'node:util';

import { CookieJar } from './lib/cookies.mjs';
import { findForm } from './lib/forms.mjs';

const STEPS = 20;
const TIMEOUT_MS = 15_000;

function fail(message) {
  process.stderr.write(`browser: ${message}\n`);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      username: { type: 'string', default: process.env.STUDIO_TEST_BROWSER_USER || 'ana' },
      password: { type: 'string', default: process.env.STUDIO_TEST_BROWSER_PASSWORD || 'ana-password' },
    },
  });
} catch (error) {
  fail(error.message);
}
const [authorizeUrl] = parsed.positionals;
if (!authorizeUrl) fail('usage: browser.mjs AUTHORIZE_URL [--username NAME] [--password PASSWORD]');

let redirectUri;
try {
  redirectUri = new URL(new URL(authorizeUrl).searchParams.get('redirect_uri') ?? '');
} catch {
  fail('the authorization URL names no valid redirect_uri');
}

const reachesRedirect = (url) => url.origin === redirectUri.origin && url.pathname === redirectUri.pathname;
const text = (html) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);

const jar = new CookieJar();
let request = { method: 'GET', url: new URL(authorizeUrl) };
let signedIn = false;

async function open({ method, url, body }) {
  const headers = { accept: 'text/html,application/xhtml+xml,*/*' };
  const cookie = jar.header(url);
  if (cookie) headers.cookie = cookie;
  if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
  let response;
  try {
    response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    fail(`${method} ${url.origin}${url.pathname} failed: ${error.cause?.message ?? error.message}`);
  }
  jar.store(url, response.headers.getSetCookie());
  return response;
}

for (let step = 0; step < STEPS; step += 1) {
  const response = await open(request);
  if (reachesRedirect(request.url)) {
    await response.arrayBuffer();
    process.stdout.write(`${response.status}\n`);
    process.exit(0);
  }

  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location) {
    await response.arrayBuffer();
    const keepsMethod = response.status === 307 || response.status === 308;
    request = keepsMethod ? { ...request, url: new URL(location, request.url) } : { method: 'GET', url: new URL(location, request.url) };
    continue;
  }

  const html = await response.text();
  const form = response.ok ? findForm(html, 'password') : undefined;
  if (!form) fail(`expected the sign-in form or a redirect, got ${response.status} from ${request.url.pathname}: ${text(html)}`);
  if (signedIn) fail(`sign-in as "${parsed.values.username}" failed, the form came back: ${text(html)}`);

  const fields = new URLSearchParams(form.fields);
  fields.set('username', parsed.values.username);
  fields.set('password', parsed.values.password);
  request = { method: form.method, url: new URL(form.action || request.url.href, request.url), body: fields.toString() };
  signedIn = true;
}

fail(`no redirect to ${redirectUri.origin}${redirectUri.pathname} after ${STEPS} steps`);

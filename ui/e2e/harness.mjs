// A small test runner for the end-to-end suite: plain Node, playwright-core driving the system's Chromium (no
// browser download), a real `studio serve` on loopback with a temporary data directory and the demo data.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const STUDIO = process.env.STUDIO_BIN ?? join(ROOT, 'target', 'debug', 'studio');
export const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

/**
 * Starts `studio serve` on a free port over a fresh data directory holding the demo data. Without `auth` it
 * makes up its token (printed on its first line); with `auth` (an auth file's contents) `token` is the token
 * of one of its users, for `api`. `args` are more arguments of `studio serve`; `imports` (`{space, file}`) are JSON
 * Lines files imported into search spaces before it starts.
 */
export async function startServer({ auth = null, token = null, args = [], imports = [] } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-'));
  execFileSync(STUDIO, ['--data-dir', dataDir, 'demo-data'], { stdio: 'pipe' });
  for (const { space, file } of imports) {
    execFileSync(STUDIO, ['--data-dir', dataDir, 'import', '--search-space', space, file], { stdio: 'pipe' });
  }
  const serveArgs = ['--data-dir', dataDir, 'serve', '--listen', '127.0.0.1:0', '--ui-dir', join(ROOT, 'ui', 'dist'), ...args];
  if (auth) {
    const authFile = join(dataDir, 'auth.json');
    writeFileSync(authFile, JSON.stringify(auth));
    serveArgs.push('--auth', authFile);
  }
  const child = spawn(STUDIO, serveArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  // However the run ends, the server goes with it.
  process.on('exit', () => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const ready = await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`studio serve did not start: ${out}${err}`)), 20000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const printed = /token: (\S+)/.exec(out)?.[1];
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if ((printed || auth) && url) {
        clearTimeout(timer);
        resolveReady({ token: printed ?? token, url });
      }
    });
    child.on('exit', (code) => reject(new Error(`studio serve exited with ${code}: ${out}${err}`)));
  });
  return {
    ...ready,
    dataDir,
    async api(method, path, body) {
      const res = await fetch(ready.url + path, {
        method,
        headers: { Authorization: `Bearer ${ready.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    stop() {
      // The data directory is thrown away: no clean exit (which would write its exit backup into it while it
      // is being removed), and the removal tried again until the process is gone.
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    },
  };
}

/**
 * Starts the Keycloak-shaped OpenID Connect provider of the tests (crates/testkit/servers/oidc-provider.mjs,
 * users ana / ana-password and others, clients ppt, studio-desktop and studio-web), with access tokens of
 * `accessTtl` seconds. It ends when this run does (its stdin closes).
 */
export async function startProvider({ accessTtl = 300 } = {}) {
  const script = join(ROOT, 'crates', 'testkit', 'servers', 'oidc-provider.mjs');
  if (!existsSync(join(ROOT, 'crates', 'testkit', 'servers', 'node_modules'))) {
    throw new Error('the test provider’s packages are missing: npm ci --prefix crates/testkit/servers');
  }
  const child = spawn(process.execPath, [script, '--access-ttl', String(accessTtl)], { stdio: ['pipe', 'pipe', 'pipe'] });
  process.on('exit', () => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const issuer = await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`oidc-provider.mjs did not start: ${err}`)), 20000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolveReady(JSON.parse(line).issuer);
    });
    child.on('exit', (code) => reject(new Error(`oidc-provider.mjs exited with ${code}: ${err}`)));
  });
  const origin = new URL(issuer).origin;
  return {
    issuer,
    host: new URL(issuer).host,
    tokenEndpoint: `${issuer}/protocol/openid-connect/token`,
    /** Ends every session at the provider: refresh tokens stop working. */
    async revokeSessions() {
      const res = await fetch(`${origin}/test/revoke-sessions`, { method: 'POST' });
      if (res.status !== 204) throw new Error(`revoke-sessions answered ${res.status}`);
    },
    stop: () => child.kill('SIGTERM'),
  };
}

/**
 * Starts the double of a team's production server (crates/testkit/servers/api-only.mjs) in front of `server`:
 * the API's nine operations forwarded, Spring errors for everything else, Swagger 2.0 at /api-docs, and the
 * built UI at `/`. `offer` names the extensions it offers (none by default); `openapi` 'none' leaves out
 * its /api-docs.
 */
export async function startApiOnly(server, { offer = [], openapi = 'v2' } = {}) {
  const script = join(ROOT, 'crates', 'testkit', 'servers', 'api-only.mjs');
  const args = [script, '--upstream', server.url, '--ui-dir', join(ROOT, 'ui', 'dist'), '--openapi', openapi];
  if (offer.length) args.push('--offer', offer.join(','));
  // Its stdin stays open: the double ends when it closes, so it never outlives this run.
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  process.on('exit', () => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const url = await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`api-only.mjs did not start: ${err}`)), 20000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolveReady(JSON.parse(line).url);
    });
    child.on('exit', (code) => reject(new Error(`api-only.mjs exited with ${code}: ${err}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  // Playwright gives each launch a fresh temporary profile of its own.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    headless: true,
  });
  return { browser, close: () => browser.close() };
}

/** Polls until `check` returns true (or a truthy value), failing with `what` after the timeout. */
export async function until(what, check, timeout = 10000) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    try {
      last = await check();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
}

export function assertEqual(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

/** A list of tests that run in order against one set of servers and one page. */
export function suite() {
  const tests = [];
  return {
    test: (name, fn) => tests.push({ name, fn }),
    run: (context) => runTests(tests, context),
  };
}

/**
 * Runs a suite's tests against a `studio serve` of its own (`server`: startServer's options) in one new page of
 * `browser` (`page`: more options of the page).
 */
export async function runWithServer(run, browser, { server: serverOptions = {}, page: pageOptions = {} } = {}) {
  const server = await startServer(serverOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, ...pageOptions });
    page.setDefaultTimeout(5000);
    page.on('pageerror', (e) => console.log(`  page error: ${e.message}`));
    return await run({ page, server });
  } finally {
    server.stop();
  }
}

/**
 * When the part's file is the program itself (`node e2e/NAME.mjs`), runs it alone in its own browser, prints
 * `ui-e2e NAME: N passed, M failed` and exits with its outcome.
 */
export async function runAlone(meta, name, part) {
  if (meta.url !== `file://${process.argv[1]}`) return;
  const { browser, close } = await launch();
  let summary = { passed: 0, failed: 1 };
  try {
    summary = await part(browser);
  } finally {
    await close();
  }
  console.log(`ui-e2e ${name}: ${summary.passed} passed, ${summary.failed} failed`);
  process.exit(summary.failed ? 1 : 0);
}

const main = suite();
export const test = main.test;
/** Runs the tests in order (they share one server and browser), printing one line per test and a summary. */
export const run = main.run;

async function runTests(tests, context) {
  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    const started = Date.now();
    try {
      await t.fn(context);
      passed++;
      console.log(`  ✓ ${t.name} (${Date.now() - started} ms)`);
    } catch (e) {
      failed++;
      console.log(`  ✗ ${t.name}\n      ${String(e?.stack ?? e).split('\n').slice(0, 4).join('\n      ')}`);
      if (context.page && process.env.E2E_ARTIFACTS) {
        await context.page.screenshot({ path: join(process.env.E2E_ARTIFACTS, `${t.name.replace(/\W+/g, '_')}.png`) }).catch(() => {});
      }
    }
  }
  return { passed, failed };
}

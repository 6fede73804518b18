// What the desktop end-to-end tests share: the programs under test, the servers they start (`studio serve`,
// the test OpenID Connect provider, the API-only server double), the app window through tauri-driver, and the
// steps a designer takes in Settings → Connections. The app's processes and X windows are windows.mjs's.

import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, test as nodeTest } from 'node:test';
import { Session, restartTrail, startDriver, step, trailSteps, waitUntil } from './webdriver.mjs';

export const root = resolve(import.meta.dirname, '../..');
export const app = join(root, 'target/debug/search-studio');
export const studio = join(root, 'target/debug/studio');
export const testServers = join(root, 'crates/testkit/servers');
const shots = join(root, 'target/e2e-screenshots');
export const display = process.env.E2E_DISPLAY ?? ':99';

/**
 * A test of the real app: as node:test's `test`, bounded. Every wait of a test is bounded (WebDriver commands,
 * `waitUntil`, the processes it starts), but a test that still hangs fails alone, naming where it was (below),
 * and the tests after it run.
 */
export function test(name, options, fn) {
  if (typeof options === 'function') [options, fn] = [{}, options];
  return nodeTest(name, { timeout: TEST_MS, ...options }, fn);
}
const TEST_MS = 300000;

/** The drivers opened by the running test. */
let drivers = [];

beforeEach(() => {
  restartTrail();
  drivers = [];
});

// A test that failed (a timeout too) prints its last steps and what its drivers and apps printed.
afterEach((t) => {
  if (t.passed) return;
  const said = drivers.map((d, i) => `--- driver ${i + 1}: tauri-driver and app output (end) ---\n${d.output().slice(-3000)}`);
  process.stderr.write(`--- "${t.name}" failed; its last steps ---\n${trailSteps().join('\n')}\n${said.join('\n')}\n`);
});

/** For each process started here, how to end it: a function whose promise resolves once it has ended. */
const stops = [];
/** The directories made by `tempDir`; `stopAll` removes them. */
const tempDirs = [];

/** A new directory in the system's temp dir, its name starting with `prefix`; `stopAll` removes it. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/**
 * Ends everything started here and, once it has ended (the app and `studio serve` hold their SQLite files
 * open), removes the directories of `tempDir`. One that cannot be removed is reported, not failed on.
 */
export async function stopAll() {
  for (const ending of await Promise.allSettled(stops.splice(0).map((stop) => stop()))) {
    if (ending.status === 'rejected') console.warn(`e2e teardown: ${ending.reason.message}`);
  }
  for (const dir of tempDirs.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      console.warn(`e2e teardown: ${dir} is left behind: ${error.message}`);
    }
  }
}

/** How long a run of the `studio` CLI, or a process's first lines, may take. */
const PROCESS_MS = 60000;
/** How long a process asked to end (SIGTERM) may take before it is killed. */
const ENDING_MS = 20000;

/** Runs the `studio` CLI on a data directory. */
export function cli(dataDir, ...args) {
  step(`studio ${args.join(' ')}`);
  return execFileSync(studio, ['--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: PROCESS_MS });
}

/** Stores a configuration with `title` (and any other settings) in a data directory. */
export function seed(dataDir, title, extra = {}) {
  const file = join(dataDir, `${title.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ config: { title, searchSpace: 'demo', ...extra } }));
  cli(dataDir, 'import-config', file);
}

/** The stored configuration `id` of a data directory, as `studio export-config` reads it. */
export function stored(dataDir, id) {
  return JSON.parse(cli(dataDir, 'export-config', String(id)));
}

/**
 * Starts a process whose stdin stays open (the test servers end when it closes, so none outlives a crashed
 * test run). What it prints on stderr is kept for failure messages. It runs in a process group of its own,
 * which `stopAll` ends whole: a process it started that still held one of its pipes would keep this test
 * file's process from ever ending.
 */
export function start(cmd, args, env = {}) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-4000)));
  child.errors = () => errors;
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // the group is gone
    }
  };
  let stopped = false;
  child.stop = async () => {
    if (stopped) return;
    stopped = true;
    // A process that never started (or already ended) has its exit code, and no exit to come.
    const running = child.pid !== undefined && child.exitCode === null && child.signalCode === null;
    const ended = running ? new Promise((r) => child.once('exit', r)) : Promise.resolve();
    const within = (ms) => {
      let timer;
      const late = new Promise((r) => (timer = setTimeout(r, ms, false)));
      return Promise.race([ended.then(() => true), late]).finally(() => clearTimeout(timer));
    };
    if (running) signal('SIGTERM');
    const done = await within(ENDING_MS);
    // What the process left running in its group goes too, and this side of its pipes with it.
    signal('SIGKILL');
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    if (!done && !(await within(5000))) throw new Error(`${cmd} did not end, even killed`);
  };
  stops.push(child.stop);
  return child;
}

/**
 * The first `n` lines a process prints; fails with its stderr if it ends first, or says fewer within
 * `timeoutMs` (an error with `silent` set).
 */
export async function firstLines(child, n, timeoutMs = PROCESS_MS) {
  step(`the first ${n} lines of ${child.spawnargs.join(' ')}`);
  const lines = [];
  const reader = createInterface({ input: child.stdout });
  const timer = setTimeout(() => reader.close(), timeoutMs);
  try {
    for await (const line of reader) {
      lines.push(line);
      if (lines.length === n) break;
    }
  } finally {
    clearTimeout(timer);
  }
  if (lines.length < n) {
    const silent = child.exitCode === null && child.signalCode === null;
    const why = silent ? `said ${lines.length} of ${n} lines in ${timeoutMs / 1000} s` : 'ended early';
    throw Object.assign(new Error(`${child.spawnargs.join(' ')} ${why}: ${child.errors()}`), { silent });
  }
  return lines;
}

/** `studio serve` on a free loopback port: its base URL, and its printed token when it made one. */
export async function serve(dataDir, args = []) {
  const server = start(studio, ['serve', '--listen', '127.0.0.1:0', '--data-dir', dataDir, ...args]);
  const withToken = !args.includes('--auth');
  const lines = await firstLines(server, withToken ? 2 : 1);
  const address = lines.find((l) => l.startsWith('listening on '));
  const token = lines.find((l) => l.startsWith('token: '));
  return { base: address.replace('listening on ', ''), token: token?.replace('token: ', '') ?? null };
}

/**
 * Starts one of the test servers (a Node script of crates/testkit/servers) and returns the JSON it announces.
 * A start that says nothing for 30 s is ended and tried once more, as the Rust tests do
 * (crates/testkit/src/process.rs: once, the OpenID provider stayed silent at start, for no cause found).
 */
export async function testServer(script, args = []) {
  for (let attempt = 1; ; attempt++) {
    const child = start(process.execPath, [join(testServers, script), ...args]);
    try {
      const [line] = await firstLines(child, 1, SILENT_START_MS);
      return JSON.parse(line);
    } catch (error) {
      await child.stop();
      if (!error.silent || attempt === SILENT_STARTS) throw error;
      step(`${script} said nothing; started again`);
    }
  }
}
const SILENT_START_MS = 30000;
const SILENT_STARTS = 2;

/** An auth file for `studio serve --auth`: the provider's group `designers` may read, write and search. */
export function designersAuthFile(dir) {
  const file = join(dir, 'auth.json');
  writeFileSync(file, JSON.stringify({
    users: [],
    groups: [{ name: 'designers', operations: ['read', 'write', 'search'], searchSpaces: ['*'] }],
  }));
  return file;
}

export async function openDriver(dataDir, env = {}) {
  // WebKit keeps the page's storage (the preview's zoom and folded columns) under XDG_DATA_HOME, beside the app's
  // identifier: each app gets a directory of its own, so that no test opens with what an earlier one left there.
  const webData = tempDir('studio-webkit-');
  const driver = await startDriver(display, { SEARCH_STUDIO_DATA_DIR: dataDir, XDG_DATA_HOME: webData, ...env });
  drivers.push(driver);
  stops.push(() => {
    driver.kill();
    return waitUntil(() => !groupRunning(driver.pid), 'the app to end', 30000);
  });
  return driver;
}

/**
 * The app's session once its window is shown: the window is created hidden and shown with its first screen
 * (src-tauri/window.rs), and WebDriver's commands need it shown, as a person does (a hidden window's page has no
 * size, and a window resized while hidden is then never drawn).
 */
export async function openApp(driver) {
  const session = await Session.start(driver, app);
  await waitUntil(
    async () => (await session.execute(`return document.visibilityState === 'visible' && document.body.innerText.includes('Search Studio');`)),
    'the app to render',
  );
  return session;
}

// WebKit's screenshot waits for the next frame the page paints. The app paints on the CPU (src-tauri/startup.rs,
// studio_model::webkit), and then a page that does not change (the recovery screen) paints no further frame and
// the screenshot never answers: one almost transparent pixel in a corner changes until the screenshot is taken.
const TICK = `
  const tick = document.createElement('div');
  tick.id = 'e2e-shot-tick';
  tick.style.cssText = 'position:fixed;right:0;bottom:0;width:1px;height:1px;pointer-events:none;background:#000;opacity:0.01';
  document.body.appendChild(tick);
  let n = 0;
  tick.dataset.timer = String(setInterval(() => { tick.style.opacity = n++ % 2 ? '0.01' : '0.02'; }, 50));
  return true;`;
const UNTICK = `
  const tick = document.getElementById('e2e-shot-tick');
  if (tick) { clearInterval(Number(tick.dataset.timer)); tick.remove(); }
  return true;`;

export async function saveShot(session, name) {
  mkdirSync(shots, { recursive: true });
  await session.execute(TICK);
  try {
    writeFileSync(join(shots, `${name}.png`), Buffer.from(await session.screenshot(), 'base64'));
  } finally {
    await session.execute(UNTICK);
  }
}

/** An XPath string literal for any text (names with quotes included). */
export function literal(text) {
  if (!text.includes("'")) return `'${text}'`;
  return `concat('${text.split("'").join(`', "'", '`)}')`;
}

/** The entry of a connection in Settings → Connections, by its name. */
export const connectionEntry = (name) => `//li[@data-connection][.//strong[normalize-space(.)=${literal(name)}]]`;

export async function openSettings(session) {
  await session.click(await session.waitFor("//button[normalize-space(.)='Settings']"));
  await session.waitFor("//button[normalize-space(.)='Add a connection']", 'the connections in Settings');
}

export async function closeSettings(session) {
  await session.click(await session.waitFor("//button[@aria-label='Close settings']"));
}

/**
 * Adds a remote connection through the form. `signIn` is the method's label as the form shows it; the other
 * fields are typed only when given.
 */
export async function addConnection(session, { name, url, signIn, token, issuer, clientId, clientSecret, username, password }) {
  await session.click(await session.waitFor("//button[normalize-space(.)='Add a connection']"));
  await session.type(await session.waitFor("//input[@id='conn-name']"), name);
  await session.type(await session.waitFor("//input[@id='conn-url']"), url);
  await session.click(await session.waitFor(`//form[contains(@class, 'connection-form')]//label[normalize-space(.)=${literal(signIn)}]/input`));
  const fields = {
    'conn-token': token, 'conn-issuer': issuer, 'conn-client': clientId, 'conn-secret': clientSecret, 'conn-username': username,
    'conn-password': password,
  };
  for (const [id, value] of Object.entries(fields)) {
    if (value !== undefined) await session.type(await session.waitFor(`//input[@id='${id}']`), value);
  }
  await session.click(await session.waitFor("//button[normalize-space(.)='Save connection']"));
  await session.waitFor(`//*[@role='status'][starts-with(normalize-space(.), ${literal(`Saved “${name}”`)})]`, `the connection ${name} to be saved`);
}

/** "Use this connection" on the named one, then waits for the switch to be confirmed. */
export async function useConnection(session, name) {
  await session.click(await session.waitFor(`${connectionEntry(name)}//button[normalize-space(.)='Use this connection']`));
  await session.waitFor(`//*[@role='status'][starts-with(normalize-space(.), ${literal(`Now using “${name}”`)})]`, `the switch to ${name}`);
}

/** The value of an input, by id. */
export function inputValue(session, id) {
  return session.execute('return document.getElementById(arguments[0])?.value ?? null;', [id]);
}

/**
 * Makes `program` the system's default browser as xdg-open finds it (the http and https handlers of
 * mimeapps.list under `dir`): it is started with the address to open. Returns the environment to start the
 * app with.
 */
export function defaultBrowser(dir, program) {
  const xdg = join(dir, 'xdg');
  mkdirSync(join(xdg, 'data/applications'), { recursive: true });
  mkdirSync(join(xdg, 'config'), { recursive: true });
  writeFileSync(join(xdg, 'data/applications/test-browser.desktop'), `[Desktop Entry]\nType=Application\nName=Test browser\nExec=${program} %u\n`);
  writeFileSync(join(xdg, 'config/mimeapps.list'), '[Default Applications]\nx-scheme-handler/https=test-browser.desktop\nx-scheme-handler/http=test-browser.desktop\n');
  return { XDG_DATA_HOME: join(xdg, 'data'), XDG_CONFIG_HOME: join(xdg, 'config') };
}

/**
 * Whether a process of group `pgid` (a driver's: tauri-driver, WebKitWebDriver, the app) still runs. Zombies
 * hold no files, and on some machines nothing ever reaps them.
 */
function groupRunning(pgid) {
  return execFileSync('ps', ['-e', '-o', 'pgid=,stat='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .some(([group, stat]) => Number(group) === pgid && !stat.startsWith('Z'));
}

/**
 * Damages SQLite file `file` as a fault would (damage.py): `header` overwrites its first 100 bytes; `table`
 * overwrites the pages holding table `name` with garbage.
 */
export function damage(file, how, name = 'configurations') {
  execFileSync('python3', [join(import.meta.dirname, 'damage.py'), file, how, name]);
}

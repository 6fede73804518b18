// What the desktop end-to-end tests share: the programs under test, the servers they start (`studio serve`,
// the test OpenID Connect provider, the API-only server double), the app window through tauri-driver, and the
// steps a designer takes in Settings → Connections.

import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The ids of the app's processes started under a driver (tauri-driver → WebKitWebDriver → app). */
export function appPids(driver) {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter(Boolean)
    .map(([, p, pp, args]) => ({ pid: Number(p), ppid: Number(pp), args }));
  const under = new Set([driver.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) if (under.has(r.ppid) && !under.has(r.pid)) (under.add(r.pid), (grew = true));
  }
  return rows.filter((r) => under.has(r.pid) && r.args.startsWith(app)).map((r) => r.pid);
}

/**
 * The environments of WebKit's web processes under a driver, each as a map: what the app sets for WebKit before it
 * starts (src-tauri/startup.rs) reaches them only through the environment they inherit.
 */
export function webProcessEnvs(driver) {
  return execFileSync('ps', ['-e', '-o', 'pid=,pgid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([, pgid, comm]) => Number(pgid) === driver.pid && comm === 'WebKitWebProces')
    .map(([pid]) => {
      const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      return new Map(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
    });
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
 * The X windows titled argv[2]: \`close\` asks them to close as a window manager does when its close button is
 * clicked (a WM_DELETE_WINDOW client message; Xvfb runs no window manager), \`viewable\` prints how many are
 * shown on the screen. WebDriver's "close window" is no stand-in for the first: WebKitWebDriver then ends the
 * app without the app's own exit.
 */
const X_WINDOWS = `
import ctypes, ctypes.util, sys
x = ctypes.cdll.LoadLibrary(ctypes.util.find_library('X11'))
x.XOpenDisplay.restype = ctypes.c_void_p
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XDefaultRootWindow.restype = ctypes.c_ulong
x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)), ctypes.POINTER(ctypes.c_uint)]
x.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_char_p)]
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x.XFlush.argtypes = [ctypes.c_void_p]

class ClientMessage(ctypes.Structure):
    _fields_ = [('type', ctypes.c_int), ('serial', ctypes.c_ulong), ('send_event', ctypes.c_int),
                ('display', ctypes.c_void_p), ('window', ctypes.c_ulong), ('message_type', ctypes.c_ulong),
                ('format', ctypes.c_int), ('l', ctypes.c_long * 5)]
class Event(ctypes.Union):
    _fields_ = [('xclient', ClientMessage), ('pad', ctypes.c_long * 24)]
class Attributes(ctypes.Structure):
    _fields_ = [('x', ctypes.c_int), ('y', ctypes.c_int), ('width', ctypes.c_int), ('height', ctypes.c_int),
                ('border_width', ctypes.c_int), ('depth', ctypes.c_int), ('visual', ctypes.c_void_p),
                ('root', ctypes.c_ulong), ('class_', ctypes.c_int), ('bit_gravity', ctypes.c_int),
                ('win_gravity', ctypes.c_int), ('backing_store', ctypes.c_int), ('backing_planes', ctypes.c_ulong),
                ('backing_pixel', ctypes.c_ulong), ('save_under', ctypes.c_int), ('colormap', ctypes.c_ulong),
                ('map_installed', ctypes.c_int), ('map_state', ctypes.c_int), ('all_event_masks', ctypes.c_long),
                ('your_event_mask', ctypes.c_long), ('do_not_propagate_mask', ctypes.c_long),
                ('override_redirect', ctypes.c_int), ('screen', ctypes.c_void_p)]
x.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(Attributes)]
IS_VIEWABLE = 2

# A window may go between listing and reading it (a popup): ignore such errors instead of ending.
ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: 0)
x.XSetErrorHandler(ERROR_HANDLER)

command, title = sys.argv[1], sys.argv[2].encode()
dpy = x.XOpenDisplay(None)
if not dpy:
    sys.exit('cannot open the display')
protocols = x.XInternAtom(dpy, b'WM_PROTOCOLS', 0)
delete = x.XInternAtom(dpy, b'WM_DELETE_WINDOW', 0)

def windows(w):
    root, parent, children, n = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
    yield w
    if x.XQueryTree(dpy, w, ctypes.byref(root), ctypes.byref(parent), ctypes.byref(children), ctypes.byref(n)):
        for i in range(n.value):
            yield from windows(children[i])

sent = viewable = 0
for w in windows(x.XDefaultRootWindow(dpy)):
    name = ctypes.c_char_p()
    if not (x.XFetchName(dpy, w, ctypes.byref(name)) and name.value == title):
        continue
    attributes = Attributes()
    if command == 'viewable' and x.XGetWindowAttributes(dpy, w, ctypes.byref(attributes)):
        viewable += attributes.map_state == IS_VIEWABLE
    if command == 'close':
        ev = Event()
        ev.xclient.type = 33  # ClientMessage
        ev.xclient.window = w
        ev.xclient.message_type = protocols
        ev.xclient.format = 32
        ev.xclient.l[0] = delete
        x.XSendEvent(dpy, w, 0, 0, ctypes.byref(ev))
        sent += 1
x.XFlush(dpy)
if command == 'viewable':
    print(viewable)
elif not sent:
    sys.exit('no window named ' + sys.argv[2])
`;

/** Runs X_WINDOWS's `command` on the app's windows and returns what it printed. */
function xWindows(command) {
  return execFileSync('python3', ['-c', X_WINDOWS, command, WINDOW_TITLE], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8' });
}
const WINDOW_TITLE = 'Search Studio';

/** How many windows of the app are shown on the screen (mapped, with every parent mapped). */
export function viewableWindows() {
  return Number(xWindows('viewable'));
}

/** Closes the app's window as a user does, and waits until the app has ended (its exit work done). */
export async function closeWindow(driver) {
  if (appPids(driver).length === 0) throw new Error('the app is not running');
  xWindows('close');
  await waitUntil(() => appPids(driver).length === 0, 'the app to end after its window was closed', 60000);
}

/**
 * Damages SQLite file `file` as a fault would: `header` overwrites its first 100 bytes; `table` overwrites
 * the pages holding table `name` (found with SQLite's dbstat) with garbage.
 */
export function damage(file, how, name = 'configurations') {
  const script = `
import sqlite3, sys
path, how, name = sys.argv[1], sys.argv[2], sys.argv[3]
if how == 'header':
    offsets, size = [0], 100
else:
    c = sqlite3.connect(path)
    size = c.execute('PRAGMA page_size').fetchone()[0]
    pages = [r[0] for r in c.execute('SELECT pageno FROM dbstat WHERE name = ?', (name,))]
    c.close()
    if not pages:
        sys.exit('no pages of ' + name + ' in ' + path)
    offsets = [(p - 1) * size for p in pages]
with open(path, 'r+b') as f:
    for o in offsets:
        f.seek(o)
        f.write(bytes((i * 37 + 11) % 256 for i in range(size)))
`;
  execFileSync('python3', ['-c', script, file, how, name]);
}

// A small W3C WebDriver client (fetch over HTTP), enough to drive the desktop app through tauri-driver,
// and the start of tauri-driver itself.

import { spawn } from 'node:child_process';

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  /** Opens the app through `driver` (from startDriver); a failure carries what the driver and app printed. */
  static async start(driver, application) {
    const body = { capabilities: { alwaysMatch: { 'tauri:options': { application } } } };
    try {
      const answer = await call(driver.base, 'POST', '/session', body, SESSION_START_MS);
      return new Session(driver.base, answer.sessionId);
    } catch (error) {
      throw new Error(`${error.message}\n--- tauri-driver and app output ---\n${driver.output().slice(-4000)}`);
    }
  }

  cmd(method, path, body) {
    return call(this.base, method, `/session/${this.id}${path}`, body);
  }

  title() {
    return this.cmd('GET', '/title');
  }

  async find(xpath) {
    const found = await this.cmd('POST', '/element', { using: 'xpath', value: xpath });
    return found[ELEMENT];
  }

  /** Waits until `xpath` matches an element and returns it. */
  async waitFor(xpath, what = xpath, timeoutMs = 30000) {
    return waitUntil(async () => {
      try {
        return await this.find(xpath);
      } catch {
        return null;
      }
    }, what, timeoutMs);
  }

  click(element) {
    return this.cmd('POST', `/element/${element}/click`, {});
  }

  async type(element, text) {
    await this.cmd('POST', `/element/${element}/clear`, {});
    return this.cmd('POST', `/element/${element}/value`, { text });
  }

  text(element) {
    return this.cmd('GET', `/element/${element}/text`);
  }

  /** Moves the real pointer to (x, y) of the viewport, and clicks there when `click` is set. */
  pointAt(x, y, click = false) {
    const actions = [{ type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) }];
    if (click) actions.push({ type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 });
    return this.cmd('POST', '/actions', { actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }] });
  }

  /** Types `text` with real key presses into whatever has the focus. */
  keys(text) {
    const actions = [...text].flatMap((c) => [{ type: 'keyDown', value: c }, { type: 'keyUp', value: c }]);
    return this.cmd('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  }

  execute(script, args = []) {
    return this.cmd('POST', '/execute/sync', { script, args });
  }

  async bodyText() {
    return this.execute('return document.body.innerText;');
  }

  windowRect() {
    return this.cmd('GET', '/window/rect');
  }

  setWindowRect(rect) {
    return this.cmd('POST', '/window/rect', rect);
  }

  screenshot() {
    return this.cmd('GET', '/screenshot');
  }

  end() {
    return call(this.base, 'DELETE', `/session/${this.id}`);
  }
}

// Opening the app (a debug build, its WebKit processes, on a busy 2-core machine) may take a while; nothing
// else should. A command that hangs fails the test instead of waiting for fetch's five-minute default.
const SESSION_START_MS = 120000;
const COMMAND_MS = 60000;

/**
 * The last steps of the running test (WebDriver commands, waits), each with its time since the test began: a
 * test that fails or hangs prints them (support.mjs), naming the step it was at.
 */
const trail = { began: Date.now(), steps: [] };
const TRAIL_STEPS = 40;

/** Starts the trail again (at the start of a test). */
export function restartTrail() {
  trail.began = Date.now();
  trail.steps = [];
}

/** Notes a step of the running test; a step repeated at once (a poll) is counted on its first note. */
export function step(what) {
  const at = ((Date.now() - trail.began) / 1000).toFixed(1);
  const last = trail.steps.at(-1);
  if (last?.what === what) {
    last.times += 1;
    last.until = at;
    return;
  }
  trail.steps.push({ at, what, times: 1, until: at });
  if (trail.steps.length > TRAIL_STEPS) trail.steps.shift();
}

/** The steps noted, oldest first, one line each. */
export function trailSteps() {
  return trail.steps.map(({ at, what, times, until }) => `+${at} s ${what}${times > 1 ? ` (×${times}, until +${until} s)` : ''}`);
}

async function call(base, method, path, body, timeoutMs = COMMAND_MS) {
  step(`WebDriver ${method} ${path.replace(/^\/session\/[^/]+/, '')}`);
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((error) => {
    throw new Error(`WebDriver ${method} ${path}: ${error.name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : error.message}`);
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok || (json.value && json.value.error)) {
    const error = json.value?.error ?? response.status;
    throw new Error(`WebDriver ${method} ${path}: ${error} ${json.value?.message ?? ''}`);
  }
  return json.value;
}

/** Polls `probe` until it returns something truthy; fails naming `what` after `timeoutMs`. */
export async function waitUntil(probe, what, timeoutMs = 30000) {
  step(`waiting for ${what}`);
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`gave up waiting for ${what}`);
}

// Each driver gets its own port and its own port for WebKitWebDriver (tauri-driver's default, 4445, would be
// shared by every driver, and one left over from an earlier run would take the sessions). They stay below
// Linux's ephemeral ports (32768 on), which any outgoing connection may hold.
let nextPort = 20000 + (process.pid % 1200) * 10;

/** Attempts of `startDriver` when a port it picked is taken by another process. */
const PORT_ATTEMPTS = 5;

/**
 * Starts tauri-driver on `display` with `env` added to its (and so the app's) environment; resolves once it
 * listens, on the next two ports when one it picked is taken. `output()` gives what it and the app printed,
 * `kill()` stops it.
 */
export async function startDriver(display, env = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDriverOnce(display, env);
    } catch (e) {
      if (attempt >= PORT_ATTEMPTS || !String(e.message).includes('can not listen')) throw e;
    }
  }
}

async function startDriverOnce(display, env) {
  const port = nextPort++;
  const nativePort = nextPort++;
  // Its own process group, so that stopping it stops WebKitWebDriver and the app with it.
  const child = spawn('tauri-driver', ['--port', String(port), '--native-port', String(nativePort)], {
    env: { ...process.env, DISPLAY: display, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-20000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(`tauri-driver exited (${code ?? signal})`)));
  const base = `http://127.0.0.1:${port}`;
  const kill = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    // An app that outlived the group would hold the output pipes open and keep this process alive.
    child.stdout.destroy();
    child.stderr.destroy();
  };
  const driver = { base, pid: child.pid, output: () => output, kill };
  const status = () => fetch(`${base}/status`, { signal: AbortSignal.timeout(5000) }).then((r) => r.ok, () => false);
  const listening = waitUntil(status, 'tauri-driver to listen');
  const outcome = await Promise.race([listening.then(() => null), exited]);
  if (outcome) {
    kill();
    throw new Error(`${outcome}: ${output.slice(-2000)}`);
  }
  return driver;
}

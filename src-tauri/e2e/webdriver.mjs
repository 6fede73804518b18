// A small W3C WebDriver client (fetch over HTTP), enough to drive the desktop app through tauri-driver.

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  static async start(base, application) {
    const body = { capabilities: { alwaysMatch: { 'tauri:options': { application } } } };
    const answer = await call(base, 'POST', '/session', body);
    return new Session(base, answer.sessionId);
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

async function call(base, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
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
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`gave up waiting for ${what}`);
}

// End to end on the real desktop binary: Xvfb + tauri-driver + WebKitWebDriver drive the app window.
// The app starts on a data directory filled through the `studio` CLI, switches to a remote `studio serve`
// started here, edits a setting and sees the preview follow, and keeps its choice across a restart.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Session, waitUntil } from './webdriver.mjs';

const root = resolve(import.meta.dirname, '../..');
const app = join(root, 'target/debug/search-studio');
const studio = join(root, 'target/debug/studio');
const shots = join(root, 'target/e2e-screenshots');
const display = process.env.E2E_DISPLAY ?? ':99';
const driverPort = 4444 + (process.pid % 1000);
const children = [];

const localDir = mkdtempSync(join(tmpdir(), 'studio-desktop-'));
const remoteDir = mkdtempSync(join(tmpdir(), 'studio-remote-'));
let remote; // { base, token }

function cli(dataDir, ...args) {
  return execFileSync(studio, ['--data-dir', dataDir, ...args], { encoding: 'utf8' });
}

function seed(dataDir, title, extra = {}) {
  const file = join(dataDir, `${title.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ config: { title, searchSpace: 'demo', ...extra } }));
  cli(dataDir, 'import-config', file);
}

function start(cmd, args, env = {}) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

async function firstLines(child, n) {
  const lines = [];
  const reader = createInterface({ input: child.stdout });
  for await (const line of reader) {
    lines.push(line);
    if (lines.length === n) break;
  }
  return lines;
}

async function startDriver() {
  const driver = start('tauri-driver', ['--port', String(driverPort)], { DISPLAY: display, SEARCH_STUDIO_DATA_DIR: localDir });
  const base = `http://127.0.0.1:${driverPort}`;
  await waitUntil(() => fetch(`${base}/status`).then((r) => r.ok, () => false), 'tauri-driver to listen');
  return { driver, base };
}

async function openApp(base) {
  const session = await Session.start(base, app);
  await waitUntil(async () => (await session.bodyText()).includes('Search Studio'), 'the app to render');
  return session;
}

async function saveShot(session, name) {
  mkdirSync(shots, { recursive: true });
  writeFileSync(join(shots, `${name}.png`), Buffer.from(await session.screenshot(), 'base64'));
}

before(async () => {
  seed(localDir, 'Harbour Search', { layout: { navbar: { backgroundColor: '#123456', fontColor: '#ffffff' } } });
  seed(localDir, 'Museum Catalogue');
  seed(remoteDir, 'Remote Archive');
  const server = start(studio, ['serve', '--listen', '127.0.0.1:0', '--data-dir', remoteDir]);
  const [tokenLine, addressLine] = await firstLines(server, 2);
  remote = { token: tokenLine.replace('token: ', ''), base: addressLine.replace('listening on ', '') };
});

after(() => {
  for (const child of children) child.kill();
});

test('the window lists the stored configurations, switches to a remote server, and remembers it', async () => {
  const { driver, base } = await startDriver();
  let session = await openApp(base);
  try {
    assert.match(await session.title(), /Search Studio/);
    await session.waitFor("//*[contains(normalize-space(.), 'Harbour Search')]", 'the first stored configuration');
    await session.waitFor("//*[contains(normalize-space(.), 'Museum Catalogue')]", 'the second stored configuration');
    await saveShot(session, 'desktop-local');

    await session.click(await session.waitFor("//button[normalize-space(.)='Settings']"));
    await session.click(await session.waitFor("//label[contains(., 'Remote server')]/input"));
    await session.type(await session.waitFor("//input[@id='remote-url']"), remote.base);
    await session.type(await session.waitFor("//input[@id='remote-token']"), remote.token);
    await session.click(await session.waitFor("//button[normalize-space(.)='Apply']"));
    await session.waitFor("//*[contains(normalize-space(.), 'Now using')]", 'the switch to be confirmed');
    const settingsText = await session.bodyText();
    assert.ok(!settingsText.includes(remote.token), 'the token is never shown');
    await session.click(await session.waitFor("//button[@aria-label='Close settings']"));
    await waitUntil(async () => {
      const text = await session.bodyText();
      return text.includes('Remote Archive') && !text.includes('Museum Catalogue');
    }, "the remote server's configurations to replace the local ones");
    await saveShot(session, 'desktop-remote');
  } finally {
    await session.end().catch(() => {});
  }

  // A restart keeps the choice: the remote server's configurations come up again.
  session = await openApp(base);
  try {
    await session.waitFor("//*[contains(normalize-space(.), 'Remote Archive')]", 'the remote configuration after a restart');
    assert.ok(!(await session.bodyText()).includes('Museum Catalogue'));
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

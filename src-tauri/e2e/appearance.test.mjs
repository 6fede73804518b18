// The editor's "system" theme follows the desktop's light or dark style, read from the real freedesktop
// Settings portal (xdg-desktop-portal with its GTK back end, which reads GNOME's `color-scheme` setting) on a
// session bus of this test's own, so that the style it sets reaches no other test.

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { waitUntil } from './webdriver.mjs';
import { display, firstLines, openApp, openDriver, start, stopAll, tempDir, test } from './support.mjs';

const dataDir = tempDir('studio-appearance-');
// The setting is kept under this test's own configuration directory, not the user's.
const home = tempDir('studio-appearance-home-');
let bus; // the environment that reaches this test's session bus

function colorScheme(value) {
  execFileSync('gsettings', ['set', 'org.gnome.desktop.interface', 'color-scheme', value], { env: bus, stdio: 'pipe' });
}

const editorTheme = (session) => session.execute('return document.documentElement.dataset.theme ?? null');

before(async () => {
  // The portal's GTK back end, started by the bus, needs the display.
  const env = { DISPLAY: display, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), GSETTINGS_BACKEND: 'dconf' };
  const daemon = start('dbus-daemon', ['--session', '--nofork', '--print-address=1'], env);
  const [address] = await firstLines(daemon, 1);
  bus = { ...process.env, ...env, DBUS_SESSION_BUS_ADDRESS: address.trim() };
});

after(() => stopAll());

test('the system theme follows the desktop’s dark style, and its change', async () => {
  colorScheme('prefer-dark');
  const driver = await openDriver(dataDir, { XDG_CONFIG_HOME: bus.XDG_CONFIG_HOME, DBUS_SESSION_BUS_ADDRESS: bus.DBUS_SESSION_BUS_ADDRESS });
  const session = await openApp(driver);
  await waitUntil(async () => (await editorTheme(session)) === 'dark', 'the editor to turn dark with the desktop', 20000);
  colorScheme('default');
  await waitUntil(async () => (await editorTheme(session)) === 'light', 'the editor to turn light with the desktop', 20000);
  // A theme chosen in the editor is the editor's, whatever the desktop's style.
  await session.execute(`
    const select = document.querySelector('.theme-select select');
    select.value = 'dark';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return true;`);
  colorScheme('prefer-light');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(await editorTheme(session), 'dark');
});

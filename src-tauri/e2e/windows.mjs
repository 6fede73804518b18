// The app's processes and windows under a desktop end-to-end test's driver: which processes it runs, what their
// environment holds, and its X windows, shown or closed as a user closes them (x_windows.py).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, display } from './support.mjs';
import { waitUntil } from './webdriver.mjs';

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

/** Runs x_windows.py's `command` on the app's windows and returns what it printed. */
function xWindows(command) {
  return execFileSync('python3', [join(import.meta.dirname, 'x_windows.py'), command, WINDOW_TITLE], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8' });
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

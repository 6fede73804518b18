// End to end on the real desktop binary, with the local store under real faults: a data directory that cannot
// be made ends the start with its reason; a clean exit (closing the window) takes a backup and leaves only the store's files; a damaged store at launch shows the recovery
// screen, and Recover brings the configurations back into the editor; on a full disk (a small tmpfs), Save
// says so and keeps the edit, and once space is freed Save works without a restart.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  app, damage, display, inputValue, literal, openApp, openDriver, saveShot, seed, stopAll, tempDir, test,
} from './support.mjs';
import { closeWindow } from './windows.mjs';

const mounts = [];

after(async () => {
  // The app's processes may still hold the file system: detach it now (it goes once they have ended), so that
  // `stopAll` removes the empty mount point, not the files of a mounted file system.
  for (const dir of mounts.splice(0)) {
    try {
      execFileSync('umount', ['--lazy', dir]);
    } catch {
      // already gone
    }
  }
  await stopAll();
});

const configItem = (title) => `//*[contains(@class, 'config-item')][contains(., ${literal(title)})]`;

/** The files of `dir` that only an open (or unclosed) store leaves: SQLite's logs. */
const logs = (dir) => readdirSync(dir).filter((n) => n.endsWith('-wal') || n.endsWith('-shm'));

/** A data directory with "Harbour Search", used once by the app and closed with its window. */
async function usedStore() {
  const dir = tempDir('studio-faults-');
  seed(dir, 'Harbour Search');
  const driver = await openDriver(dir);
  const session = await openApp(driver);
  await session.waitFor(configItem('Harbour Search'), 'the stored configuration');
  await closeWindow(driver);
  driver.kill();
  return dir;
}

test('a data directory that cannot be made ends the start with its reason, not a crash', () => {
  const dir = tempDir('studio-no-data-dir-');
  const file = join(dir, 'a-file');
  writeFileSync(file, '');
  // Under a file, the data directory can be neither read nor made.
  const dataDir = join(file, 'data');
  const env = { ...process.env, DISPLAY: display, SEARCH_STUDIO_DATA_DIR: dataDir };
  const run = spawnSync(app, [], { env, encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /^error: Search Studio could not start: cannot open the settings/m);
  assert.ok(run.stderr.includes(dataDir), `the message names the directory: ${run.stderr}`);
  assert.match(run.stderr, /must be a folder this user can read and write; SEARCH_STUDIO_DATA_DIR names another/);
  assert.doesNotMatch(run.stderr, /panicked/);
});

test('closing the window takes the exit backup', async () => {
  const dir = await usedStore();
  const backups = join(dir, 'backups');
  assert.ok(existsSync(backups) && readdirSync(backups).some((n) => n.endsWith('.db')), `no exit backup in ${backups}`);
});

test('closing the window leaves no -wal or -shm file', async () => {
  const dir = await usedStore();
  assert.deepEqual(logs(dir), [], `left behind in ${dir}`);
});

for (const [how, problem] of [
  ['header', /no longer a database/],
  ['table', /damaged and cannot be read/],
]) {
  test(`a store damaged (${how}) opens on the recovery screen; Recover brings the configurations back`, async () => {
    const used = await usedStore();
    const dir = tempDir(`studio-damaged-${how}-`);
    cpSync(used, dir, { recursive: true });
    const db = join(dir, 'studio.db');
    damage(db, how);

    const driver = await openDriver(dir);
    const session = await openApp(driver);
    await session.waitFor("//*[@data-testid='recovery-screen']", 'the recovery screen');
    assert.equal(await session.text(await session.find("//*[@data-testid='damaged-file']")), db);
    assert.match(await session.text(await session.find("//*[@data-testid='damaged-problem']")), problem);
    await saveShot(session, `faults-recovery-${how}`);
    assert.equal(await session.execute("return document.querySelector('#f-config-title') === null;"), true, 'no editor over a damaged store');

    await session.click(await session.find("//button[normalize-space(.)='Recover']"));
    const report = await session.waitFor("//*[@data-testid='recovery-report']", 'what the recovery saved', 60000);
    const saved = await session.text(report);
    assert.match(saved, /studio\.db\.damaged-/);
    assert.ok(readdirSync(dir).some((n) => n.startsWith('studio.db.damaged-')), 'the damaged file is kept');
    await saveShot(session, `faults-recovered-${how}`);
    await session.click(await session.find("//button[normalize-space(.)='Open the editor']"));

    await session.click(await session.waitFor(configItem('Harbour Search'), 'the recovered configuration in the list'));
    await session.type(await session.waitFor("//input[@id='f-config-title']"), 'Harbour Search, recovered');
    await session.click(await session.find("//button[normalize-space(.)='Save']"));
    await session.waitFor("//*[@data-testid='save-state'][contains(., 'Saved')]", 'the save in the recovered store');
    await session.waitFor(configItem('Harbour Search, recovered'), 'the saved title in the list');
    await closeWindow(driver);
    driver.kill();
  });
}

test('on a full disk Save says so and keeps the edit; after space is freed Save works and the value stays', async () => {
  const dir = tempDir('studio-full-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dir]);
  mounts.push(dir);
  seed(dir, 'Harbour Search');
  const filler = join(dir, 'filler');

  const driver = await openDriver(dir);
  const session = await openApp(driver);
  await session.click(await session.waitFor(configItem('Harbour Search'), 'the stored configuration'));
  await session.waitFor("//input[@id='f-config-title']");
  // Fill the disk to its last block.
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' });
  } catch {
    // dd ends with "No space left on device": that is the point
  }

  await session.type(await session.find("//input[@id='f-config-title']"), 'Harbour Search, on a full disk');
  await session.click(await session.find("//button[normalize-space(.)='Save']"));
  const refused = await session.waitFor("//*[@role='alert'][contains(., 'is full')]", 'the full-disk message at Save');
  assert.match(await session.text(refused), /Not published; your changes are kept: .*is full/);
  assert.equal(await inputValue(session, 'f-config-title'), 'Harbour Search, on a full disk');
  await session.waitFor("//*[@data-testid='unwritten-notice'][contains(., 'kept while the app is open')]", 'the notice that the edit is only in memory', 15000);
  await saveShot(session, 'faults-full-disk');

  rmSync(filler);
  await session.click(await session.find("//button[normalize-space(.)='Save']"));
  await session.waitFor("//*[@data-testid='save-state'][contains(., 'Saved')]", 'the save once space is freed');
  await waitGone(session, "//*[@data-testid='unwritten-notice']");
  await closeWindow(driver);
  driver.kill();

  const again = await openDriver(dir);
  const reopened = await openApp(again);
  await reopened.click(await reopened.waitFor(configItem('Harbour Search, on a full disk'), 'the saved title after a restart'));
  await reopened.waitFor("//input[@id='f-config-title']");
  assert.equal(await inputValue(reopened, 'f-config-title'), 'Harbour Search, on a full disk');
  await closeWindow(again);
  again.kill();
  // The file system is detached in `after`: WebKit's helper processes may still hold it for a moment.
});

/** Waits until nothing matches `xpath`. */
async function waitGone(session, xpath) {
  for (let i = 0; i < 150; i++) {
    if (await session.execute('return document.evaluate(arguments[0], document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue === null;', [xpath])) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${xpath} is still shown`);
}

// End to end on the real desktop binary: copying ("promoting") a configuration of the local store to a remote
// connection. The first copy is new there; after an edit, the next copy proposes that one, shows the field
// diff and updates it; a change made on the server after the comparison makes the copy a conflict that
// overwrites nothing.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './webdriver.mjs';
import {
  addConnection, cli, closeSettings, openApp, openDriver, openSettings, saveShot, seed, serve, stopAll, stored,
  tempDir, test,
} from './support.mjs';

after(stopAll);

const COPY_DIALOG = "//dialog[@data-testid='copy-dialog']";
const NAVBAR = 'config.layout.navbar.backgroundColor';

/** Every stored configuration of a data directory. */
const all = (dataDir) => JSON.parse(cli(dataDir, 'export-config', '--all')).configurations;

/** The cells of the copy dialog's diff row for `path`: setting, there now, after the copy. */
function diffRow(session, path) {
  return session.execute(
    `const row = document.querySelector('[data-testid=copy-diff] tr[data-path="' + arguments[0] + '"]');
     return row ? [...row.cells].map((c) => c.textContent.trim()) : null;`,
    [path],
  );
}

async function copyButton(session) {
  return session.waitFor(`${COPY_DIALOG}//button[normalize-space(.)='Copy']`);
}

test('a configuration is copied to another connection: new there, then updated with its diff, never over a change', async () => {
  const dir = tempDir('studio-copy-');
  const localDir = join(dir, 'local');
  const remoteDir = join(dir, 'remote');
  mkdirSync(localDir);
  mkdirSync(remoteDir);
  seed(localDir, 'Harbour Search', { layout: { navbar: { backgroundColor: '#123456', fontColor: '#ffffff' } } });
  seed(remoteDir, 'Remote Archive');
  const remote = await serve(remoteDir);

  const driver = await openDriver(localDir);
  const session = await openApp(driver);
  try {
    await openSettings(session);
    await addConnection(session, { name: 'Production', url: remote.base, signIn: 'Access token', token: remote.token });
    await closeSettings(session);

    // New there.
    await session.click(await session.waitFor("//*[contains(@class, 'config-item')][contains(., 'Harbour Search')]"));
    await session.click(await session.waitFor("//button[normalize-space(.)='Copy to…']"));
    await session.waitFor(`${COPY_DIALOG}//*[@data-testid='copy-new']`, 'the plan: new there');
    await session.click(await copyButton(session));
    await session.waitFor("//*[contains(@class, 'notice')]//span[starts-with(normalize-space(.), 'Copied “Harbour Search” to Production')]", 'the copy to be confirmed');
    const copied = all(remoteDir).find((c) => c.config.title === 'Harbour Search');
    assert.ok(copied, `the copy is on the server: ${all(remoteDir).map((c) => c.config.title)}`);
    assert.equal(copied.config.layout.navbar.backgroundColor, '#123456');

    // An edit, saved locally, then copied again: the plan proposes the copy there and shows what changes.
    await session.click(await session.waitFor("//button[@role='tab'][starts-with(normalize-space(.), 'Layout')]"));
    await session.type(await session.waitFor("//input[@id='f-config-layout-navbar-backgroundColor']"), '#aa3300');
    await session.click(await session.waitFor("//button[normalize-space(.)='Save'][@title='Save (Ctrl+S)']"));
    await waitUntil(() => stored(localDir, 1).config.layout.navbar.backgroundColor === '#aa3300', 'the local save');
    await session.click(await session.waitFor("//button[normalize-space(.)='Copy to…']"));
    assert.deepEqual(await waitUntil(() => diffRow(session, NAVBAR), 'the field diff'), [NAVBAR, '#123456', '#aa3300']);
    const chosen = await session.execute("return document.getElementById('copy-into').value;");
    assert.equal(Number(chosen), copied.id, 'the plan proposes the copy made before');
    await saveShot(session, 'desktop-copy-diff');

    // Someone changes it on the server after the comparison: the copy is refused, nothing is overwritten.
    const headers = { authorization: `Bearer ${remote.token}`, 'content-type': 'application/json' };
    const theirs = structuredClone(copied);
    theirs.config.layout.navbar.backgroundColor = '#00ff00';
    const put = await fetch(`${remote.base}/api/configurations/${copied.id}`, { method: 'PUT', headers, body: JSON.stringify(theirs) });
    assert.equal(put.status, 200, await put.text());
    await session.click(await copyButton(session));
    await session.waitFor(`${COPY_DIALOG}//*[@data-testid='copy-conflict']`, 'the conflict');
    assert.equal(stored(remoteDir, copied.id).config.layout.navbar.backgroundColor, '#00ff00', 'the change there was kept');

    // Compared again, the copy goes through.
    await session.click(await session.waitFor(`${COPY_DIALOG}//button[normalize-space(.)='Compare again']`));
    await waitUntil(async () => (await diffRow(session, NAVBAR))?.[1] === '#00ff00', 'the diff against the changed version');
    await session.click(await copyButton(session));
    await waitUntil(() => stored(remoteDir, copied.id).config.layout.navbar.backgroundColor === '#aa3300', 'the update there');
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

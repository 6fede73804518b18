// End to end on the real desktop binary: a remote connection that signs in through an OpenID Connect provider
// (the test provider of crates/testkit, tokens of a few seconds) in front of a `studio serve --oidc-issuer`.
// Saves keep working across many token lifetimes; when the provider ends the session, the next save asks for
// the password on top of the editor, keeps what was typed, and lands once signed in. Single sign-on goes
// through the system browser (a stand-in that fills in the provider's form).

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './webdriver.mjs';
import {
  addConnection, closeSettings, connectionEntry, defaultBrowser, designersAuthFile, inputValue, openApp, openDriver,
  openSettings, saveShot, seed, serve, stopAll, stored, tempDir, test, testServer, testServers, useConnection,
} from './support.mjs';

after(stopAll);

const ACCESS_TTL = 3;
/** How far past `exp` the server still takes a token (its clock leeway, docs/security.md). */
const SERVER_LEEWAY = 5;
const SAVE = "//button[normalize-space(.)='Save'][@title='Save (Ctrl+S)']";
const DIALOG = "//dialog[@data-testid='sign-in-dialog']";
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** A provider with short tokens, and a `studio serve` taking its tokens, holding one configuration. */
async function signInServers(dir) {
  const remoteDir = join(dir, 'remote');
  mkdirSync(remoteDir);
  seed(remoteDir, 'Staging Search');
  const { issuer } = await testServer('oidc-provider.mjs', ['--access-ttl', String(ACCESS_TTL), '--refresh-ttl', '60']);
  const server = await serve(remoteDir, ['--auth', designersAuthFile(dir), '--oidc-issuer', issuer]);
  return { remoteDir, issuer, server };
}

const dialogOpen = (session) => session.execute(`return !!document.querySelector('dialog[data-testid=sign-in-dialog]');`);

test('saves keep working across token lifetimes; an ended sign-in asks for the password and keeps the edit', async () => {
  const dir = tempDir('studio-signin-');
  const { remoteDir, issuer, server } = await signInServers(dir);
  const driver = await openDriver(join(dir, 'local'));
  const session = await openApp(driver);
  try {
    await openSettings(session);
    await addConnection(session, {
      name: 'Staging', url: server.base, signIn: 'Username and password', issuer, clientSecret: 'ppt-secret',
      username: 'ana', password: 'ana-password',
    });
    await useConnection(session, 'Staging');
    await closeSettings(session);
    await session.waitFor("//*[contains(@class, 'config-item')][contains(., 'Staging Search')]", 'the remote configuration');
    const title = await session.waitFor("//input[@id='f-config-title']");
    await waitUntil(async () => (await inputValue(session, 'f-config-title')) === 'Staging Search', 'the configuration to open');

    // Saves over more than three access-token lifetimes: the shell renews its tokens without asking.
    const started = Date.now();
    for (let i = 1; i <= 4 || Date.now() - started < 3.5 * ACCESS_TTL * 1000; i++) {
      const wanted = `Staging Search, save ${i}`;
      await session.type(title, wanted);
      await session.click(await session.waitFor(SAVE));
      await waitUntil(() => stored(remoteDir, 1).config.title === wanted, `save ${i} to reach the server`);
      assert.equal(await dialogOpen(session), false, `save ${i} needed no sign-in`);
      await pause(ACCESS_TTL * 1000 * 0.8);
    }
    assert.ok(Date.now() - started > 3 * ACCESS_TTL * 1000, 'the saves spanned more than three token lifetimes');

    // The provider ends every session: refreshing fails from now on, and the token held lapses.
    const revoked = await fetch(new URL('/test/revoke-sessions', issuer), { method: 'POST' });
    assert.equal(revoked.status, 204);
    await pause((ACCESS_TTL + SERVER_LEEWAY + 1) * 1000);

    const typed = 'Staging Search, typed as the session ended';
    await session.type(title, typed);
    await session.click(await session.waitFor(SAVE));
    await session.waitFor(DIALOG, 'the sign-in dialog');
    assert.equal(await inputValue(session, 'signin-username'), 'ana');
    assert.equal(await inputValue(session, 'f-config-title'), typed, 'the typed edit is still in the editor');
    assert.notEqual(stored(remoteDir, 1).config.title, typed, 'nothing was saved before signing in');
    await saveShot(session, 'desktop-sign-in-again');

    await session.type(await session.waitFor("//input[@id='signin-password']"), 'ana-password');
    await session.click(await session.waitFor(`${DIALOG}//button[normalize-space(.)='Sign in']`));
    await waitUntil(() => stored(remoteDir, 1).config.title === typed, 'the save to land after signing in');
    await waitUntil(async () => !(await dialogOpen(session)), 'the sign-in dialog to close');
    await session.waitFor("//*[contains(@class, 'notice')][normalize-space(.)='Saved.' or .//span[normalize-space(.)='Saved.']]", 'the save to be confirmed');
    assert.equal(await inputValue(session, 'f-config-title'), typed);
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

test('single sign-on opens the system browser and signs in through its redirect', async () => {
  const dir = tempDir('studio-sso-');
  const { issuer, server } = await signInServers(dir);
  // The system's browser: the stand-in that signs in as ana on the provider's form and follows the redirect
  // back to the app. Its outcome is noted in a file.
  const outcome = join(dir, 'browser.log');
  const browser = join(dir, 'browser.sh');
  writeFileSync(
    browser,
    `#!/bin/sh\nSTUDIO_TEST_BROWSER_USER=ana STUDIO_TEST_BROWSER_PASSWORD=ana-password '${process.execPath}' '${join(testServers, 'browser.mjs')}' "$1" >> '${outcome}' 2>&1\necho "exit $?" >> '${outcome}'\n`,
    { mode: 0o755 },
  );
  const driver = await openDriver(join(dir, 'local'), defaultBrowser(dir, browser));
  const session = await openApp(driver);
  try {
    await openSettings(session);
    await addConnection(session, { name: 'Single sign-on', url: server.base, signIn: 'Single sign-on in the browser', issuer, clientId: 'studio-desktop' });
    const entry = connectionEntry('Single sign-on');
    assert.match(await session.text(await session.waitFor(entry)), /not signed in/);
    await session.click(await session.waitFor(`${entry}//button[normalize-space(.)='Sign in']`));
    await session.click(await session.waitFor(`${DIALOG}//button[normalize-space(.)='Sign in with the browser']`));
    await waitUntil(async () => !(await dialogOpen(session)), 'the browser sign-in to finish', 120000).catch((error) => {
      throw new Error(`${error.message}; the browser said: ${existsSync(outcome) ? readFileSync(outcome, 'utf8') : 'nothing'}`);
    });
    // The app may finish before the stand-in has exited: wait for its exit status.
    const said = await waitUntil(() => (existsSync(outcome) && /exit \d+/.test(readFileSync(outcome, 'utf8')) ? readFileSync(outcome, 'utf8') : null), 'the browser to exit');
    assert.match(said, /exit 0/, `the browser reached the redirect: ${said}`);
    await waitUntil(async () => /\bsigned in\b/.test((await session.text(await session.waitFor(entry))).replace('not signed in', '')), 'the connection to be signed in');
    await useConnection(session, 'Single sign-on');
    await closeSettings(session);
    await session.waitFor("//*[contains(@class, 'config-item')][contains(., 'Staging Search')]", 'the remote configuration, read with the browser sign-in');
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

// End to end on the real desktop binary against a server that offers the API's nine operations only (the production server's
// double of crates/testkit, with its OpenAPI 2.0 document, in front of a `studio serve` with the demo data):
// the list and the preview work, making a configuration active is unavailable with the reason, and facet
// fields are offered as found in search results.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './webdriver.mjs';
import {
  addConnection, cli, closeSettings, openApp, openDriver, openSettings, saveShot, seed, serve, stopAll, tempDir,
  test, testServer, useConnection,
} from './support.mjs';

after(stopAll);

test('a server offering the nine operations only: list and preview work, what it lacks is unavailable, facets come from results', async () => {
  const dir = tempDir('studio-api-only-');
  const upstreamDir = join(dir, 'upstream');
  mkdirSync(upstreamDir);
  cli(upstreamDir, 'demo-data');
  seed(upstreamDir, 'Second look');
  const upstream = await serve(upstreamDir);
  const { url } = await testServer('api-only.mjs', ['--upstream', upstream.base]);

  const driver = await openDriver(join(dir, 'local'));
  const session = await openApp(driver);
  try {
    await openSettings(session);
    await addConnection(session, { name: 'Production', url, signIn: 'Access token', token: upstream.token });
    await useConnection(session, 'Production');
    await closeSettings(session);

    // The list, and the preview's results for the active (demo) configuration.
    await session.waitFor("//*[contains(@class, 'config-item')][contains(., 'Industry news (demo)')]", 'the demo configuration');
    const second = await session.waitFor("//*[contains(@class, 'config-item')][contains(., 'Second look')]", 'the second configuration');
    await waitUntil(
      () => session.execute(`return document.querySelector('[data-testid=preview-host]')?.shadowRoot?.querySelectorAll('[data-testid=result]').length ?? 0;`),
      'the preview to show results',
    );

    // Making the other one active is unavailable, with the reason.
    await session.click(second);
    const makeActive = await session.waitFor("//button[normalize-space(.)='Make active']");
    await waitUntil(
      () => session.execute(`
        const b = [...document.querySelectorAll('button')].find((x) => x.textContent.trim() === 'Make active');
        return b && b.disabled && b.title === 'This server does not offer making a configuration active.';`),
      'Make active to be disabled with the reason',
    );
    assert.ok(makeActive);

    // Facet fields come from the search answers, marked so.
    await session.click(await session.waitFor("//button[@role='tab'][starts-with(normalize-space(.), 'Facets')]"));
    await session.waitFor("//label[@for='facet-add-field'][contains(normalize-space(.), 'Add a field found in results')]", 'the facet picker over found fields');
    const options = await waitUntil(
      () => session.execute(`
        const found = [...document.querySelectorAll('#facet-add-field option')].map((o) => o.textContent.trim()).filter((t) => t.endsWith('· found in results'));
        return found.length ? found : null;`),
      'facet fields found in results',
    );
    assert.ok(options.length >= 2, `several fields were found: ${options}`);
    await saveShot(session, 'desktop-api-only');
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

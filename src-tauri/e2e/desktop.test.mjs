// End to end on the real desktop binary: Xvfb + tauri-driver + WebKitWebDriver drive the app window.
// The app starts on a data directory filled through the `studio` CLI, switches to a remote `studio serve`
// started here, edits a setting and sees the preview follow, and keeps its choice across a restart.

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './webdriver.mjs';
import {
  addConnection, cli, closeSettings, defaultBrowser, openApp, openDriver, openSettings, saveShot, seed, serve,
  stopAll, tempDir, test, useConnection,
} from './support.mjs';
import { viewableWindows, webProcessEnvs } from './windows.mjs';

const localDir = tempDir('studio-desktop-');
const remoteDir = tempDir('studio-remote-');
let remote; // { base, token }

/** The navbar colour the preview (in its shadow root) shows. */
function previewNavbarColour(session) {
  return session.execute(`
    const host = document.querySelector('[data-testid=preview-host]');
    const bar = host && host.shadowRoot && host.shadowRoot.querySelector('.sa-navbar');
    return bar ? getComputedStyle(bar).backgroundColor : null;`);
}

before(async () => {
  seed(localDir, 'Harbour Search', { layout: { navbar: { backgroundColor: '#123456', fontColor: '#ffffff' } } });
  seed(localDir, 'Museum Catalogue');
  seed(remoteDir, 'Remote Archive');
  remote = await serve(remoteDir);
});

after(stopAll);

test('the window lists the stored configurations, switches to a remote server, and remembers it', async () => {
  const driver = await openDriver(localDir);
  let session = await openApp(driver);
  try {
    assert.match(await session.title(), /Search Studio/);
    // Created hidden, the window is shown once its page has loaded (src-tauri/window.rs).
    await waitUntil(() => viewableWindows() === 1, 'the window to be shown on the screen');
    // WebKit's web process paints on the CPU and runs the page's scripts without a JIT, as the app asks for itself
    // (src-tauri/startup.rs); without them the web process holds about 120 and 14 MB more.
    const web = webProcessEnvs(driver);
    assert.equal(web.length, 1, 'one WebKit web process under the app');
    assert.equal(web[0].get('WEBKIT_DISABLE_DMABUF_RENDERER'), '1', 'painting on the CPU');
    assert.equal(web[0].get('JSC_useJIT'), '0', 'scripts without a JIT');
    // The editor and the preview are set in the app's own font, loaded from its files before the page draws, then
    // `sans-serif` (docs/choices.md, "Fonts"): WebKitGTK matches a system font anew for every size and weight.
    await waitUntil(
      async () =>
        JSON.stringify(await session.execute(`
          const host = document.querySelector('[data-testid=preview-host]');
          const sa = host && host.shadowRoot && host.shadowRoot.querySelector('.sa');
          const loaded = [...document.fonts].filter((f) => f.family.replaceAll('"', '') === 'Studio Sans' && f.status === 'loaded');
          const family = (e) => getComputedStyle(e).fontFamily.replaceAll('"', '');
          return [family(document.body), sa ? family(sa) : null, loaded.length];`)) ===
        '["Studio Sans, sans-serif","Studio Sans, sans-serif",2]',
      'the editor and the preview in the app’s own font, both weights loaded',
    );
    await session.waitFor("//*[contains(normalize-space(.), 'Harbour Search')]", 'the first stored configuration');
    await session.waitFor("//*[contains(normalize-space(.), 'Museum Catalogue')]", 'the second stored configuration');
    await saveShot(session, 'desktop-local');

    // One edit in the real window reaches the preview without a save.
    await session.click(await session.waitFor("//*[contains(@class, 'config-item')][contains(., 'Harbour Search')]"));
    await session.click(await session.waitFor("//button[normalize-space(.)='Layout']"));
    await session.type(await session.waitFor("//input[@id='f-config-layout-navbar-backgroundColor']"), '#aa3300');
    await waitUntil(
      async () => (await previewNavbarColour(session)) === 'rgb(170, 51, 0)',
      'the preview navbar to take the edited colour',
    );

    // Settings → Connections: a remote server with a pasted token, then used.
    await openSettings(session);
    await addConnection(session, { name: 'Remote studio', url: remote.base, signIn: 'Access token', token: remote.token });
    await useConnection(session, 'Remote studio');
    await saveShot(session, 'desktop-connections');
    const settingsText = await session.bodyText();
    assert.ok(!settingsText.includes(remote.token), 'the token is never shown');
    await closeSettings(session);
    await waitUntil(async () => {
      const text = await session.bodyText();
      return text.includes('Remote Archive') && !text.includes('Museum Catalogue');
    }, "the remote server's configurations to replace the local ones");
    await saveShot(session, 'desktop-remote');
    await session.setWindowRect({ width: 1180, height: 760 });
    await waitUntil(async () => (await session.windowRect()).width === 1180, 'the window to take its new size');
  } finally {
    await session.end().catch(() => {});
  }

  // A restart keeps the choice: the remote server's configurations come up again.
  session = await openApp(driver);
  try {
    await session.waitFor("//*[contains(normalize-space(.), 'Remote Archive')]", 'the remote configuration after a restart');
    assert.ok(!(await session.bodyText()).includes('Museum Catalogue'));
    const badge = await session.text(await session.waitFor("//*[@data-testid='connection']"));
    assert.match(badge, /^\W*Remote studio · /, 'the badge names the current connection');
    const rect = await session.windowRect();
    assert.deepEqual([rect.width, rect.height], [1180, 760], 'the window comes back at the size it was left');
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

test('a data directory with its own documents and active configuration is previewed exactly as configured', async () => {
  const dir = tempDir('studio-own-');
  const docs = join(dir, 'docs.jsonl');
  const lines = [];
  for (let i = 0; i < 12; i++) {
    lines.push(JSON.stringify({
      id: `urn:own:${i}`, link: `https://example.org/${i}`, title: `Lighthouse report ${i}`,
      description: `Keeper notes number ${i} about the lamp.`, date: 1.6e12 + i * 8.64e7,
      facetList: [{ field: 'dyn_lit_author', label: 'Author', facets: [{ count: 1, label: i % 2 ? 'Ines' : 'Olaf', value: null }] }],
    }));
  }
  writeFileSync(docs, lines.join('\n') + '\n');
  cli(dir, 'import', '--search-space', 'lights', docs);
  seed(dir, 'Coastal Lights', {
    searchSpace: 'lights',
    result: { itemsPerPage: 3 },
    layout: { navbar: { backgroundColor: '#5b2a86', fontColor: '#ffffff' } },
    filter: { facetsToShow: [{ uri: 'dyn_lit_author', title: 'Keeper on duty' }] },
  });
  const driver = await openDriver(dir);
  const session = await openApp(driver);
  try {
    await session.waitFor("//*[contains(normalize-space(.), 'Coastal Lights')]", 'the stored configuration');
    const shown = await waitUntil(async () => {
      const state = await session.execute(`
        const root = document.querySelector('[data-testid=preview-host]')?.shadowRoot;
        if (!root) return null;
        const results = root.querySelectorAll('[data-testid=result]').length;
        const facet = root.querySelector('[data-facet]')?.getAttribute('data-facet') ?? null;
        const bar = root.querySelector('.sa-navbar');
        return results ? { results, facet, colour: bar && getComputedStyle(bar).backgroundColor,
                           count: root.querySelector('[data-testid=result-count]')?.textContent } : null;`);
      return state;
    }, 'the preview to show results');
    assert.equal(shown.results, 3);
    assert.equal(shown.facet, 'Keeper on duty');
    assert.equal(shown.colour, 'rgb(91, 42, 134)');
    assert.match(shown.count, /12 results/);
    await new Promise((r) => setTimeout(r, 1500));
    const settled = await session.execute(`
      const root = document.querySelector('[data-testid=preview-host]').shadowRoot;
      return { results: root.querySelectorAll('[data-testid=result]').length, text: root.textContent };`);
    await saveShot(session, 'desktop-own-data');
    assert.equal(settled.results, 3, `the preview settles on its results: ${settled.text.slice(0, 200)}`);
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

test('the window enforces its content security policy: an injected inline script or handler does not run', async () => {
  const driver = await openDriver(localDir);
  const session = await openApp(driver);
  try {
    await session.execute(`
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true;';
      document.body.appendChild(script);
      const img = document.createElement('img');
      img.setAttribute('src', 'data:,not-an-image');
      img.setAttribute('onerror', 'window.__handlerRan = true;');
      document.body.appendChild(img);
      const remote = document.createElement('script');
      remote.src = 'https://example.invalid/evil.js';
      document.body.appendChild(remote);
      return true;`);
    await new Promise((r) => setTimeout(r, 1000));
    const seen = await session.execute(
      'return { inline: window.__inlineRan === true, handler: window.__handlerRan === true, violations: window.__violations };',
    );
    assert.equal(seen.inline, false, 'an inline script injected into the page must not run');
    assert.equal(seen.handler, false, 'an inline event handler must not run');
    assert.ok(seen.violations.some((d) => d.startsWith('script-src')), `the CSP reported the blocked script: ${seen.violations}`);
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

test("a result title with the link action opens the document's address in the system's browser", async () => {
  const dir = tempDir('studio-links-');
  const docs = join(dir, 'docs.jsonl');
  writeFileSync(docs, `${JSON.stringify({ id: 'urn:link:1', link: 'https://example.org/keeper?log=7', title: 'Keeper log seven', description: 'Lamp notes.', date: 1.6e12 })}\n`);
  cli(dir, 'import', '--search-space', 'links', docs);
  seed(dir, 'Linked Logs', { searchSpace: 'links', result: { titleAction: 'link' } });
  // The system's default browser, as xdg-open finds it (the https handler of mimeapps.list): a script
  // noting the addresses it is asked to open.
  const opened = join(dir, 'opened.txt');
  const browser = join(dir, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
  const driver = await openDriver(dir, defaultBrowser(dir, browser));
  const session = await openApp(driver);
  try {
    await session.waitFor("//*[contains(normalize-space(.), 'Linked Logs')]", 'the stored configuration');
    await waitUntil(
      () => session.execute(`
        const link = document.querySelector('[data-testid=preview-host]')?.shadowRoot?.querySelector('a.sa-title-link');
        if (!link) return false;
        link.click();
        return true;`),
      'the result title link in the preview',
    );
    const seen = await waitUntil(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : null), 'the browser to be asked');
    assert.equal(seen.trim(), 'https://example.org/keeper?log=7');
    assert.match(await session.bodyText(), /Linked Logs/, 'the app window stays on the editor');
  } finally {
    await session.end().catch(() => {});
    driver.kill();
  }
});

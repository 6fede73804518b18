// End-to-end: the built UI served by a real `studio serve` with the demo data, in headless Chromium; then
// (api-only.mjs) the same UI on the double of a team's production server, which offers the nine operations only; then
// (web-sign-in.mjs) signing in through the server's OpenID Connect provider; the designer's tools (designer.mjs);
// the accessibility check's contrast against axe-core's (contrast.mjs); the editor's own accessibility (audit.mjs);
// and the room the preview gets: zoom, full window, folded columns, the comparison (canvas.mjs).
// Usage: node e2e/run.mjs   (needs target/debug/studio, ui/dist, /usr/bin/chromium and the test servers'
// packages: npm ci --prefix crates/testkit/servers)
// Prints one line per test and ends with `ui-e2e: N passed, M failed`; exits non-zero on a failure.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { ROOT, assertEqual, launch, run, startServer, test, until } from './harness.mjs';
import { runApiOnly } from './api-only.mjs';
import { runWebSignIn } from './web-sign-in.mjs';
import { runDesigner } from './designer.mjs';
import { runAudit } from './audit.mjs';
import { runContrast } from './contrast.mjs';
import { runCanvas } from './canvas.mjs';

const host = '[data-testid="preview-host"]';
const inPreview = (page, css) => page.locator(`${host} ${css}`);
const text = (loc) => loc.evaluateAll((els) => els.map((e) => e.textContent.trim()));
const bg = (loc) => loc.evaluate((e) => getComputedStyle(e).backgroundColor);
const resultCount = (page) => inPreview(page, '[data-testid="result"]').count();
const saveState = (page) => page.getByTestId('save-state').textContent();
const tab = (page, name) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();

test('asks for the token once and opens the active configuration with real results', async ({ page, server }) => {
  await page.goto(server.url + '/');
  await page.locator('#token-input').fill(server.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await until('the demo configuration in the list', () => page.getByRole('button', { name: /Industry news \(demo\)/ }).isVisible());
  await until('ten results in the preview', async () => (await resultCount(page)) === 10);
  assertEqual(await inPreview(page, '[data-testid="result-count"]').textContent(), '2,400 results', 'result count');
  assertEqual(await page.locator('#f-config-title').inputValue(), 'Industry news (demo)', 'title field');
  // In a browser the editor and the preview take the platform's UI font (the desktop app's is sans-serif alone).
  const fonts = await page.evaluate(() => [document.body, document.querySelector('[data-testid="preview-host"]').shadowRoot.querySelector('.sa')]
    .map((e) => getComputedStyle(e).fontFamily));
  assertEqual(JSON.stringify(fonts), '["system-ui, sans-serif","system-ui, sans-serif"]', 'the font in a browser');
});

test('creates a configuration from the default template', async ({ page }) => {
  await page.getByRole('button', { name: '+ New' }).click();
  await page.locator('#new-title').fill('E2E Shop');
  assertEqual(await page.locator('#new-space').inputValue(), 'demo', 'search space preset');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await until('the new configuration opened', async () => (await page.locator('#f-config-title').inputValue()) === 'E2E Shop');
  await until('the new configuration is current in the list', async () =>
    (await page.locator('.config-item[aria-current="true"]').textContent()).includes('E2E Shop'));
  await until('results for the new configuration', async () => (await resultCount(page)) === 10);
});

test('colours, facets and page size reach the preview before saving; undo and redo follow', async ({ page }) => {
  await tab(page, 'Layout');
  await page.locator('#f-config-layout-navbar-backgroundColor').fill('#7b1fa2');
  await until('the navbar colour', async () => (await bg(inPreview(page, '.sa-navbar'))) === 'rgb(123, 31, 162)');
  await page.locator('#f-config-layout-basicActionColor-backgroundColor').fill('#2e7d32');
  await until('the search button colour', async () => (await bg(inPreview(page, '.sa-search .sa-basic'))) === 'rgb(46, 125, 50)');

  await tab(page, 'Facets');
  await page.locator('#facet-add-field').selectOption('dyn_lit_author');
  await page.getByRole('button', { name: 'Add facet' }).click();
  await page.locator('#facet-add-field').selectOption('dyn_uri_topic');
  await page.getByRole('button', { name: 'Add facet' }).click();
  await until('two facets in the preview', async () => JSON.stringify(await text(inPreview(page, '.sa-facet-title'))) === '["Author","Topic"]');
  assertEqual(await page.getByRole('button', { name: /^Author dyn_lit_author/ }).getAttribute('aria-expanded'), 'true', 'an added facet opens');
  await page.locator('#f-config-filter-facetsToShow-0-title').fill('Writers');
  await page.locator('#f-config-filter-facetsToShow-0-maximumTerms').fill('3');
  await until('the renamed, shortened facet', async () =>
    JSON.stringify(await text(inPreview(page, '.sa-facet-title'))) === '["Writers","Topic"]' &&
    (await inPreview(page, '[data-facet="Writers"] .sa-refiner-btn').count()) === 3);

  const facetOrder = () => text(inPreview(page, '.sa-facet-title'));
  await page.locator('.item-list > li').nth(1).locator('.handle').dragTo(page.locator('.item-list > li').nth(0).locator('.handle'));
  await until('Topic dragged above Writers', async () => JSON.stringify(await facetOrder()) === '["Topic","Writers"]');
  await page.getByRole('button', { name: /^Reorder Topic/ }).focus();
  await page.keyboard.press('ArrowDown');
  await until('Topic moved back down by keyboard', async () => JSON.stringify(await facetOrder()) === '["Writers","Topic"]');

  await tab(page, 'Result list');
  await page.locator('#f-config-result-itemsPerPage').fill('4');
  await until('four results', async () => (await resultCount(page)) === 4);
  await page.locator('#f-config-result-itemsPerPage').blur();
  await page.keyboard.press('Control+z');
  await until('undo back to ten results', async () => (await resultCount(page)) === 10);
  assertEqual(await page.locator('#f-config-result-itemsPerPage').inputValue(), '10', 'page size after undo');
  await page.keyboard.press('Control+Shift+z');
  await until('redo to four results', async () => (await resultCount(page)) === 4);
  assertEqual((await saveState(page)).includes('Unsaved changes'), true, 'unsaved state shown');
  assertEqual(await page.locator('.config-item[aria-current="true"] .dot').count(), 1, 'unsaved marker in the list');
});

test('saves with Ctrl+S, and after a reload the edits are kept', async ({ page, server }) => {
  await page.keyboard.press('Control+s');
  await until('saved', async () => (await saveState(page)).includes('Saved'));
  await page.reload();
  await until('the same configuration reopened', async () => (await page.locator('#f-config-title').inputValue()) === 'E2E Shop');
  await until('four results after the reload', async () => (await resultCount(page)) === 4);
  assertEqual(await bg(inPreview(page, '.sa-navbar')), 'rgb(123, 31, 162)', 'navbar colour after reload');
  await until('facets after reload', async () => JSON.stringify(await text(inPreview(page, '.sa-facet-title'))) === '["Writers","Topic"]');
  await tab(page, 'Result list');
  assertEqual(await page.locator('#f-config-result-itemsPerPage').inputValue(), '4', 'page size field after reload');
  await tab(page, 'General');
  await page.getByText('History', { exact: true }).click();
  await until('the save in the history', async () => (await page.locator('.history-list li').first().textContent()).startsWith('Updated'));
  const list = await server.api('GET', '/api/configurations');
  const stored = list.configurations.find((c) => c.config.title === 'E2E Shop');
  assertEqual(stored.config.result.itemsPerPage, 4, 'stored page size');
  assertEqual(stored.config.filter.facetsToShow.map((f) => [f.uri, f.title, f.maximumTerms]), [['dyn_lit_author', 'Writers', 3], ['dyn_uri_topic', 'Topic', 10]], 'stored facets');
  assertEqual(stored.config.layout.navbar.backgroundColor, '#7b1fa2', 'stored navbar colour');
});

test('a key the server refuses is shown at its field and what was typed is kept', async ({ page, server }) => {
  await tab(page, 'Result list');
  const field = page.locator('#f-config-result-itemsPerPage');
  await field.fill('500');
  await until('the client rule marks it as typed', () => page.locator('[data-error-key="config.result.itemsPerPage"]').isVisible());
  await page.locator('#f-config-result-summaryLength').fill('120');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const error = page.locator('[data-error-key="config.result.itemsPerPage"][role="alert"]');
  await until('the server’s refusal at the field', async () => (await error.textContent()).includes('Not saved'));
  assertEqual((await error.textContent()).includes('must be a whole number from 1 to 100'), true, 'server message');
  assertEqual(await field.inputValue(), '500', 'typed value kept');
  assertEqual((await saveState(page)).includes('Unsaved changes'), true, 'still unsaved');
  const list = await server.api('GET', '/api/configurations');
  const stored = list.configurations.find((c) => c.config.title === 'E2E Shop');
  assertEqual([stored.config.result.itemsPerPage, stored.config.result.summaryLength], [4, 120], 'refused key kept its value, the rest saved');
  await field.fill('4');
  await until('clean again once fixed', async () => (await saveState(page)).includes('Saved') && !(await error.count()));
});

test('a change made through the API behind the editor’s back shows the conflict view; keeping mine publishes it', async ({ page, server }) => {
  const list = await server.api('GET', '/api/configurations');
  const stored = list.configurations.find((c) => c.config.title === 'E2E Shop');
  await tab(page, 'General');
  await page.locator('#f-config-title').fill('E2E Shop (mine)');
  await server.api('PUT', `/api/configurations/${stored.id}`, { config: { title: 'E2E Shop (theirs)', result: { summaryLength: 99 } } });
  await page.keyboard.press('Control+s');
  const view = page.getByTestId('conflict-view');
  await until('the conflict view', () => view.isVisible());
  const row = view.locator('tr[data-path="config.title"]');
  const cells = await text(row.locator('td'));
  assertEqual(cells.slice(0, 4), ['config.title', 'E2E Shop', 'E2E Shop (mine)', 'E2E Shop (theirs)'], 'base, mine and theirs');
  const unseen = await server.api('GET', `/api/configurations/${stored.id}`);
  assertEqual(unseen.configuration.config.title, 'E2E Shop (theirs)', 'nothing overwritten before a choice');
  await row.getByLabel('Keep mine').check();
  await view.getByRole('button', { name: 'Publish merged' }).click();
  await until('published', async () => (await saveState(page)).includes('Saved') && !(await view.count()));
  const after = await server.api('GET', `/api/configurations/${stored.id}`);
  assertEqual([after.configuration.config.title, after.configuration.config.result.summaryLength], ['E2E Shop (mine)', 99], 'mine for the title, theirs for the rest');
  await page.locator('#f-config-title').fill('E2E Shop');
  await page.keyboard.press('Control+s');
  await until('saved back', async () => (await saveState(page)).includes('Saved'));
});

test('facet clicks, queries and the detail view in the preview run real searches', async ({ page }) => {
  const count = () => inPreview(page, '[data-testid="result-count"]').textContent();
  const before = await count();
  await inPreview(page, '[data-facet="Writers"] .sa-refiner-btn').first().click();
  await until('a narrower result count', async () => (await count()) !== before);
  const narrowed = await count();
  const query = inPreview(page, '#sa-query');
  await query.fill('energy');
  await until('a query result count', async () => (await count()) !== narrowed);
  // The field's clear button, left out of the page while the field is empty (preview.css), is there once it holds
  // text, at the field's end before its 12 px of padding (in the preview's scale): a click on it empties the field
  // and the results follow.
  const [field, scale] = [await query.boundingBox(), Number(await page.locator(host).getAttribute('data-zoom'))];
  await page.mouse.click(field.x + field.width - 22 * scale, field.y + field.height / 2);
  await until('the query cleared by the field’s own button', async () => (await query.inputValue()) === '' && (await count()) === narrowed);
  await query.fill('energy');
  await until('the query again', async () => (await count()) !== narrowed);
  await inPreview(page, '.sa-reset').click();
  await until('reset to all results', async () => (await count()) === before);
  await inPreview(page, '.sa-result-title button').first().click();
  await until('the detail view', () => inPreview(page, '[data-testid="detail-view"]').isVisible());
  await page.keyboard.press('Escape');
  await until('the detail view closed', async () => (await inPreview(page, '[data-testid="detail-view"]').count()) === 0);
});

test('the preview switches to tablet and phone widths', async ({ page }) => {
  await page.getByText('Phone', { exact: true }).click();
  await until('phone width', async () => (await page.locator(host).evaluate((e) => e.style.width)) === '390px');
  assertEqual(await inPreview(page, '.sa-filters-toggle').isVisible(), true, 'filters toggle on a phone');
  await page.getByText('Tablet', { exact: true }).click();
  await until('tablet width', async () => (await page.locator(host).evaluate((e) => e.style.width)) === '768px');
  await page.getByText('Desktop', { exact: true }).click();
});

test('runs under a strict Content-Security-Policy like the desktop app’s', async ({ page, server }) => {
  const context = await page.context().browser().newContext({ viewport: { width: 1400, height: 900 } });
  const strict = await context.newPage();
  const violations = [];
  strict.on('console', (m) => /Content.Security.Policy|Refused to/i.test(m.text()) && violations.push(m.text()));
  await strict.addInitScript((t) => sessionStorage.setItem('search-studio.token', t), server.token);
  await strict.route(server.url + '/', async (route) => {
    const response = await route.fetch();
    const headers = {
      ...response.headers(),
      'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'",
    };
    await route.fulfill({ response, headers });
  });
  await strict.goto(server.url + '/');
  await until('results under the strict policy', async () => (await strict.locator(`${host} [data-testid="result"]`).count()) > 0);
  const display = await strict.locator(`${host} .sa-body`).evaluate((e) => getComputedStyle(e).display);
  assertEqual(display, 'grid', 'the preview’s own style sheet applies');
  assertEqual(await strict.locator(`${host} .sa-navbar`).evaluate((e) => getComputedStyle(e).backgroundColor) !== 'rgba(0, 0, 0, 0)', true, 'navbar coloured');
  assertEqual(violations, [], 'no policy violations');
  await context.close();
});

test('screenshot of the editor with its preview (docs/screenshot.png)', async ({ page }) => {
  await page.getByRole('button', { name: /Industry news \(demo\)/ }).click();
  await until('the demo configuration', async () =>
    (await page.locator('.config-item[aria-current="true"]').textContent()).includes('Industry news'));
  await tab(page, 'Layout');
  await until('ten results', async () => (await resultCount(page)) === 10);
  await inPreview(page, '[data-facet="Topic"] .sa-expander').first().click();
  await page.evaluate(() => document.fonts.ready);
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  await page.screenshot({ path: process.env.SCREENSHOT_PATH ?? join(ROOT, 'docs', 'screenshot.png') });
});

const server = await startServer();
let summary = { passed: 0, failed: 1 };
let close = async () => {};
try {
  const launched = await launch();
  close = launched.close;
  const browser = launched.browser;
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(5000);
  page.on('pageerror', (e) => console.log(`  page error: ${e.message}`));
  summary = await run({ page, server });
  console.log('  on a server that offers the nine operations only:');
  const apiOnly = await runApiOnly(browser);
  console.log('  signing in through the server’s OpenID Connect provider:');
  const webSignIn = await runWebSignIn(browser);
  console.log('  the designer’s tools:');
  const designer = await runDesigner(browser);
  console.log('  the accessibility check’s contrast against axe-core’s:');
  const contrast = await runContrast(browser);
  console.log('  the editor’s own accessibility:');
  const audit = await runAudit(browser);
  console.log('  the room the preview gets (zoom, full window, folded columns, compare):');
  const canvas = await runCanvas(browser);
  summary = {
    passed: summary.passed + apiOnly.passed + webSignIn.passed + designer.passed + contrast.passed + audit.passed + canvas.passed,
    failed: summary.failed + apiOnly.failed + webSignIn.failed + designer.failed + contrast.failed + audit.failed + canvas.failed,
  };
} finally {
  await close();
  server.stop();
}
console.log(`ui-e2e: ${summary.passed} passed, ${summary.failed} failed`);
process.exit(summary.failed ? 1 : 0);

// End-to-end on a team's production server: the built UI served by the double of such a server
// (crates/testkit/servers/api-only.mjs: the API's nine operations, Spring errors for everything else, Swagger
// 2.0 at /api-docs) in front of a real `studio serve` with the demo data, in headless Chromium. What the
// server lacks is disabled with the reason or explained; facets come from the fields found in results.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertEqual, startApiOnly, startServer, suite, until } from './harness.mjs';

const { test, run } = suite();

const host = '[data-testid="preview-host"]';
const inPreview = (page, css) => page.locator(`${host} ${css}`);
const text = (loc) => loc.evaluateAll((els) => els.map((e) => e.textContent.trim()));
const resultCount = (page) => inPreview(page, '[data-testid="result"]').count();
const saveState = (page) => page.getByTestId('save-state').textContent();
const tab = (page, name) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
const actions = (page) => page.getByRole('group', { name: /^Actions for/ });
const EXTENSION_PATH = /\/api\/(searchspaces|configurations\/(visible|\d+\/(set|logs)))$/;

/** Every text on the page, the preview's shadow root included. */
const pageText = (page) =>
  page.evaluate((sel) => `${document.body.innerText}\n${document.querySelector(sel)?.shadowRoot?.textContent ?? ''}`, host);

/** Fails when a bare "Not Found" (or a bare 404) is shown anywhere. */
async function noBareNotFound(page) {
  const bare = (await pageText(page)).split('\n').map((l) => l.trim()).filter((l) => /^(?:\d{3} )?Not Found$|:\s*(?:\d{3} )?Not Found$/.test(l));
  assertEqual(bare, [], 'lines that are only "Not Found"');
}

test('asks for the token once and lists the configurations with real results', async ({ page, front }) => {
  await page.goto(front.url + '/');
  await page.locator('#token-input').fill(front.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await until('the demo configuration in the list', () => page.getByRole('button', { name: /Industry news \(demo\)/ }).isVisible());
  await until('ten results in the preview', async () => (await resultCount(page)) === 10);
  assertEqual(await inPreview(page, '[data-testid="result-count"]').textContent(), '2,400 results', 'result count');
  assertEqual(await page.locator('.config-item[aria-current="true"] .badge-active').count(), 1, 'the active marker from the list');
  await noBareNotFound(page);
});

test('an edit is saved and read back through the server', async ({ page, front }) => {
  await tab(page, 'Result list');
  await page.locator('#f-config-result-itemsPerPage').fill('6');
  await until('six results before saving', async () => (await resultCount(page)) === 6);
  await page.keyboard.press('Control+s');
  await until('saved', async () => (await saveState(page)).includes('Saved'));
  const list = await front.api('GET', '/api/configurations');
  const stored = list.configurations.find((c) => c.config.title === 'Industry news (demo)');
  assertEqual(stored.config.result.itemsPerPage, 6, 'stored page size');
  await page.reload();
  await until('the edit after a reload', async () => (await resultCount(page)) === 6);
});

test('creates a configuration over the search space the configurations use', async ({ page }) => {
  await page.getByRole('button', { name: '+ New' }).click();
  await page.locator('#new-title').fill('Production shop');
  assertEqual(await page.locator('#new-space').inputValue(), 'demo', 'search space suggested');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await until('the new configuration opened', async () => (await page.locator('#f-config-title').inputValue()) === 'Production shop');
  await until('results for the new configuration', async () => (await resultCount(page)) === 10);
});

test('a facet chosen from the fields found in results reaches the preview and is saved', async ({ page, front }) => {
  await tab(page, 'Facets');
  const select = page.locator('#facet-add-field');
  assertEqual(await page.locator('label[for="facet-add-field"]').textContent().then((t) => t.trim()), 'Add a field found in results of “demo”', 'label');
  await until('fields found in results', async () => (await select.locator('option').count()) > 3);
  const options = (await text(select.locator('option'))).slice(1);
  assertEqual(options.every((o) => o.endsWith('· found in results')), true, `every field marked (${options.join('; ')})`);
  const author = options.find((o) => o.includes('(dyn_lit_author)'));
  if (!author) throw new Error(`dyn_lit_author not among ${options.join('; ')}`);
  const label = author.slice(0, author.indexOf(' (dyn_lit_author)'));
  await select.selectOption('dyn_lit_author');
  await page.getByRole('button', { name: 'Add facet' }).click();
  await until('the facet in the preview', async () => JSON.stringify(await text(inPreview(page, '.sa-facet-title'))) === JSON.stringify([label]));
  await until('its values in the preview', async () => (await inPreview(page, `[data-facet="${label}"] .sa-refiner-btn`).count()) > 0);
  assertEqual((await page.locator('.item-sub').first().textContent()).includes('found in results'), true, 'the facet is marked');
  await page.keyboard.press('Control+s');
  await until('saved', async () => (await saveState(page)).includes('Saved'));
  const list = await front.api('GET', '/api/configurations');
  const stored = list.configurations.find((c) => c.config.title === 'Production shop');
  assertEqual(stored.config.filter.facetsToShow.map((f) => [f.uri, f.title, f.refId]), [['dyn_lit_author', label, 'dyn_lit_author']], 'stored facet');
});

test('"Make active" and "Delete" are shown as not offered, with the reason', async ({ page }) => {
  const makeActive = actions(page).getByRole('button', { name: 'Make active' });
  assertEqual(await makeActive.isDisabled(), true, 'Make active disabled');
  assertEqual(await makeActive.getAttribute('title'), 'This server does not offer making a configuration active.', 'its reason');
  const remove = actions(page).getByRole('button', { name: 'Delete' });
  assertEqual(await remove.isDisabled(), true, 'Delete disabled');
  assertEqual(await remove.getAttribute('title'), 'This server does not offer deleting a configuration.', 'its reason');
  await tab(page, 'General');
  assertEqual(await page.locator('#make-active-not-offered').textContent(), 'This server does not offer making a configuration active.', 'reason beside the General pane’s button');
});

test('History explains that the server keeps none and lists what was published from here', async ({ page }) => {
  await page.getByText('History', { exact: true }).click();
  const note = page.getByTestId('no-server-history');
  await until('the explanation', () => note.isVisible());
  assertEqual(await note.textContent(), 'This server keeps no history of configurations; versions you published from this app are listed.', 'explanation');
  await until('the version published from here', async () => (await page.locator('.history-list li').first().textContent()).startsWith('Published from this app'));
  assertEqual(await page.locator('.history [role="alert"]').count(), 0, 'no error in the history');
});

test('nothing the server lacks was asked for, and no bare "Not Found" is shown', async ({ page, asked }) => {
  const lacking = asked.filter((r) => EXTENSION_PATH.test(new URL(r.url).pathname) || (r.method === 'DELETE'));
  assertEqual(lacking, [], 'requests to operations the server lacks');
  assertEqual(asked.filter((r) => r.status >= 400).map((r) => `${r.method} ${r.url} ${r.status}`), [], 'failed requests');
  await noBareNotFound(page);
});

test('without /api-docs, "Make active" is refused naming the operation, and then disabled with the reason', async ({ page, server }) => {
  const bare = await startApiOnly(server, { openapi: 'none' });
  const context = await page.context().browser().newContext({ viewport: { width: 1600, height: 1000 } });
  const other = await context.newPage();
  try {
    await other.addInitScript((t) => sessionStorage.setItem('search-studio.token', t), server.token);
    await other.goto(bare.url + '/');
    await until('the list', () => other.getByRole('button', { name: /Production shop/ }).isVisible());
    await other.getByRole('button', { name: /Production shop/ }).click();
    await until('it opened', async () => (await other.locator('#f-config-title').inputValue()) === 'Production shop');
    const makeActive = actions(other).getByRole('button', { name: 'Make active' });
    assertEqual(await makeActive.isDisabled(), false, 'offered until the server says otherwise');
    await makeActive.click();
    const alert = other.locator('.notice[role="alert"]');
    await until('the refusal', () => alert.isVisible());
    assertEqual((await alert.locator('span').first().textContent()).trim(), 'Could not make it active: this server does not offer making a configuration active', 'message');
    await until('disabled once known', () => makeActive.isDisabled());
    assertEqual(await makeActive.getAttribute('title'), 'This server does not offer making a configuration active.', 'its reason');
    await noBareNotFound(other);
  } finally {
    await context.close();
    bare.stop();
  }
});

test('screenshot of the editor on a server that offers the nine operations only, showing what such a server gives', async ({ page, front }) => {
  await tab(page, 'Facets');
  await page.evaluate(() => document.fonts.ready);
  const list = await front.api('GET', '/api/configurations');
  const open = list.configurations.find((c) => c.config.title === 'Production shop');
  const active = list.configurations.find((c) => c.id === list.activeId);

  // The list: every configuration the server has, the one open marked current, the server's active one marked.
  for (const c of list.configurations) {
    assertEqual(await page.getByRole('button', { name: new RegExp(c.config.title.replace(/[()]/g, '\\$&')) }).isVisible(), true, `“${c.config.title}” in the list`);
  }
  assertEqual((await page.locator('.config-item[aria-current="true"]').textContent()).includes('Production shop'), true, 'the open configuration is current');
  assertEqual(await page.locator('.config-item').filter({ hasText: active.config.title }).locator('.badge-active').count(), 1, 'the active one marked');
  // What the server lacks: shown as not offered, with the reason.
  const actionsOf = actions(page);
  for (const [name, reason] of [['Make active', 'making a configuration active'], ['Delete', 'deleting a configuration']]) {
    const button = actionsOf.getByRole('button', { name });
    assertEqual([await button.isDisabled(), await button.getAttribute('title')], [true, `This server does not offer ${reason}.`], name);
  }

  // The Facets pane: the facet chosen from the fields found in results, marked so.
  assertEqual(await page.getByRole('tab', { name: /^Facets/ }).getAttribute('aria-selected'), 'true', 'the Facets pane shown');
  assertEqual(await text(page.locator('.item-list > li .item-sub')).then((subs) => subs.map((t) => t.includes('found in results'))), [true], 'the facet marked as found in results');

  // The preview: the server's own answer for the open configuration, and its facet with values.
  const answer = await front.api('POST', `/api/configurations/${open.id}/search`, {});
  await until('the server’s results in the preview', async () =>
    JSON.stringify(await text(inPreview(page, '[data-testid="result"] .sa-result-title'))) === JSON.stringify(answer.result.map((d) => d.title)));
  assertEqual(await inPreview(page, '[data-testid="result-count"]').textContent(), `${answer.total.toLocaleString('en-US')} results`, 'the result count');
  const facets = open.config.filter.facetsToShow.map((f) => f.title);
  assertEqual(await text(inPreview(page, '.sa-facet-title')), facets, 'the facet in the preview');
  assertEqual((await inPreview(page, `[data-facet="${facets[0]}"] .sa-refiner-btn`).count()) > 0, true, 'its values');

  // The server is named and answers.
  const badge = await page.getByTestId('connection').textContent();
  assertEqual([badge.includes(new URL(front.url).host), badge.includes('online')], [true, true], `the connection badge (${badge.trim()})`);
  // Nothing failed: no error notice, no bare "Not Found".
  assertEqual(await text(page.locator('[role="alert"]')), [], 'errors shown');
  await noBareNotFound(page);

  const path = join(process.env.E2E_ARTIFACTS ?? tmpdir(), 'api-only.png');
  const png = await page.screenshot({ path });
  // The whole window: a PNG's width and height are the first fields of its header chunk.
  assertEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1600, 1000], 'the screenshot’s size');
  console.log(`      screenshot: ${path}`);
});

/** Runs this part: its own `studio serve` with the demo data, the double in front of it, one page. */
export async function runApiOnly(browser) {
  const server = await startServer();
  let front = null;
  try {
    front = await startApiOnly(server);
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.setDefaultTimeout(5000);
    page.on('pageerror', (e) => console.log(`  page error: ${e.message}`));
    // Every API request the page makes, with its answer's status.
    const asked = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api')) asked.push({ method: r.request().method(), url: r.url(), status: r.status() });
    });
    // Reads back through the double, as any client of the production server would.
    const api = async (method, path, body) => {
      const res = await fetch(front.url + path, {
        method,
        headers: { Authorization: `Bearer ${server.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    };
    return await run({ page, asked, server, front: { url: front.url, token: server.token, api } });
  } finally {
    front?.stop();
    server.stop();
  }
}

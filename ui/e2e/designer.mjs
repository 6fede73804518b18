// End-to-end: the designer's tools over the preview, in headless Chromium against a real `studio serve` with the
// demo data: Inspect opens the field behind a part; Compare keeps two previews in step; scenarios survive a
// reload; facet health counts equal the imported documents'; the accessibility check finds an unreadable pair.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, assertEqual, runAlone, runWithServer, suite, until } from './harness.mjs';

const { test, run } = suite();

/** Writes docs/NAME.png (or into SCREENSHOT_DIR): the README shows them. */
async function shot(page, name) {
  const dir = process.env.SCREENSHOT_DIR ?? join(ROOT, 'docs');
  mkdirSync(dir, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

const host = '[data-testid="preview-host"]';
const inPreview = (page, css) => page.locator(`${host} ${css}`);
const bg = (loc) => loc.evaluate((e) => getComputedStyle(e).backgroundColor);
const tab = (page, name) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
const focusedId = (page) => page.evaluate(() => document.activeElement?.id ?? '');
const selectedTab = (page) => page.locator('[role="tab"][aria-selected="true"]').textContent();

test('opens the demo configuration with real results', async ({ page, server }) => {
  await page.goto(server.url + '/');
  await page.locator('#token-input').fill(server.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await until('ten results in the preview', async () => (await inPreview(page, '[data-testid="result"]').count()) === 10);
});

test('inspect: pointing names the settings, a click opens the field behind the navbar, a facet group and a title', async ({ page }) => {
  await page.getByRole('button', { name: 'Inspect' }).click();
  assertEqual(await page.getByRole('button', { name: 'Inspect' }).getAttribute('aria-pressed'), 'true', 'Inspect is on');

  await inPreview(page, '.sa-navbar').hover({ position: { x: 600, y: 10 } });
  await until('the navbar highlighted with its settings', async () => (await page.getByTestId('inspect-box').textContent()).includes('Navbar background'));
  await inPreview(page, '.sa-navbar').click({ position: { x: 600, y: 10 } });
  await until('the Layout pane with the navbar colour focused', async () =>
    (await selectedTab(page)).startsWith('Layout') && (await focusedId(page)) === 'f-config-layout-navbar-backgroundColor');

  const topic = inPreview(page, '[data-facet="Topic"] .sa-facet-title');
  const index = await inPreview(page, '[data-facet="Topic"]').getAttribute('data-index');
  await topic.hover();
  await until('the facet group named', async () => (await page.getByTestId('inspect-box').textContent()).includes('Facet group “Topic”'));
  await shot(page, 'inspect');
  await topic.click();
  await until('the Facets pane with Topic’s title focused', async () =>
    (await selectedTab(page)).startsWith('Facets') && (await focusedId(page)) === `f-config-filter-facetsToShow-${index}-title`);
  assertEqual(await page.locator(`#f-config-filter-facetsToShow-${index}-title`).inputValue(), 'Topic', 'the focused field is Topic’s');

  const title = inPreview(page, '.sa-result-title').first();
  await title.click();
  await until('the Result list pane with the title action focused', async () =>
    (await selectedTab(page)).startsWith('Result list') && (await focusedId(page)) === 'f-config-result-titleAction');
  assertEqual(await inPreview(page, '[data-testid="detail-view"]').count(), 0, 'an inspected title does not open the document');

  // By keyboard: the list of the preview's parts, each a link to its setting.
  const parts = page.getByRole('navigation', { name: 'Parts of the preview' });
  await parts.locator('summary').click();
  await parts.getByRole('button', { name: 'Summary' }).focus();
  await page.keyboard.press('Enter');
  await until('the summary length focused', async () => (await focusedId(page)) === 'f-config-result-summaryLength');

  await page.keyboard.press('Control+Alt+i');
  assertEqual(await page.getByRole('button', { name: 'Inspect' }).getAttribute('aria-pressed'), 'false', 'the shortcut ends Inspect');
  await title.click();
  await until('the detail view opens again once Inspect is off', async () => (await inPreview(page, '[data-testid="detail-view"]').count()) === 1);
  await inPreview(page, '.sa-close').click();
});

test('compare: the draft next to the published version, in step over a query, a refiner and a page', async ({ page }) => {
  await tab(page, 'Layout');
  await page.locator('#f-config-layout-navbar-backgroundColor').fill('#7b1fa2');
  await page.getByRole('button', { name: 'Compare' }).click();
  const theirs = (css) => page.locator(`[data-testid="compare-theirs"] ${host} ${css}`);
  const mine = (css) => page.locator(`[data-testid="compare-mine"] ${host} ${css}`);
  await until('both sides with results', async () =>
    (await theirs('[data-testid="result"]').count()) === 10 && (await mine('[data-testid="result"]').count()) === 10);
  assertEqual(await page.locator('.compare-choice select').inputValue(), 'published', 'compares with the published version first');
  assertEqual(await bg(mine('.sa-navbar')), 'rgb(123, 31, 162)', 'the draft’s navbar');
  const published = await bg(theirs('.sa-navbar'));
  assertEqual(published !== 'rgb(123, 31, 162)', true, 'the published navbar keeps its colour');
  assertEqual(await page.getByTestId('compare-diff-count').textContent(), '1 setting differs', 'one setting differs');
  await page.getByRole('button', { name: 'Navbar background', exact: true }).click();
  await until('the differing field focused', async () => (await focusedId(page)) === 'f-config-layout-navbar-backgroundColor');

  const count = (side) => side('[data-testid="result-count"]').textContent();
  await theirs('#sa-query').fill('energy');
  await until('the query in both', async () =>
    (await mine('#sa-query').inputValue()) === 'energy' && (await count(mine)) === (await count(theirs)) && (await count(mine)) !== '2,400 results');

  await mine('[data-facet="Topic"] .sa-refiner-btn').first().click();
  await until('the refiner selected in both', async () =>
    (await theirs('.sa-chip').count()) === 1 && (await mine('.sa-chip').count()) === 1 && (await count(mine)) === (await count(theirs)));

  await theirs('.sa-page[aria-label="Page 2"]').click();
  await until('page 2 in both', async () =>
    (await mine('.sa-page[aria-current="page"]').textContent()) === '2' && (await theirs('.sa-page[aria-current="page"]').textContent()) === '2');
  const firstTitles = async (side) => side('.sa-result-title').first().textContent();
  assertEqual(await firstTitles(mine), await firstTitles(theirs), 'the same documents on both sides');
  await shot(page, 'compare');

  // Phone width: both sides follow; a narrow window stacks them.
  await page.getByText('Phone', { exact: true }).click();
  await until('both at phone width', async () =>
    (await page.locator('[data-testid="compare-mine"] [data-testid="preview-host"]').evaluate((e) => e.style.width)) === '390px' &&
    (await page.locator('[data-testid="compare-theirs"] [data-testid="preview-host"]').evaluate((e) => e.style.width)) === '390px');
  await page.setViewportSize({ width: 640, height: 1000 });
  await until('stacked when there is no room', async () => (await page.getByTestId('compare').getAttribute('class')).includes('stacked'));
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.getByText('Desktop', { exact: true }).click();
  await page.getByRole('button', { name: 'Compare' }).click();
  await inPreview(page, '.sa-reset').click();
  await page.getByRole('button', { name: 'Discard' }).click();
});

test('accessibility: an unreadable pair is found, opens its field, and the badge goes to zero once fixed', async ({ page }) => {
  const badge = () => page.getByTestId('a11y-badge').locator('.count').textContent();
  await until('no findings on the demo configuration', async () => (await badge()) === '0');
  await tab(page, 'Layout');
  await page.locator('#f-config-layout-navbar-fontColor').fill('#1a3d8f');
  await until('one finding counted in the header', async () => (await badge()) === '1');
  await page.getByTestId('a11y-badge').click();
  const finding = page.getByTestId('a11y-findings').locator('li');
  // The panel is a part of its own, loaded when first opened.
  await until('the finding listed in the panel', async () => (await finding.count()) === 1);
  const text = await finding.first().textContent();
  assertEqual(/^Title: “.+” is drawn #1a3d8f on #0d47a1: 1\.\d\d:1, needs 4\.5:1\. Change “Navbar text” or “Navbar background”/.test(text), true, `the finding names the part, its colours as drawn and its ratio (${text})`);
  await page.locator('.vision-choice select').selectOption('protanopia');
  await page.locator('.preview-frame').evaluate((e) => e.scrollTo(0, 0));
  await shot(page, 'accessibility');
  await page.locator('.vision-choice select').selectOption('normal');
  await tab(page, 'General');
  await finding.first().getByRole('button', { name: 'Open the setting' }).click();
  await until('the navbar text colour focused', async () => (await focusedId(page)) === 'f-config-layout-navbar-fontColor');
  await page.locator('#f-config-layout-navbar-fontColor').fill('#ffffff');
  await until('the badge back to zero', async () => (await badge()) === '0');
  assertEqual(await page.getByTestId('a11y-none').isVisible(), true, 'the panel says there is nothing to fix');

  const filter = () => page.locator(host).first().evaluate((e) => e.style.filter);
  await page.locator('.vision-choice select').selectOption('deuteranopia');
  await until('the preview seen as a deuteranope sees it', async () => (await filter()).includes('#sim-deuteranopia'));
  const simulated = await inPreview(page, '.sa-search .sa-basic').screenshot();
  await page.locator('.vision-choice select').selectOption('normal');
  await until('normal vision again', async () => (await filter()) === '');
  const normal = await inPreview(page, '.sa-search .sa-basic').screenshot();
  assertEqual(simulated.equals(normal), false, 'the simulation changes what is drawn');
  await page.getByRole('button', { name: 'Close the accessibility check' }).click();
});

test('scenarios: searches saved under a name survive a reload and F8 steps through them', async ({ page }) => {
  await inPreview(page, '#sa-query').fill('energy');
  await until('the query searched', async () => (await inPreview(page, '[data-testid="result-count"]').textContent()) !== '2,400 results');
  await inPreview(page, '[data-facet="Topic"] .sa-refiner-btn').first().click();
  await until('one filter selected', async () => (await inPreview(page, '.sa-chip').count()) === 1);
  const chip = (await inPreview(page, '.sa-chip').textContent()).replace(/×.*$/s, '').trim();
  await page.getByText('Tablet', { exact: true }).click();
  await page.getByRole('button', { name: 'Save search…' }).click();
  await page.locator('#scenario-name').fill('Energy on a tablet');
  await page.locator('.scenario-name').getByRole('button', { name: 'Save' }).click();
  await until('the scenario listed', async () => (await page.locator('.scenario-choice option').allTextContents()).includes('Energy on a tablet'));

  await inPreview(page, '.sa-reset').click();
  await page.getByText('Desktop', { exact: true }).click();
  await page.getByRole('button', { name: 'Save search…' }).click();
  await page.locator('#scenario-name').fill('Everything');
  await page.keyboard.press('Enter');
  await until('two scenarios', async () => (await page.locator('.scenario-choice option').count()) === 3);

  await page.reload();
  await until('results after the reload', async () => (await inPreview(page, '[data-testid="result"]').count()) === 10);
  await until('the scenarios kept', async () =>
    JSON.stringify((await page.locator('.scenario-choice option').allTextContents()).slice(1)) === '["Energy on a tablet","Everything"]');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('F8');
  const width = () => page.locator('input[name="preview-width"]:checked').inputValue();
  await until('the first scenario applied', async () =>
    (await inPreview(page, '#sa-query').inputValue()) === 'energy' && (await width()) === 'tablet' &&
    (await inPreview(page, '.sa-chip').count()) === 1 && (await inPreview(page, '.sa-chip').textContent()).startsWith(chip));
  await page.keyboard.press('F8');
  await until('the second scenario applied', async () =>
    (await inPreview(page, '#sa-query').inputValue()) === '' && (await width()) === 'desktop' && (await inPreview(page, '.sa-chip').count()) === 0);
  await page.keyboard.press('Shift+F8');
  await until('back to the first', async () => (await width()) === 'tablet');
  await page.getByText('Desktop', { exact: true }).click();
  await inPreview(page, '.sa-reset').click();
});

test('why this document: similar and recommended documents say what they share', async ({ page }) => {
  await page.locator('.config-item', { hasText: 'Industry news (demo)' }).click();
  await until('the demo’s results', async () => (await inPreview(page, '[data-testid="result"]').count()) === 10);
  await inPreview(page, '.sa-result-title').first().click();
  const similar = inPreview(page, '[data-testid="detail-similar"] [data-testid="why"]');
  await until('reasons under the similar documents', async () => (await similar.count()) > 0);
  await similar.first().locator('summary').click();
  const text = await similar.first().locator('p').textContent();
  assertEqual(/^Shares the (broader )?concepts? “.+”.* Found by “concepts”\.$/.test(text.trim()), true, `a similar document’s reasons (${text})`);
  const recommended = inPreview(page, '[data-testid="detail-recommended"] [data-testid="why"]');
  await until('reasons under the recommended documents', async () => (await recommended.count()) > 0);
  await recommended.first().locator('summary').click();
  assertEqual((await recommended.first().locator('p').textContent()).includes('Found by “related-concepts”'), true, 'the recommender named');
  await inPreview(page, '.sa-close').click();
});

/**
 * A search space made up here, with what its facet health must be counted from it: a literal field most documents
 * carry, a three-level concept hierarchy, and a field only a few documents have.
 */
function healthCorpus() {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = (n) => Math.floor(random() * n);
  const concept = (path) => `https://example.org/theme/${path.join('/')}`;
  const docs = [];
  for (let i = 0; i < 300; i++) {
    const facetList = [];
    if (random() < 0.8) {
      const colours = [...new Set([pick(12), pick(12)].slice(0, 1 + pick(2)))].map((c) => `Colour ${c}`);
      facetList.push({ field: 'dyn_lit_colour', label: 'Colour', facets: colours.map((label) => ({ count: 1, label, value: null })) });
    }
    if (random() < 0.6) {
      const path = [pick(5), pick(3), pick(2)].slice(0, 1 + pick(3));
      const node = (depth) => ({
        count: 1, label: `Theme ${path.slice(0, depth + 1).join('.')}`, value: concept(path.slice(0, depth + 1)),
        children: depth + 1 < path.length ? [node(depth + 1)] : null,
      });
      facetList.push({ field: 'dyn_uri_theme', label: 'Theme', facets: [node(0)] });
    }
    if (i % 50 === 0) facetList.push({ field: 'dyn_lit_rare', label: 'Rare', facets: [{ count: 1, label: `Rare ${i}`, value: null }] });
    docs.push({ id: `https://example.org/doc/${i}`, title: `Document ${i}`, description: 'About colours and themes.', date: 1718000000000 + i, facetList });
  }
  /** Per field: documents carrying it, distinct values per level. */
  const counts = {};
  for (const d of docs) {
    for (const g of d.facetList) {
      const c = (counts[g.field] ??= { documents: 0, levels: [] });
      c.documents++;
      const walk = (refiners, depth) => refiners.forEach((r) => {
        (c.levels[depth] ??= new Set()).add(r.value ?? r.label);
        walk(r.children ?? [], depth + 1);
      });
      walk(g.facets, 0);
    }
  }
  const expected = Object.fromEntries(Object.entries(counts).map(([field, c]) => [field, {
    documents: c.documents, byLevel: c.levels.map((s) => s.size), values: c.levels.reduce((n, s) => n + s.size, 0),
  }]));
  return { jsonl: docs.map((d) => JSON.stringify(d)).join('\n') + '\n', total: docs.length, expected };
}

const corpus = healthCorpus();

test('facet health: each candidate field’s numbers equal the counts of the imported documents', async ({ page }) => {
  await page.getByRole('button', { name: '+ New' }).click();
  await page.locator('#new-title').fill('Health check');
  await page.locator('#new-space').fill('health');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await until('the new configuration opened', async () =>
    (await page.locator('.config-item[aria-current="true"]').textContent()).includes('Health check'));
  await tab(page, 'Facets');
  const option = (field) => page.locator(`#facet-add-field option[value="${field}"]`);
  const pct = (n) => `${Math.round((100 * n) / corpus.total)} %`;
  for (const [field, e] of Object.entries(corpus.expected)) {
    const levels = e.byLevel.length > 1 ? `; ${e.byLevel.length} levels` : '';
    const summary = `${e.values} value${e.values === 1 ? '' : 's'}${levels}; ${e.documents} document${e.documents === 1 ? '' : 's'} (${pct(e.documents)})`;
    await until(`the health of ${field}`, async () => (await option(field).textContent()).includes(`— ${summary}`));
  }
  const theme = corpus.expected.dyn_uri_theme;
  await page.locator('#facet-add-field').selectOption('dyn_uri_theme');
  const candidate = page.getByTestId('candidate-health');
  assertEqual(
    (await candidate.locator('.facet-health-summary').textContent()).trim(),
    `${theme.values} values; ${Math.min(10, theme.byLevel[0])} shown; 3 of 3 levels; ${theme.documents} documents (${pct(theme.documents)})`,
    'the chosen field against a new facet’s settings',
  );
  assertEqual(await candidate.locator('.badge').count(), 0, 'exact numbers, not an estimate');
  await page.locator('#facet-add-field').selectOption('dyn_lit_rare');
  assertEqual(
    await candidate.locator('.warning').allTextContents(),
    [`Only ${pct(corpus.expected.dyn_lit_rare.documents)} of documents have this field: the facet shows almost nothing for most searches.`],
    'a field few documents have is warned about',
  );
});

/**
 * Runs this part: its own `studio serve` with the demo data and the made-up search space (imported from a file
 * in a temporary directory, removed at the end), and one page.
 */
export async function runDesigner(browser) {
  const dir = mkdtempSync(join(tmpdir(), 'studio-health-'));
  try {
    const file = join(dir, 'health.jsonl');
    writeFileSync(file, corpus.jsonl);
    return await runWithServer(run, browser, { server: { imports: [{ space: 'health', file }] } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runAlone(import.meta, 'designer', runDesigner);
